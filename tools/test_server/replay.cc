// --replay LOG: the log's lines, with the gaps between their timestamps scaled.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <optional>
#include <string>

#include <re2/re2.h>

#include "test_server/modes.h"
#include "test_server/options.h"
#include "test_server/output.h"
#include "test_server/work.h"

namespace test_server {

int Replay() {
  std::ifstream in(g_opt.replay);
  if (!in) {
    std::fprintf(stderr, "spinup_test_server: %s: cannot open\n", g_opt.replay.c_str());
    return 2;
  }
  // SGLang "[2026-01-02 03:04:05" or vLLM "INFO 01-02 03:04:05".
  RE2 sg(R"(^\[(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d))");
  RE2 vl(R"(^(?:\([^)]*\) )?[A-Z]+ (\d\d)-(\d\d) (\d\d):(\d\d):(\d\d))");
  std::optional<int64_t> last;
  std::string line;
  while (std::getline(in, line)) {
    int y = 2000, mo = 1, d = 1, h = 0, mi = 0, s = 0;
    bool has = RE2::PartialMatch(line, sg, &y, &mo, &d, &h, &mi, &s) ||
               RE2::PartialMatch(line, vl, &mo, &d, &h, &mi, &s);
    if (has) {
      int64_t t = ((((static_cast<int64_t>(y) * 12 + mo) * 31 + d) * 24 + h) * 60 + mi) * 60 + s;
      if (last && t > *last) {
        Sleep(std::min<double>(static_cast<double>(t - *last), g_opt.replay_max_gap));
      }
      last = t;
    }
    Raw(line);
  }
  return 0;
}

}  // namespace test_server
