#include "io/atomic_output.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <random>

#include "common/error.hpp"

namespace subscale::io {

AtomicOutput::AtomicOutput(std::filesystem::path final_path) : final_(std::move(final_path)) {
  // The temporary is created here, exclusively and without following a link, under a name no one
  // can guess: a link planted at a predictable name would otherwise send the writer's bytes to a
  // file outside the output's folder.
  std::random_device entropy;
  for (int attempt = 0;; ++attempt) {
    temporary_ = final_;
    temporary_ += ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(entropy());
    const int fd = ::open(temporary_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd >= 0) {
      ::close(fd);
      return;
    }
    if (errno != EEXIST || attempt == 100)
      throw Error(ExitCode::other, final_.string() + ": cannot create a temporary file beside it (" +
                                       std::strerror(errno) + "); check the folder exists and is writable");
  }
}

AtomicOutput::~AtomicOutput() {
  if (!committed_) {
    std::error_code ignored;
    std::filesystem::remove(temporary_, ignored);
  }
}

void AtomicOutput::commit() {
  std::error_code error;
  std::filesystem::rename(temporary_, final_, error);
  if (error)
    throw Error(ExitCode::other, final_.string() + ": cannot move the finished file into place: " + error.message());
  committed_ = true;
}

void write_text_file(const std::filesystem::path& path, const std::string& text) {
  AtomicOutput output(path);
  {
    std::ofstream stream(output.temporary_path(), std::ios::binary);
    stream << text;
    stream.flush();
    if (!stream) throw Error(ExitCode::other, path.string() + ": cannot write file (disk full or no permission?)");
  }
  output.commit();
}

void write_text_file_in_blocks(const std::filesystem::path& path,
                               const std::function<void(const BlockSink&)>& produce) {
  AtomicOutput output(path);
  {
    std::ofstream stream(output.temporary_path(), std::ios::binary);
    const auto fail = [&] {
      throw Error(ExitCode::other, path.string() + ": cannot write file (disk full or no permission?)");
    };
    if (!stream) fail();
    produce([&](std::string_view block) {
      stream.write(block.data(), static_cast<std::streamsize>(block.size()));
      if (!stream) fail();
    });
    stream.flush();
    if (!stream) fail();
  }
  output.commit();
}

}  // namespace subscale::io
