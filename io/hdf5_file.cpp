#include "io/hdf5_file.hpp"

#include <fcntl.h>
#include <tbb/parallel_pipeline.h>
#include <tbb/task_arena.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string_view>

#include "io/data_validation.hpp"
#include "io/hdf5_string_attribute.hpp"
#include "io/host_memory.hpp"

namespace subscale::io {
namespace {

// HDF5 prints its own error stack by default; the project reports errors itself.
void silence_hdf5_errors() { H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr); }

// Whether `object_path` names a link in `file`. H5Lexists fails on a missing intermediate group,
// so the path is walked one link at a time.
bool link_path_exists(hid_t file, const std::string& object_path) {
  if (object_path.empty() || object_path == "/") return true;
  std::size_t start = object_path[0] == '/' ? 1 : 0;
  while (start <= object_path.size()) {
    const std::size_t slash = object_path.find('/', start);
    const std::size_t end = slash == std::string::npos ? object_path.size() : slash;
    if (H5Lexists(file, object_path.substr(0, end).c_str(), H5P_DEFAULT) <= 0) return false;
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  return true;
}

// The folder of the HDF5 file that holds `dataset` (another file than the one opened when the
// dataset is reached through an external link).
std::filesystem::path folder_of_holder(hid_t dataset) {
  Hdf5Handle holder(H5Iget_file_id(dataset), H5Fclose);
  const ssize_t length = holder.valid() ? H5Fget_name(holder.get(), nullptr, 0) : -1;
  if (length <= 0) return std::filesystem::current_path();
  std::string name(static_cast<std::size_t>(length) + 1, '\0');
  H5Fget_name(holder.get(), name.data(), name.size());
  name.resize(static_cast<std::size_t>(length));
  return std::filesystem::absolute(name).parent_path();
}

// The text of a virtual mapping's source file or dataset name (H5Pget_virtual_filename/dsetname).
std::string virtual_mapping_text(ssize_t (*get)(hid_t, size_t, char*, size_t), hid_t properties, std::size_t index) {
  const ssize_t length = get(properties, index, nullptr, 0);
  if (length < 0) return {};
  std::string text(static_cast<std::size_t>(length) + 1, '\0');
  get(properties, index, text.data(), text.size());
  text.resize(static_cast<std::size_t>(length));
  return text;
}

// Where libhdf5 finds a virtual dataset's source file (the order of H5Pset_virtual's "source file
// resolutions"): an absolute name as given, then the name (an absolute one without its folders)
// under each prefix of HDF5_VDS_PREFIX, beside the virtual dataset's file, and in the working folder.
std::optional<std::filesystem::path> find_virtual_source(const std::string& name, const std::filesystem::path& folder) {
  std::vector<std::filesystem::path> candidates;
  std::filesystem::path relative = name;
  if (relative.is_absolute()) {
    candidates.push_back(relative);
    relative = relative.filename();
  }
  if (const char* prefixes = std::getenv("HDF5_VDS_PREFIX")) {
    std::string_view rest = prefixes;
    while (!rest.empty()) {
      const std::size_t colon = rest.find(':');
      if (colon != 0) candidates.push_back(std::filesystem::path(rest.substr(0, colon)) / relative);
      if (colon == std::string_view::npos) break;
      rest.remove_prefix(colon + 1);
    }
  }
  candidates.push_back(folder / relative);
  candidates.push_back(relative);
  for (const auto& candidate : candidates) {
    std::error_code ignored;
    if (std::filesystem::exists(candidate, ignored)) return candidate;
  }
  return std::nullopt;
}

void check_virtual_sources(hid_t dataset, hid_t properties, const std::string& where) {
  std::size_t count = 0;
  if (H5Pget_virtual_count(properties, &count) < 0)
    throw InputError(where + ": damaged file: cannot read the mappings of the virtual dataset");
  const std::filesystem::path folder = folder_of_holder(dataset);
  const std::string remedy =
      "; libhdf5 would read its values as zeros. Put the source file where the virtual dataset expects it, or "
      "store the data as a regular dataset (e.g. h5repack -l CONTI)";
  for (std::size_t i = 0; i < count; ++i) {
    const std::string file = virtual_mapping_text(H5Pget_virtual_filename, properties, i);
    const std::string source = virtual_mapping_text(H5Pget_virtual_dsetname, properties, i);
    // Names in printf form (%b: one source per block of an unlimited dataset) name files that
    // may rightly not exist yet; they cannot be checked one by one here.
    if (file.find('%') != std::string::npos || source.find('%') != std::string::npos) continue;
    if (file == ".") {  // a source in the same file
      Hdf5Handle holder(H5Iget_file_id(dataset), H5Fclose);
      if (!holder.valid() || !link_path_exists(holder.get(), source))
        throw InputError(where + ": is a virtual dataset whose source dataset '" + source +
                         "' (in the same file) is missing" + remedy);
      continue;
    }
    const auto found = find_virtual_source(file, folder);
    if (!found)
      throw InputError(where + ": is a virtual dataset whose source file '" + file + "' is missing (looked for it in " +
                       folder.string() + " and in the working folder)" + remedy);
    check_input_file(found->string(), "a virtual dataset's source");
    Hdf5Handle opened(H5Fis_hdf5(found->c_str()) > 0 ? H5Fopen(found->c_str(), H5F_ACC_RDONLY, H5P_DEFAULT) : -1,
                      H5Fclose);
    if (!opened.valid())
      throw InputError(where + ": is a virtual dataset whose source file '" + file + "' (found at " + found->string() +
                       ") is not a readable HDF5 file" + remedy);
    if (!link_path_exists(opened.get(), source))
      throw InputError(where + ": is a virtual dataset whose source file " + found->string() + " has no dataset '" +
                       source + "'" + remedy);
  }
}

void check_external_files(hid_t dataset, hid_t properties, const std::string& where) {
  const int count = H5Pget_external_count(properties);
  // The environment variable replaces the lookup beside the file (HDF5's rule); it is the user's
  // own choice, and libhdf5 reports what it cannot find there.
  if (count <= 0 || std::getenv("HDF5_EXTFILE_PREFIX")) return;
  Hdf5Handle space(H5Dget_space(dataset), H5Sclose);
  Hdf5Handle type(H5Dget_type(dataset), H5Tclose);
  const hssize_t elements = space.valid() ? H5Sget_simple_extent_npoints(space.get()) : -1;
  const std::size_t element_bytes = type.valid() ? H5Tget_size(type.get()) : 0;
  const auto needed = elements >= 0 ? checked_bytes({static_cast<std::uint64_t>(elements)}, element_bytes)
                                    : std::optional<std::uint64_t>();
  if (!needed) throw InputError(where + ": damaged file: cannot read the shape of the dataset");
  const std::filesystem::path folder = folder_of_holder(dataset);
  std::uint64_t remaining = *needed;
  for (int i = 0; i < count && remaining > 0; ++i) {
    std::string name(4096, '\0');
    off_t offset = 0;
    hsize_t size = 0;
    if (H5Pget_external(properties, static_cast<unsigned>(i), name.size(), name.data(), &offset, &size) < 0)
      throw InputError(where + ": damaged file: cannot read the list of external raw-data files");
    name.resize(std::strlen(name.c_str()));
    const std::filesystem::path file = folder / name;  // an absolute name stays as it is
    std::error_code error;
    const bool regular = std::filesystem::is_regular_file(file, error);
    if (!regular)
      throw InputError(where + ": its values are stored in the external file '" + name + "', and " + file.string() +
                       (std::filesystem::exists(file, error)
                            ? " is not a regular file"
                            : " is missing (external files lie beside the HDF5 file)") +
                       "; put the file there, or store the data inside the HDF5 file (e.g. h5repack -l CONTI)");
    const std::uint64_t used = size == H5F_UNLIMITED ? remaining : std::min<std::uint64_t>(size, remaining);
    const std::uint64_t file_bytes = std::filesystem::file_size(file, error);
    if (error || offset < 0 || file_bytes < static_cast<std::uint64_t>(offset) + used)
      throw InputError(where + ": its values are stored in the external file " + file.string() + ", which holds " +
                       std::to_string(file_bytes) + " bytes, but the dataset needs bytes " + std::to_string(offset) +
                       " to " + std::to_string(static_cast<std::uint64_t>(offset) + used) +
                       " of it (libhdf5 would read the missing bytes as zeros); the external file is truncated or "
                       "is not the one the dataset was written with");
    remaining -= used;
  }
}

}  // namespace

Hdf5Handle open_hdf5_dataset(hid_t location, const std::string& dataset_path) {
  Hdf5Handle access(H5Pcreate(H5P_DATASET_ACCESS), H5Pclose);
  // "${ORIGIN}": the folder of the file that holds the dataset (H5Pset_efile_prefix).
  if (access.valid()) H5Pset_efile_prefix(access.get(), "${ORIGIN}");
  return Hdf5Handle(H5Dopen2(location, dataset_path.c_str(), access.valid() ? access.get() : H5P_DEFAULT), H5Dclose);
}

void check_hdf5_data_files(hid_t dataset, const std::string& where) {
  Hdf5Handle properties(H5Dget_create_plist(dataset), H5Pclose);
  if (!properties.valid()) throw InputError(where + ": damaged file: cannot read the layout of the dataset");
  const H5D_layout_t layout = H5Pget_layout(properties.get());
  if (layout == H5D_VIRTUAL) check_virtual_sources(dataset, properties.get(), where);
  if (layout == H5D_CONTIGUOUS) check_external_files(dataset, properties.get(), where);
}

Hdf5File::Hdf5File(const std::string& path, Mode mode) : path_(path) {
  silence_hdf5_errors();
  hid_t id = -1;
  if (mode == Mode::create_truncate) {
    id = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    if (id < 0)
      throw Error(ExitCode::other, path + ": cannot create HDF5 file (check the folder exists and is writable)");
    created_ = true;
  } else {
    if (!std::filesystem::exists(path)) throw InputError(path + ": file not found");
    check_input_file(path, "HDF5");  // a FIFO would block H5Fopen until something writes to it
    // libhdf5 answers "not HDF5" for a file it cannot open at all; say why first.
    if (::faccessat(AT_FDCWD, path.c_str(), mode == Mode::read ? R_OK : R_OK | W_OK, AT_EACCESS) != 0 &&
        errno == EACCES)
      throw InputError(path + ": permission denied (this user may not " +
                       (mode == Mode::read ? "read" : "read and write") + " the file); check its permissions");
    if (H5Fis_hdf5(path.c_str()) <= 0) throw InputError(path + ": not an HDF5 file");
    id = H5Fopen(path.c_str(), mode == Mode::read ? H5F_ACC_RDONLY : H5F_ACC_RDWR, H5P_DEFAULT);
    if (id < 0) throw InputError(path + ": cannot open HDF5 file");
  }
  file_ = Hdf5Handle(id, H5Fclose);
}

Hdf5File::~Hdf5File() {
  if (!file_.valid()) return;
  const bool closed = H5Fclose(file_.release()) >= 0;
  if (!closed && created_) {
    std::error_code ignored;
    std::filesystem::remove(path_, ignored);
  }
}

void Hdf5File::close() {
  if (!file_.valid()) return;
  const bool flushed = !created_ || H5Fflush(file_.get(), H5F_SCOPE_GLOBAL) >= 0;
  const bool closed = H5Fclose(file_.release()) >= 0;
  if (flushed && closed) return;
  if (created_) {
    std::error_code ignored;
    std::filesystem::remove(path_, ignored);
  }
  throw Error(ExitCode::other, path_ + ": cannot finish writing the HDF5 file (is the disk full, or the file over a " +
                                   "size limit?); the incomplete file was removed");
}

void Hdf5File::check_storage(hid_t dataset, const std::string& dataset_path, const DatasetInfo& info) const {
  // Compact and contiguous data occupy exactly shape x element bytes once written (contiguous
  // data may also not be written yet: 0). Anything else is a damaged file, on which libhdf5 1.10
  // copies from a null or short buffer (found by fuzzing: a segmentation fault, not an error).
  Hdf5Handle properties(H5Dget_create_plist(dataset), H5Pclose);
  if (!properties.valid()) fail("damaged file: cannot read the layout of dataset", dataset_path);
  check_hdf5_data_files(dataset, path_ + ", dataset " + dataset_path);
  const H5D_layout_t layout = H5Pget_layout(properties.get());
  if (layout != H5D_COMPACT && layout != H5D_CONTIGUOUS) return;
  // Variable-length elements (strings above all) are stored as references into the file's heap,
  // so their size says nothing about the shape; such a dataset is valid, just not numbers.
  Hdf5Handle type(H5Dget_type(dataset), H5Tclose);
  if (type.valid() && (H5Tis_variable_str(type.get()) > 0 || H5Tdetect_class(type.get(), H5T_VLEN) > 0)) return;
  if (layout == H5D_CONTIGUOUS && H5Pget_external_count(properties.get()) > 0) return;
  const auto needed = checked_bytes(info.shape, info.element_bytes);
  const hsize_t stored = H5Dget_storage_size(dataset);
  const bool unwritten = layout == H5D_CONTIGUOUS && stored == 0;
  if (!unwritten && (!needed || stored != *needed))
    fail("damaged file: the stored size (" + std::to_string(stored) + " bytes) does not match the shape of dataset",
         dataset_path);
  if (layout != H5D_CONTIGUOUS || unwritten) return;
  const haddr_t offset = H5Dget_offset(dataset);
  hsize_t file_bytes = 0;
  // The file that holds the dataset: another one when the path is an external link.
  Hdf5Handle holder(H5Iget_file_id(dataset), H5Fclose);
  if (offset == HADDR_UNDEF || !holder.valid() || H5Fget_filesize(holder.get(), &file_bytes) < 0 ||
      offset > file_bytes || stored > file_bytes - offset)
    fail("damaged or truncated file: the data lies beyond the end of the file in dataset", dataset_path);
}

void Hdf5File::fail(const std::string& what, const std::string& object_path) const {
  throw InputError(path_ + ": " + what + " '" + object_path + "'");
}

void Hdf5File::fail_write(const std::string& what, const std::string& object_path) const {
  throw Error(ExitCode::other,
              path_ + ": " + what + " '" + object_path + "' (is the disk full, or the file over a " + "size limit?)");
}

bool Hdf5File::exists(const std::string& object_path) const { return link_path_exists(file_.get(), object_path); }

DatasetInfo Hdf5File::info(const std::string& dataset_path) const {
  if (!exists(dataset_path)) fail("no dataset at path", dataset_path);
  Hdf5Handle dataset(H5Dopen2(file_.get(), dataset_path.c_str(), H5P_DEFAULT), H5Dclose);
  if (!dataset.valid()) {
    H5L_info_t link;
    if (H5Lget_info(file_.get(), dataset_path.c_str(), &link, H5P_DEFAULT) >= 0 && link.type == H5L_TYPE_EXTERNAL)
      fail(
          "cannot open the target of the external link (its file or dataset is missing; it must lie where the link "
          "says) at",
          dataset_path);
    fail("not a dataset:", dataset_path);
  }
  Hdf5Handle space(H5Dget_space(dataset.get()), H5Sclose);
  Hdf5Handle type(H5Dget_type(dataset.get()), H5Tclose);
  const int rank = H5Sget_simple_extent_ndims(space.get());
  if (rank < 0) fail("cannot read the shape of dataset", dataset_path);
  std::vector<hsize_t> dims(static_cast<std::size_t>(rank)), most(static_cast<std::size_t>(rank));
  H5Sget_simple_extent_dims(space.get(), dims.data(), most.data());
  // Only a damaged file has an extent beyond its own maximum; libhdf5 would then look up chunks
  // that cannot exist, one by one.
  for (int axis = 0; axis < rank; ++axis)
    if (most[static_cast<std::size_t>(axis)] != H5S_UNLIMITED &&
        dims[static_cast<std::size_t>(axis)] > most[static_cast<std::size_t>(axis)])
      fail("damaged file: the shape is larger than its declared maximum in dataset", dataset_path);
  DatasetInfo result;
  result.shape.assign(dims.begin(), dims.end());
  result.element_bytes = H5Tget_size(type.get());
  // A damaged or exotic type (a 3-byte float, a 4 GiB integer) is "other": HDF5 would convert it
  // through buffers sized by the element, and nothing the project writes looks like that.
  const std::size_t bytes = result.element_bytes;
  switch (H5Tget_class(type.get())) {
    case H5T_FLOAT:
      if (bytes == 4 || bytes == 8) result.element_class = ElementClass::floating;
      break;
    case H5T_INTEGER:
      if (bytes == 1 || bytes == 2 || bytes == 4 || bytes == 8)
        result.element_class =
            H5Tget_sign(type.get()) == H5T_SGN_NONE ? ElementClass::unsigned_integer : ElementClass::signed_integer;
      break;
    case H5T_STRING:
      result.strings = true;
      break;
    default:
      break;
  }
  check_storage(dataset.get(), dataset_path, result);
  return result;
}

std::uint64_t Hdf5File::checked_elements(const std::string& dataset_path, const std::vector<std::uint64_t>& shape,
                                         std::size_t element_bytes) const {
  const auto bytes = checked_bytes(shape, element_bytes);
  std::string extents;
  for (const auto extent : shape) extents += (extents.empty() ? "" : " x ") + std::to_string(extent);
  check_host_allocation(bytes, path_ + ", dataset " + dataset_path + " (" + extents + " values)");
  return *bytes / element_bytes;
}

void Hdf5File::read_raw(const std::string& dataset_path, hid_t memory_type, void* out) const {
  Hdf5Handle dataset = open_hdf5_dataset(file_.get(), dataset_path);
  if (!dataset.valid()) fail("cannot open dataset", dataset_path);
  if (H5Dread(dataset.get(), memory_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, out) < 0)
    fail("cannot read (or convert) dataset", dataset_path);
}

void Hdf5File::create_group(const std::string& group_path) {
  if (exists(group_path)) return;
  ensure_parent_groups(group_path);
  Hdf5Handle group(H5Gcreate2(file_.get(), group_path.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose);
  if (!group.valid()) fail_write("cannot create group", group_path);
}

void Hdf5File::ensure_parent_groups(const std::string& object_path) {
  const std::size_t slash = object_path.rfind('/');
  if (slash == std::string::npos || slash == 0) return;
  create_group(object_path.substr(0, slash));
}

void Hdf5File::write_raw(const std::string& dataset_path, const std::vector<std::uint64_t>& shape, hid_t memory_type,
                         const void* data, int gzip_level) {
  ensure_parent_groups(dataset_path);
  std::vector<hsize_t> dims(shape.begin(), shape.end());
  Hdf5Handle space(H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr), H5Sclose);
  Hdf5Handle properties(H5Pcreate(H5P_DATASET_CREATE), H5Pclose);
  std::uint64_t count = 1;
  for (auto extent : shape) count *= extent;
  if (gzip_level > 0 && count > 0) {
    std::vector<hsize_t> chunk(dims);
    // Chunks of about 64 Ki elements along the first axis keep compression effective.
    std::uint64_t row = 1;
    for (std::size_t i = 1; i < chunk.size(); ++i) row *= chunk[i];
    chunk[0] = std::max<hsize_t>(1, std::min<hsize_t>(dims[0], (65536 + row - 1) / std::max<std::uint64_t>(row, 1)));
    H5Pset_chunk(properties.get(), static_cast<int>(chunk.size()), chunk.data());
    H5Pset_deflate(properties.get(), static_cast<unsigned>(gzip_level));
  }
  Hdf5Handle dataset(H5Dcreate2(file_.get(), dataset_path.c_str(), memory_type, space.get(), H5P_DEFAULT,
                                properties.get(), H5P_DEFAULT),
                     H5Dclose);
  if (!dataset.valid()) fail_write("cannot create dataset", dataset_path);
  if (count > 0 && H5Dwrite(dataset.get(), memory_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0)
    fail_write("cannot write dataset", dataset_path);
}

bool hdf5_attribute_is_single(hid_t attribute) {
  Hdf5Handle space(H5Aget_space(attribute), H5Sclose);
  return space.valid() && H5Sget_simple_extent_npoints(space.get()) == 1;
}

namespace {

// 4 MiB a block: big enough that one H5Dwrite or chunk costs little beside its bytes, small enough
// that a few blocks per thread stay in memory. With gzip a block is one chunk of the dataset.
constexpr std::uint64_t kBlockBytes = std::uint64_t{4} << 20;

struct DatasetBlock {
  std::uint64_t index = 0;
  std::vector<unsigned char>* raw = nullptr;
  std::vector<unsigned char>* packed = nullptr;
  std::size_t packed_bytes = 0;
};

}  // namespace

void Hdf5File::write_blocks_raw(const std::string& dataset_path, std::uint64_t count, hid_t memory_type,
                                std::size_t element_bytes, int gzip_level,
                                const std::function<void(std::uint64_t, std::uint64_t, void*)>& fill) {
  ensure_parent_groups(dataset_path);
  const hsize_t dims[1] = {count};
  Hdf5Handle space(H5Screate_simple(1, dims, nullptr), H5Sclose);
  Hdf5Handle properties(H5Pcreate(H5P_DATASET_CREATE), H5Pclose);
  const bool compress = gzip_level > 0 && count > 0;
  const std::uint64_t block = std::min<std::uint64_t>(std::max<std::uint64_t>(count, 1),
                                                      std::max<std::uint64_t>(1, kBlockBytes / element_bytes));
  if (compress) {
    const hsize_t chunk[1] = {block};
    H5Pset_chunk(properties.get(), 1, chunk);
    H5Pset_deflate(properties.get(), static_cast<unsigned>(gzip_level));
  }
  Hdf5Handle dataset(H5Dcreate2(file_.get(), dataset_path.c_str(), memory_type, space.get(), H5P_DEFAULT,
                                properties.get(), H5P_DEFAULT),
                     H5Dclose);
  if (!dataset.valid()) fail("cannot create dataset", dataset_path);
  if (count == 0) return;

  // Blocks enter and leave in order; with at most `tokens` in flight, block b + tokens enters only
  // after block b has been written, so buffer b % tokens is free again when it is reused.
  const std::uint64_t blocks = (count + block - 1) / block;
  const std::size_t tokens = 2 * static_cast<std::size_t>(tbb::this_task_arena::max_concurrency()) + 2;
  std::vector<std::vector<unsigned char>> raw(tokens), packed(tokens);
  std::uint64_t next = 0;
  tbb::parallel_pipeline(
      tokens,
      tbb::make_filter<void, DatasetBlock>(tbb::filter_mode::serial_in_order, [&](tbb::flow_control& control) {
        if (next == blocks) {
          control.stop();
          return DatasetBlock{};
        }
        const std::size_t slot = next % tokens;
        return DatasetBlock{next++, &raw[slot], &packed[slot], 0};
      }) & tbb::make_filter<DatasetBlock, DatasetBlock>(tbb::filter_mode::parallel, [&](DatasetBlock piece) {
        const std::uint64_t begin = piece.index * block, end = std::min(count, begin + block);
        // A chunk is stored whole: the last one is padded with zeros.
        const std::size_t filled = (end - begin) * element_bytes;
        piece.raw->resize(compress ? block * element_bytes : filled);
        fill(begin, end, piece.raw->data());
        std::fill(piece.raw->begin() + static_cast<std::ptrdiff_t>(filled), piece.raw->end(), 0);
        if (compress) {
          uLongf bytes = compressBound(static_cast<uLong>(piece.raw->size()));
          piece.packed->resize(bytes);
          if (compress2(piece.packed->data(), &bytes, piece.raw->data(), static_cast<uLong>(piece.raw->size()),
                        gzip_level) != Z_OK)
            fail("cannot compress a block of dataset", dataset_path);
          piece.packed_bytes = bytes;
        }
        return piece;
      }) & tbb::make_filter<DatasetBlock, void>(tbb::filter_mode::serial_in_order, [&](const DatasetBlock& piece) {
        const std::uint64_t begin = piece.index * block, end = std::min(count, begin + block);
        if (compress) {
          const hsize_t offset[1] = {begin};
          if (H5Dwrite_chunk(dataset.get(), H5P_DEFAULT, 0, offset, piece.packed_bytes, piece.packed->data()) < 0)
            fail("cannot write a chunk of dataset", dataset_path);
          return;
        }
        const hsize_t start[1] = {begin}, extent[1] = {end - begin};
        Hdf5Handle file_space(H5Dget_space(dataset.get()), H5Sclose);
        H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, start, nullptr, extent, nullptr);
        Hdf5Handle memory_space(H5Screate_simple(1, extent, nullptr), H5Sclose);
        if (H5Dwrite(dataset.get(), memory_type, memory_space.get(), file_space.get(), H5P_DEFAULT, piece.raw->data()) <
            0)
          fail("cannot write dataset", dataset_path);
      }));
}

void Hdf5File::read_range_raw(const std::string& dataset_path, hid_t memory_type, std::uint64_t begin,
                              std::uint64_t count, void* out) const {
  Hdf5Handle dataset = open_hdf5_dataset(file_.get(), dataset_path);
  if (!dataset.valid()) fail("cannot open dataset", dataset_path);
  Hdf5Handle file_space(H5Dget_space(dataset.get()), H5Sclose);
  hsize_t extent_of_file[1] = {0};
  if (H5Sget_simple_extent_ndims(file_space.get()) != 1) fail("not a 1-D dataset:", dataset_path);
  H5Sget_simple_extent_dims(file_space.get(), extent_of_file, nullptr);
  if (begin + count > extent_of_file[0])
    fail("elements " + std::to_string(begin) + ".." + std::to_string(begin + count) + " lie past the end (" +
             std::to_string(extent_of_file[0]) + ") of dataset",
         dataset_path);
  if (count == 0) return;
  const hsize_t start[1] = {begin}, extent[1] = {count};
  H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, start, nullptr, extent, nullptr);
  Hdf5Handle memory_space(H5Screate_simple(1, extent, nullptr), H5Sclose);
  if (H5Dread(dataset.get(), memory_type, memory_space.get(), file_space.get(), H5P_DEFAULT, out) < 0)
    fail("cannot read (or convert) dataset", dataset_path);
}

