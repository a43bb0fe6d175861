#pragma once
// Stage join (docs/stages.md §3): the equi-join of two relations on a 64-bit key by radix
// partitioning and bucket-chained hash tables, on the CPU or the GPU (hash_join.hpp, the choices a
// caller makes in join_options.hpp and what it gets back in join_output.hpp); over column tables,
// S's rows with R's columns attached (column_join.hpp); and the data matrix given a second table's
// columns by an id column before clustering (attach_columns.hpp).
#include "stages/join/attach_columns.hpp"
#include "stages/join/column_join.hpp"
#include "stages/join/hash_join.hpp"
#include "stages/join/join_options.hpp"
#include "stages/join/join_output.hpp"
