#pragma once
// Output files are first written under a temporary name in the same folder and renamed into
// place by commit(); a run that fails before commit() leaves no half-written file behind. The
// temporary is created empty by the constructor, exclusively (O_EXCL | O_NOFOLLOW) under an
// unguessable name in the final file's folder, and the writer reopens it by temporary_path().
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>

namespace subscale::io {

class AtomicOutput {
 public:
  explicit AtomicOutput(std::filesystem::path final_path);
  AtomicOutput(const AtomicOutput&) = delete;
  AtomicOutput& operator=(const AtomicOutput&) = delete;
  ~AtomicOutput();  // removes the temporary file unless committed

  // Where the writer should write.
  const std::filesystem::path& temporary_path() const noexcept { return temporary_; }
  const std::filesystem::path& final_path() const noexcept { return final_; }
  void commit();

 private:
  std::filesystem::path final_;
  std::filesystem::path temporary_;
  bool committed_ = false;
};

// Writes text to `path` atomically.
void write_text_file(const std::filesystem::path& path, const std::string& text);

// Writes `path` atomically from text made block by block: `produce` calls the sink it is given with
// each block in order, and each block goes to the file before the next is asked for, so a text
// of any size needs no more memory than its blocks.
using BlockSink = std::function<void(std::string_view)>;
void write_text_file_in_blocks(const std::filesystem::path& path, const std::function<void(const BlockSink&)>& produce);

}  // namespace subscale::io