namespace {

Hdf5Handle open_object(hid_t file, const std::string& object_path) {
  return Hdf5Handle(H5Oopen(file, object_path.c_str(), H5P_DEFAULT), H5Oclose);
}

// h5py reads a variable-length UTF-8 string as `str` (a fixed-length ASCII one as `bytes`), and
// it holds any text, line breaks and non-ASCII names included. The caller closes it.
hid_t utf8_string_type() {
  const hid_t type = H5Tcopy(H5T_C_S1);
  H5Tset_size(type, H5T_VARIABLE);
  H5Tset_cset(type, H5T_CSET_UTF8);
  return type;
}

template <class Writer>
void write_attribute(hid_t object, const std::string& name, hid_t type, const Writer& writer) {
  if (H5Aexists(object, name.c_str()) > 0) H5Adelete(object, name.c_str());
  Hdf5Handle space(H5Screate(H5S_SCALAR), H5Sclose);
  Hdf5Handle attribute(H5Acreate2(object, name.c_str(), type, space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
  writer(attribute.get());
}

}  // namespace

void Hdf5File::write_string_attribute(const std::string& object_path, const std::string& name,
                                      const std::string& value) {
  Hdf5Handle object = open_object(file_.get(), object_path);
  if (!object.valid()) fail("cannot open object", object_path);
  Hdf5Handle type(utf8_string_type(), H5Tclose);
  const char* text = value.c_str();
  write_attribute(object.get(), name, type.get(), [&](hid_t a) { H5Awrite(a, type.get(), &text); });
}

void Hdf5File::write_strings(const std::string& dataset_path, const std::vector<std::string>& values) {
  std::vector<const char*> texts;
  for (const auto& value : values) texts.push_back(value.c_str());
  Hdf5Handle type(utf8_string_type(), H5Tclose);
  write_raw(dataset_path, {values.size()}, type.get(), texts.data(), 0);
}

std::vector<std::string> Hdf5File::read_strings(const std::string& dataset_path) const {
  const DatasetInfo shape = info(dataset_path);
  if (!shape.strings || shape.shape.size() != 1) fail("not a 1-D dataset of strings:", dataset_path);
  Hdf5Handle dataset = open_hdf5_dataset(file_.get(), dataset_path);
  if (!dataset.valid()) fail("cannot open dataset", dataset_path);
  Hdf5Handle stored(H5Dget_type(dataset.get()), H5Tclose);
  Hdf5Handle memory_type(hdf5_string_memory_type(stored.get()), H5Tclose);
  const std::size_t count = checked_elements(dataset_path, shape.shape, sizeof(char*));
  std::vector<std::string> values;
  if (H5Tis_variable_str(stored.get()) > 0) {
    std::vector<char*> texts(count, nullptr);
    if (count > 0 && H5Dread(dataset.get(), memory_type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, texts.data()) < 0)
      fail("cannot read the strings of dataset", dataset_path);
    for (char* text : texts) {
      values.emplace_back(text ? text : "");
      H5free_memory(text);
    }
    return values;
  }
  const std::size_t width = H5Tget_size(memory_type.get());
  std::vector<char> block(count * width);
  if (count > 0 && H5Dread(dataset.get(), memory_type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, block.data()) < 0)
    fail("cannot read the strings of dataset", dataset_path);
  for (std::size_t i = 0; i < count; ++i) {
    const std::string_view cell(block.data() + i * width, width);
    values.emplace_back(cell.substr(0, cell.find('\0')));
  }
  return values;
}

void Hdf5File::write_int_attribute(const std::string& object_path, const std::string& name, std::int64_t value) {
  Hdf5Handle object = open_object(file_.get(), object_path);
  if (!object.valid()) fail("cannot open object", object_path);
  write_attribute(object.get(), name, H5T_NATIVE_INT64, [&](hid_t a) { H5Awrite(a, H5T_NATIVE_INT64, &value); });
}

void Hdf5File::write_double_attribute(const std::string& object_path, const std::string& name, double value) {
  Hdf5Handle object = open_object(file_.get(), object_path);
  if (!object.valid()) fail("cannot open object", object_path);
  write_attribute(object.get(), name, H5T_NATIVE_DOUBLE, [&](hid_t a) { H5Awrite(a, H5T_NATIVE_DOUBLE, &value); });
}

std::string Hdf5File::read_string_attribute(const std::string& object_path, const std::string& name) const {
  Hdf5Handle object = open_object(file_.get(), object_path);
  if (!object.valid()) fail("cannot open object", object_path);
  Hdf5Handle attribute(H5Aopen(object.get(), name.c_str(), H5P_DEFAULT), H5Aclose);
  if (!attribute.valid()) fail("no attribute '" + name + "' on", object_path);
  if (!hdf5_attribute_is_single(attribute.get()))
    fail("attribute '" + name + "' holds more than one value on", object_path);
  const auto value = read_hdf5_string_attribute(object.get(), name.c_str());
  if (!value) fail("attribute '" + name + "' is not a string (ASCII or UTF-8) on", object_path);
  return *value;
}

}  // namespace subscale::io
