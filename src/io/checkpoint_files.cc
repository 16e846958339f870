#include "spinup/checkpoint_files.h"

#include <dirent.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <memory>
#include <string_view>

namespace spinup {
namespace {

std::string_view FileTypeName(mode_t mode) {
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISDIR(mode)) return "a directory";
  return "not a regular file";
}

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

}  // namespace

Result<CheckpointFile> StatRegularFile(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return Status::FromErrno(errno, path);
  if (!S_ISREG(st.st_mode)) {
    return Status::InvalidArgument(
        fmt::format("{}: not a regular file ({}); the reader only reads regular files", path,
                    FileTypeName(st.st_mode)));
  }
  // access() rather than an open: opening is the reader's job, and this must not block.
  if (::access(path.c_str(), R_OK) != 0) return Status::FromErrno(errno, path);
  return CheckpointFile{path, static_cast<uint64_t>(st.st_size)};
}

Result<std::vector<CheckpointFile>> ListCheckpointFiles(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return Status::FromErrno(errno, path);
  if (!S_ISDIR(st.st_mode)) {
    auto one = StatRegularFile(path);
    if (!one.ok()) return one.status();
    return std::vector<CheckpointFile>{*one};
  }
  std::unique_ptr<DIR, int (*)(DIR*)> dir(::opendir(path.c_str()), &::closedir);
  if (!dir) return Status::FromErrno(errno, path);
  std::vector<std::string> safetensors, gguf, torch;
  // A directory listing is untrusted too: cap it so a huge directory cannot exhaust memory.
  constexpr size_t kMaxEntries = 1'000'000;
  size_t seen = 0;
  while (dirent* e = ::readdir(dir.get())) {
    if (++seen > kMaxEntries) {
      return Status::InvalidArgument(fmt::format("{}: more than {} entries", path, kMaxEntries));
    }
    std::string_view name = e->d_name;
    if (name.empty() || name[0] == '.') continue;
    if (EndsWith(name, ".safetensors")) {
      safetensors.emplace_back(name);
    } else if (EndsWith(name, ".gguf")) {
      gguf.emplace_back(name);
    } else if ((EndsWith(name, ".bin") && name != "training_args.bin") || EndsWith(name, ".pt") ||
               EndsWith(name, ".pth")) {
      torch.emplace_back(name);
    }
  }
  std::vector<std::string>* chosen = !safetensors.empty() ? &safetensors
                                     : !gguf.empty()      ? &gguf
                                                          : &torch;
  if (chosen->empty()) {
    return Status::NotFound(
        fmt::format("{}: no checkpoint shards (*.safetensors, *.gguf, *.bin, *.pt)", path));
  }
  std::sort(chosen->begin(), chosen->end());
  std::string dirpath = path;
  if (dirpath.back() != '/') dirpath += '/';
  std::vector<CheckpointFile> out;
  out.reserve(chosen->size());
  for (const auto& name : *chosen) {
    auto f = StatRegularFile(dirpath + name);
    if (!f.ok()) return f.status();
    out.push_back(std::move(*f));
  }
  return out;
}

}  // namespace spinup
