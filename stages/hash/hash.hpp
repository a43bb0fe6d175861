#pragma once
// Stage hash: every row of a table of fixed-width records (row_table.hpp) hashed with one of the
// seed's functions into 32- or 64-bit values, on the CPU or the GPU (hash_rows.hpp; the CUDA part
// in hash_rows_cuda.*), and how well the function spreads that table (hash_quality.hpp, with its
// JSON form in hash_quality_json.hpp).
#include "stages/hash/hash_quality.hpp"
#include "stages/hash/hash_quality_json.hpp"
#include "stages/hash/hash_rows.hpp"
#include "stages/hash/row_table.hpp"
