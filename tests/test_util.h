// Helpers shared by tests: source and shared/ locations, temporary directories, running programs.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace spinup::testing {

std::filesystem::path SourceDir();
std::filesystem::path BinaryDir();
std::filesystem::path SpinupExe();
// ../shared beside the checkout (or $SPINUP_SHARED_DIR); nullopt when absent.
std::optional<std::filesystem::path> SharedDir();

// A fresh directory under $TMPDIR, removed (recursively) when the object dies.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

 private:
  std::filesystem::path path_;
};

struct ProcessResult {
  int exit_code = -1;  // -N when killed by signal N
  std::string out;
  std::string err;
};

// Runs argv[0] (a path) with the given arguments and stdin text; waits at most timeout_s seconds,
// then kills it (exit_code -9).
ProcessResult RunProgram(const std::vector<std::string>& argv, const std::string& stdin_text = "",
                         int timeout_s = 120);

// Convenience: runs the built spinup executable.
ProcessResult RunSpinup(const std::vector<std::string>& args, const std::string& stdin_text = "",
                        int timeout_s = 120);

// A TCP port on 127.0.0.1 that was free a moment ago (for servers the tests start).
int FreePort();

std::string ReadFile(const std::filesystem::path& path);
void WriteFile(const std::filesystem::path& path, const std::string& contents);
// Writes `size` bytes of a fixed pattern and fsyncs them: dirty pages cannot be evicted, so
// page-cache tests need the data on disk first.
std::string WriteSyncedFile(const std::filesystem::path& path, size_t size);
// tmpfs and ramfs keep file pages whatever the advice: eviction cannot be observed there.
bool EvictionObservable(const std::filesystem::path& path);

}  // namespace spinup::testing
