// subscale: the command-line entry (pipeline/commands/command_line.cpp holds the command line).
#include "pipeline/commands/command_line.hpp"

int main(int argc, char** argv) { return subscale::pipeline::command_line_main(argc, argv); }
