#pragma once
// The subscale command line as a function, so that the program's main() is one call and the
// options, the dispatch and the exit codes compile with the other commands.

namespace subscale::pipeline {

// Parses argv, runs the chosen subcommand and returns the process's exit code (0 success, 2 usage
// or config, 3 input, 4 resource, 1 anything else). Starts MPI first when run under mpirun or srun.
int command_line_main(int argc, char** argv);

}  // namespace subscale::pipeline
