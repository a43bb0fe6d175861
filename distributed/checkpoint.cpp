#include "distributed/checkpoint.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

#include "common/error.hpp"
#include "distributed/subspace_pairs.hpp"
#include "gpu/hash/hash_functions.hpp"

namespace subscale::distributed {
namespace {

constexpr char kMagic[8] = {'S', 'U', 'B', 'S', 'C', 'K', 'P', 'T'};
constexpr std::uint32_t kFormat = 1;

struct UnitHeader {
  char magic[8];
  std::uint32_t format;
  std::uint32_t unit;
  std::uint64_t fingerprint;
  std::uint32_t key_words;
  std::uint32_t point_words;
  std::uint64_t walk_nodes;
  std::uint64_t multi_units;
  std::uint64_t payload_bytes;
};

std::uint64_t checksum(const std::uint8_t* data, std::size_t size, std::uint64_t h = 0x6a09e667f3bcc908ULL) {
  std::size_t i = 0;
  for (; i + 8 <= size; i += 8) {
    std::uint64_t word;
    std::memcpy(&word, data + i, 8);
    h = hash::fmix64(h ^ word) + i;
  }
  std::uint64_t tail = 0;
  if (size > i) std::memcpy(&tail, data + i, size - i);
  return hash::fmix64(h ^ tail ^ size);
}

[[noreturn]] void write_failed(const std::filesystem::path& path, const char* step, int error) {
  throw Error(ExitCode::other, "checkpoint: cannot " + std::string(step) + " " + path.string() + ": " +
                                   std::strerror(error) + " (check the space and permissions of checkpoint.dir)");
}

// Written under a temporary name, flushed to the disk, then renamed: a reader sees the whole file
// or none. The temporary is created exclusively, without following a link, under a name no one can
// guess: a link planted at a predictable name would send the bytes to a file elsewhere.
void write_file_atomically(const std::filesystem::path& path, const std::uint8_t* data, std::size_t size) {
  std::random_device entropy;
  std::filesystem::path temporary;
  int fd = -1;
  for (int attempt = 0; fd < 0; ++attempt) {
    temporary = path.string() + ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(entropy());
    fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0 && (errno != EEXIST || attempt == 100)) write_failed(temporary, "create", errno);
  }
  for (std::size_t at = 0; at < size;) {
    const ssize_t written = ::write(fd, data + at, size - at);
    if (written < 0) {
      const int error = errno;
      ::close(fd);
      ::unlink(temporary.c_str());
      write_failed(temporary, "write", error);
    }
    at += static_cast<std::size_t>(written);
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    const int error = errno;
    ::unlink(temporary.c_str());
    write_failed(temporary, "flush", error);
  }
  if (::rename(temporary.c_str(), path.c_str()) != 0) {
    const int error = errno;
    ::unlink(temporary.c_str());
    write_failed(path, "move into place", error);
  }
}

std::vector<std::uint8_t> read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("checkpoint: cannot read " + path.string());
  return std::vector<std::uint8_t>(std::istreambuf_iterator<char>(in), {});
}

nlohmann::json manifest_json(const CheckpointManifest& manifest) {
  nlohmann::json j;
  j["format"] = kFormat;
  j["identity"] = nlohmann::json::array();
  for (const auto& [name, value] : manifest.identity) j["identity"].push_back({name, value});
  const WorkSplit& split = manifest.split;
  j["mode"] = to_string(split.mode);
  j["units"] = split.units;
  j["total_units"] = split.total_units;
  j["slices"] = split.slices;
  j["partitions"] = split.partitions.lower;
  j["partition_scheme"] = to_string(split.partitions.scheme);
  return j;
}

[[noreturn]] void damaged(const std::filesystem::path& path, const std::string& why) {
  throw InputError("checkpoint: " + path.string() + " is damaged or not a checkpoint (" + why +
                   "); delete the checkpoint folder and start afresh, or point --resume at an intact one");
}

}  // namespace

std::vector<std::string> identity_differences(const CheckpointIdentity& made, const CheckpointIdentity& wanted) {
  std::vector<std::string> differences;
  for (const auto& [name, value] : wanted) {
    const auto there = std::find_if(made.begin(), made.end(), [&](const auto& field) { return field.first == name; });
    if (there == made.end())
      differences.push_back(name + " is not recorded in the checkpoint (" + value + " here)");
    else if (there->second != value)
      differences.push_back(name + " is " + there->second + " in the checkpoint and " + value + " here");
  }
  for (const auto& [name, value] : made) {
    const bool known =
        std::any_of(wanted.begin(), wanted.end(), [&](const auto& field) { return field.first == name; });
    if (!known) differences.push_back(name + " is " + value + " in the checkpoint and not set here");
  }
  return differences;
}

bool CheckpointFolder::holds_checkpoint() const { return std::filesystem::exists(manifest_file()); }

