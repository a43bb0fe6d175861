#pragma once
// A run's folder is either a finished run, every file of which that run wrote, or recognisably
// unfinished (no summary.json). To keep that promise a run never writes into its folder directly:
//
//  - claim() locks the folder (creating it empty when missing) for the whole run, so a second run
//    into it is refused, and refuses a non-empty folder that is not an earlier run of this tool
//    unless told to write into it (--overwrite);
//  - begin(), once the input is accepted: a new or empty folder is written in place (log.txt
//    grows there, summary.json comes last); over an earlier run, or the user's files, the run
//    writes into the sibling folder .NAME.partial-PID (and removes any such folder left by an
//    earlier run that was killed before it could move in or clean up);
//  - finish() swaps that folder into place in one rename: an earlier run is replaced as a whole,
//    never mixed with the new one (with --overwrite the run's files are moved in beside the
//    user's). An unfinished run (an error, a full disk) leaves an earlier run untouched; a new
//    folder keeps what was written, log.txt with the error included, and no summary.json. Input
//    refused before begin() leaves no folder at all.
#include <filesystem>
#include <string>

namespace subscale::pipeline {

class ClaimedFolder {
 public:
  // Throws UsageError (exit 2): a folder another run holds, a file, a non-empty folder that is not
  // a run (unless `overwrite`). Error (exit 1) when the folder cannot be made.
  static ClaimedFolder claim(const std::filesystem::path& folder, bool overwrite);
  // A new folder PARENT/STEM-YYYYmmdd-HHMMSS-mmm, made exclusively: runs started at the same
  // moment get -2, -3, ... and names still sort by start time.
  static ClaimedFolder claim_new(const std::filesystem::path& parent, const std::string& stem);

  ClaimedFolder(ClaimedFolder&& other) noexcept;
  ClaimedFolder& operator=(ClaimedFolder&&) = delete;
  ClaimedFolder(const ClaimedFolder&) = delete;
  ~ClaimedFolder();

  const std::filesystem::path& path() const noexcept { return final_; }
  // Where the run writes until finish() (the folder itself when it was new or empty); begin() first.
  const std::filesystem::path& work_path() const noexcept { return work_; }
  void begin();
  bool begun() const noexcept { return begun_; }
  void finish();

 private:
  enum class Found { made, empty, run, foreign };
  ClaimedFolder(std::filesystem::path final_path, int lock, Found found);
  void swap_in();
  void remove_stale_work_folders() const;
  void release() noexcept;

  std::filesystem::path final_;
  std::filesystem::path work_;
  int lock_ = -1;
  Found found_ = Found::made;  // what was there when claimed (foreign: written into by --overwrite)
  bool begun_ = false;
  bool finished_ = false;
};

// A name a run (or a sweep) writes in its folder (results.h5, log.txt, sweep.csv, ...), or what a
// killed run leaves of one.
bool is_run_file(const std::string& name);

// A run's summary.json (the last file a finished run writes): an object with the run's counts. A
// summary.json of something else does not make its folder a run.
bool is_run_summary(const std::filesystem::path& file);

// An earlier run of this tool (or an unfinished one): only the files a run writes, summary.json or
// log.txt among them, and sub-folders that are runs themselves (a sweep's).
bool is_run_folder(const std::filesystem::path& folder);

}  // namespace subscale::pipeline
