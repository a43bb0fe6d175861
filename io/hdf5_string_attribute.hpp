#pragma once
// Reading the text of a string attribute whichever way it was written: ASCII or UTF-8, fixed or
// variable length. h5py, for one, writes `attrs["kind"] = "decimal"` as a variable-length UTF-8
// string, and the project's own writer as a fixed-length ASCII one; both must read the same.
#include <hdf5.h>

#include <optional>
#include <string>

namespace subscale::io {

// The attribute's text (up to its first NUL), or nullopt when the object has no such attribute,
// or it is not a single string, or HDF5 cannot read it. Callers decide what a missing or
// non-string attribute means.
std::optional<std::string> read_hdf5_string_attribute(hid_t object, const char* name);

// A memory type for reading strings stored as `stored` (a string type): the same character set
// and the same length kind, since HDF5 converts neither between ASCII and UTF-8 nor between
// variable and fixed length. Fixed-length strings read null-padded. The caller closes it.
hid_t hdf5_string_memory_type(hid_t stored);

}  // namespace subscale::io
