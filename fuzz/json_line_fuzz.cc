// libFuzzer target: structured log lines. The fast JSON subset parser must decline a line or read
// it exactly as nlohmann's parser does (a differential check); ParseJsonLogLine and the logfmt
// reader must stay bounded.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "logs/json_line.h"
#include "logs/logfmt_line.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view line(reinterpret_cast<const char*>(data), size);
  if (!spinup::JsonSubsetAgreesWithFullParser(line)) std::abort();
  std::string message;
  if (auto j = spinup::ParseJsonLogLine(line, &message)) {
    // The message is built from the line's own text (escapes only shrink; " | " replaces a break).
    if (message.size() > 2 * line.size() + 3 || j->level.size() > 16) std::abort();
  }
  // logfmt's message is the line's own bytes, escapes only shrinking them.
  if (auto j = spinup::ParseLogfmtLine(line, &message)) {
    if (message.size() > line.size() || j->level.size() > 16) std::abort();
  }
  return 0;
}
