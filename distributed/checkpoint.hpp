#pragma once
// A checkpoint of the core: a folder with manifest.json (what the checkpoint was made for and how
// the work was cut) and one file per finished work unit (unit-N.bin: the subspaces the unit found,
// as (mask, bitmap) pairs, stamped with the manifest's fingerprint and guarded by a checksum).
// Every file is written under a temporary name and renamed into place, so a process killed while
// writing leaves no half-written unit behind: a unit is either recorded whole or redone.
#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "distributed/work_split.hpp"
#include "stages/dense_units/direct/direct_subspace_map.hpp"

namespace subscale::distributed {

// What a checkpoint was made for, as named values (program version, input, the settings that
// change the core's result); a resume compares them one by one.
using CheckpointIdentity = std::vector<std::pair<std::string, std::string>>;

struct CheckpointManifest {
  CheckpointIdentity identity;
  WorkSplit split;
};

// The manifest as text (JSON) and back; parse_manifest throws InputError naming `where` when the
// text is not a manifest this program can read.
std::string manifest_text(const CheckpointManifest& manifest);
CheckpointManifest parse_manifest(const std::string& text, const std::string& where);

// The fields of `made` (the checkpoint's) that differ from `wanted` (this run's), each said as
// "epsilon is 0.01 in the checkpoint and 0.02 here"; empty when they match.
std::vector<std::string> identity_differences(const CheckpointIdentity& made, const CheckpointIdentity& wanted);

// Counts a finished unit carries besides its subspaces (for the run's summary).
struct UnitCounts {
  std::uint64_t walk_nodes = 0;
  std::uint64_t multi_units = 0;
};

class CheckpointFolder {
 public:
  explicit CheckpointFolder(std::filesystem::path folder) : folder_(std::move(folder)) {}
  const std::filesystem::path& path() const noexcept { return folder_; }

  bool holds_checkpoint() const;
  // Creates the folder (when missing) and writes the manifest.
  void create(const CheckpointManifest& manifest) const;
  // Throws InputError naming the file when the manifest is missing or damaged.
  CheckpointManifest read_manifest() const;
  // A number that changes with any field of the manifest; every unit file carries it.
  static std::uint64_t fingerprint(const CheckpointManifest& manifest);

  // The units whose files are present (not checked yet: load_unit does that).
  std::vector<std::uint32_t> finished_units(std::uint32_t units) const;
  void record_unit(std::uint32_t unit, std::uint64_t fingerprint,
                   const dense_units::direct::DirectSubspaceMap& subspaces, const UnitCounts& counts) const;
  // ORs a recorded unit's subspaces into `into`; throws InputError naming the file when it is
  // damaged or belongs to another checkpoint.
  UnitCounts load_unit(std::uint32_t unit, std::uint64_t fingerprint,
                       dense_units::direct::DirectSubspaceMap& into) const;

  std::filesystem::path unit_file(std::uint32_t unit) const;
  std::filesystem::path manifest_file() const { return folder_ / "manifest.json"; }

 private:
  std::filesystem::path folder_;
};

}  // namespace subscale::distributed