void CheckpointFolder::create(const CheckpointManifest& manifest) const {
  std::error_code error;
  std::filesystem::create_directories(folder_, error);
  if (error) throw Error(ExitCode::other, "checkpoint: cannot create " + folder_.string() + ": " + error.message());
  const std::string text = manifest_text(manifest);
  write_file_atomically(manifest_file(), reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
}

CheckpointManifest CheckpointFolder::read_manifest() const {
  if (!holds_checkpoint()) {
    // Unit files without their manifest are a checkpoint that lost a file (exit 3, as any damaged
    // checkpoint); a folder without either is simply not a checkpoint (a wrong path: exit 2).
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(folder_, error))
      if (entry.path().filename().string().rfind("unit-", 0) == 0)
        damaged(manifest_file(), "the file is missing, but " + entry.path().filename().string() + " is there");
    throw UsageError("--resume " + folder_.string() + ": no checkpoint there (manifest.json is missing); run " +
                     "without --resume and with checkpoint.dir set to start one");
  }
  const std::vector<std::uint8_t> bytes = read_file(manifest_file());
  return parse_manifest(std::string(bytes.begin(), bytes.end()), manifest_file().string());
}

std::string manifest_text(const CheckpointManifest& manifest) { return manifest_json(manifest).dump(2) + "\n"; }

CheckpointManifest parse_manifest(const std::string& text, const std::string& where) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& error) {
    damaged(where, std::string("not JSON: ") + error.what());
  }
  CheckpointManifest manifest;
  try {
    if (j.at("format").get<std::uint32_t>() != kFormat)
      damaged(where, "format " + j.at("format").dump() + ", this program reads format " + std::to_string(kFormat));
    for (const auto& field : j.at("identity"))
      manifest.identity.emplace_back(field.at(0).get<std::string>(), field.at(1).get<std::string>());
    WorkSplit& split = manifest.split;
    split.mode = parse_table_mode(j.at("mode").get<std::string>());
    split.units = j.at("units").get<std::uint32_t>();
    split.total_units = j.at("total_units").get<std::uint64_t>();
    split.slices = j.at("slices").get<std::uint64_t>();
    split.partitions.lower = j.at("partitions").get<std::vector<std::uint64_t>>();
    split.partitions.scheme = parse_partition_scheme(j.at("partition_scheme").get<std::string>());
    const bool direct = split.mode == TableMode::direct;
    if (split.units == 0 || (direct && (split.slices == 0 || split.slices % split.units != 0)) ||
        (!direct && split.partitions.count() != split.units))
      damaged(where, "its work split does not add up");
  } catch (const nlohmann::json::exception& error) {
    damaged(where, std::string("a field is missing or of the wrong type: ") + error.what());
  } catch (const UsageError& error) {
    damaged(where, error.what());
  }
  return manifest;
}

std::uint64_t CheckpointFolder::fingerprint(const CheckpointManifest& manifest) {
  const std::string text = manifest_json(manifest).dump();
  return checksum(reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
}

std::filesystem::path CheckpointFolder::unit_file(std::uint32_t unit) const {
  return folder_ / ("unit-" + std::to_string(unit) + ".bin");
}

std::vector<std::uint32_t> CheckpointFolder::finished_units(std::uint32_t units) const {
  std::vector<std::uint32_t> finished;
  for (std::uint32_t u = 0; u < units; ++u)
    if (std::filesystem::is_regular_file(unit_file(u))) finished.push_back(u);
  return finished;
}

void CheckpointFolder::record_unit(std::uint32_t unit, std::uint64_t fingerprint,
                                   const dense_units::direct::DirectSubspaceMap& subspaces,
                                   const UnitCounts& counts) const {
  const Bytes payload = encode_pairs(subspaces);
  UnitHeader header{};
  std::memcpy(header.magic, kMagic, sizeof kMagic);
  header.format = kFormat;
  header.unit = unit;
  header.fingerprint = fingerprint;
  header.key_words = subspaces.key_words();
  header.point_words = subspaces.point_words();
  header.walk_nodes = counts.walk_nodes;
  header.multi_units = counts.multi_units;
  header.payload_bytes = payload.size();
  Bytes file(sizeof header);
  std::memcpy(file.data(), &header, sizeof header);
  file.insert(file.end(), payload.begin(), payload.end());
  const std::uint64_t sum = checksum(file.data(), file.size());
  file.insert(file.end(), reinterpret_cast<const std::uint8_t*>(&sum),
              reinterpret_cast<const std::uint8_t*>(&sum) + sizeof sum);
  write_file_atomically(unit_file(unit), file.data(), file.size());
}

UnitCounts CheckpointFolder::load_unit(std::uint32_t unit, std::uint64_t fingerprint,
                                       dense_units::direct::DirectSubspaceMap& into) const {
  const std::filesystem::path path = unit_file(unit);
  const std::vector<std::uint8_t> file = read_file(path);
  UnitHeader header{};
  if (file.size() < sizeof header + sizeof(std::uint64_t)) damaged(path, "shorter than its header");
  std::memcpy(&header, file.data(), sizeof header);
  if (std::memcmp(header.magic, kMagic, sizeof kMagic) != 0) damaged(path, "not a checkpoint unit file");
  std::uint64_t stored = 0;
  std::memcpy(&stored, file.data() + file.size() - sizeof stored, sizeof stored);
  if (checksum(file.data(), file.size() - sizeof stored) != stored) damaged(path, "checksum mismatch");
  if (header.format != kFormat || header.unit != unit || header.fingerprint != fingerprint)
    damaged(path, "it belongs to another checkpoint");
  if (header.key_words != into.key_words() || header.point_words != into.point_words() ||
      header.payload_bytes != file.size() - sizeof header - sizeof stored)
    damaged(path, "its sizes do not match the data");
  decode_pairs_into(file.data() + sizeof header, header.payload_bytes, into, path.string());
  return {header.walk_nodes, header.multi_units};
}

}  // namespace subscale::distributed
