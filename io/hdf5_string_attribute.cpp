#include "io/hdf5_string_attribute.hpp"

#include <algorithm>

#include "io/hdf5_file.hpp"

namespace subscale::io {

hid_t hdf5_string_memory_type(hid_t stored) {
  const hid_t memory_type = H5Tcopy(H5T_C_S1);
  if (H5Tis_variable_str(stored) > 0) {
    H5Tset_size(memory_type, H5T_VARIABLE);
  } else {
    H5Tset_size(memory_type, std::max<std::size_t>(1, H5Tget_size(stored)));
    H5Tset_strpad(memory_type, H5T_STR_NULLPAD);
  }
  H5Tset_cset(memory_type, H5Tget_cset(stored));
  return memory_type;
}

std::optional<std::string> read_hdf5_string_attribute(hid_t object, const char* name) {
  if (H5Aexists(object, name) <= 0) return std::nullopt;
  Hdf5Handle attribute(H5Aopen(object, name, H5P_DEFAULT), H5Aclose);
  if (!attribute.valid() || !hdf5_attribute_is_single(attribute.get())) return std::nullopt;
  Hdf5Handle stored(H5Aget_type(attribute.get()), H5Tclose);
  if (H5Tget_class(stored.get()) != H5T_STRING) return std::nullopt;
  Hdf5Handle memory_type(hdf5_string_memory_type(stored.get()), H5Tclose);
  if (H5Tis_variable_str(stored.get()) > 0) {
    char* text = nullptr;
    if (H5Aread(attribute.get(), memory_type.get(), &text) < 0) return std::nullopt;
    std::string value = text ? std::string(text) : std::string();
    H5free_memory(text);
    return value;
  }
  std::string value(H5Tget_size(memory_type.get()), '\0');
  if (H5Aread(attribute.get(), memory_type.get(), value.data()) < 0) return std::nullopt;
  value.resize(std::min(value.size(), value.find('\0')));
  return value;
}

}  // namespace subscale::io
