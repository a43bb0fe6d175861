#pragma once
// Whether two paths name one file, however they are spelled: "./t.h5" and "t.h5", a symbolic link
// to the file, a hard link, a folder reached through a link. A command asks it before it writes, so
// that an output never replaces one of its own inputs, or another of its outputs.
#include <filesystem>

namespace subscale::io {

// True when `a` and `b` are the same file now, or will be once written: when both exist (links
// followed), the same device and inode; when neither does, the same name in the same folder (the
// folder's links resolved). A path that does not exist yet is never an existing file.
bool same_file(const std::filesystem::path& a, const std::filesystem::path& b);

// The absolute path of the file `path` names (or would name): its folder with links and "."/".."
// resolved as far as the folder exists, then its own name; "out/" names the folder out.
std::filesystem::path resolved_path(const std::filesystem::path& path);

}  // namespace subscale::io
