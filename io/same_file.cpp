#include "io/same_file.hpp"

#include <sys/stat.h>

namespace subscale::io {
namespace {

namespace fs = std::filesystem;

// The path made absolute, without a trailing "/" or "/." (which name the folder before them).
fs::path plain(const fs::path& path) {
  fs::path absolute = fs::absolute(path);
  while (absolute != absolute.root_path() && (absolute.filename().empty() || absolute.filename() == "."))
    absolute = absolute.parent_path();
  return absolute;
}

}  // namespace

fs::path resolved_path(const fs::path& path) {
  const fs::path absolute = plain(path);
  std::error_code error;
  if (absolute == absolute.root_path() || absolute.filename() == "..") {
    const fs::path whole = fs::weakly_canonical(absolute, error);
    return error ? absolute.lexically_normal() : whole;
  }
  // Only the folder is resolved: the name itself may be a link, and a writer that renames into
  // place replaces the link, not what it points to.
  const fs::path folder = fs::weakly_canonical(absolute.parent_path(), error);
  return (error ? absolute.parent_path().lexically_normal() : folder) / absolute.filename();
}

bool same_file(const fs::path& a, const fs::path& b) {
  struct stat a_status {};
  struct stat b_status {};
  const bool a_exists = ::stat(a.c_str(), &a_status) == 0;
  const bool b_exists = ::stat(b.c_str(), &b_status) == 0;
  if (a_exists && b_exists) return a_status.st_dev == b_status.st_dev && a_status.st_ino == b_status.st_ino;
  if (a_exists != b_exists) return false;
  return resolved_path(a) == resolved_path(b);
}

}  // namespace subscale::io
