// Output of the test server: SGLang-style timestamped lines on stderr (and --log-file).
#pragma once

#include <string>

namespace test_server {

extern int g_log_fd;  // --log-file, opened in main(); -1 when none

// Writes all of `s` to `fd`, retrying short writes; gives up silently on errors.
void WriteAll(int fd, const std::string& s);

// One line as is, written in one call so lines of concurrent ranks never interleave.
void Raw(const std::string& line);

// "[2026-11-29 14:30:12 TP0] message" (rank tag only with tp > 1, as in SGLang).
void Log(const std::string& msg);

}  // namespace test_server
