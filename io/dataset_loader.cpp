#include "io/dataset_loader.hpp"

#include <filesystem>
#include <fstream>

#include "common/error.hpp"
#include "common/text_distance.hpp"
#include "io/arff_reader.hpp"
#include "io/csv_reader.hpp"
#include "io/data_validation.hpp"
#include "io/hdf5_dataset_reader.hpp"

namespace subscale::io {

InputFormat parse_input_format(std::string_view name, const std::string& key) {
  const std::string lower = to_lower(trim(name));
  if (lower == "auto") return InputFormat::auto_detect;
  if (lower == "hdf5" || lower == "h5") return InputFormat::hdf5;
  if (lower == "csv") return InputFormat::csv;
  if (lower == "arff") return InputFormat::arff;
  const std::string nearest = nearest_word(lower, {"auto", "hdf5", "csv", "arff"});
  throw UsageError(key + ": unknown input format '" + std::string(name) + "'; use auto, hdf5, csv or arff" +
                   (nearest.empty() ? "" : " (did you mean '" + nearest + "'?)"));
}

const char* to_string(InputFormat format) {
  switch (format) {
    case InputFormat::auto_detect:
      return "auto";
    case InputFormat::hdf5:
      return "hdf5";
    case InputFormat::csv:
      return "csv";
    case InputFormat::arff:
      return "arff";
  }
  return "?";
}

InputFormat detect_input_format(const std::string& path) {
  const std::string extension = to_lower(std::filesystem::path(path).extension().string());
  if (extension == ".h5" || extension == ".hdf5" || extension == ".hdf" || extension == ".he5")
    return InputFormat::hdf5;
  if (extension == ".csv" || extension == ".tsv" || extension == ".txt" || extension == ".dat") return InputFormat::csv;
  if (extension == ".arff") return InputFormat::arff;

  // An unknown extension: look at the first bytes. HDF5 files start with a fixed 8-byte signature
  // (unless a user block precedes it; such files need input.format: hdf5). Only the first 4 KiB
  // are read: the lines an ARFF header may start with fit in them, and a file of one endless line
  // must not be read whole to find out that it is neither format.
  check_input_file(path, "data");
  constexpr std::size_t sniff_bytes = 4096;
  std::ifstream input(path, std::ios::binary);
  std::string head(sniff_bytes, '\0');
  input.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(input.gcount()));
  if (head.size() >= 8 && std::string_view(head).substr(0, 8) == std::string_view("\211HDF\r\n\032\n", 8))
    return InputFormat::hdf5;
  std::string_view rest = head;
  if (rest.substr(0, 3) == "\xEF\xBB\xBF") rest.remove_prefix(3);  // a UTF-8 byte-order mark
  while (!rest.empty()) {
    const std::size_t end = rest.find('\n');
    const std::string_view text = trim(rest.substr(0, end));
    if (!text.empty() && text.front() != '%') {
      if (to_lower(text.substr(0, 9)) == "@relation") return InputFormat::arff;
      break;
    }
    if (end == std::string_view::npos) break;
    rest.remove_prefix(end + 1);
  }
  throw InputError(path + ": cannot tell the format from the extension '" + extension +
                   "'; set input.format to hdf5, csv or arff (or rename the file to .h5, .csv or .arff)");
}

Dataset read_dataset(const ReadOptions& options) {
  const InputFormat format =
      options.format == InputFormat::auto_detect ? detect_input_format(options.path) : options.format;
  switch (format) {
    case InputFormat::hdf5: {
      Hdf5ReadOptions hdf5;
      hdf5.dataset_path = options.dataset_path.empty() ? "/data" : options.dataset_path;
      hdf5.labels_path = options.label_column;
      return read_hdf5_dataset(options.path, hdf5);
    }
    case InputFormat::csv:
      return read_csv(options.path, CsvOptions{options.label_column, options.header});
    case InputFormat::arff:
      return read_arff(options.path, ArffOptions{options.label_column});
    case InputFormat::auto_detect:
      break;
  }
  throw Error(ExitCode::other, "internal: input format not resolved");
}

}  // namespace subscale::io
