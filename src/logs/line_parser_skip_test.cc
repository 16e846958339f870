// ParseLine skips the parsers for lines no wrapper or engine prefix can start (MayStartLinePrefix):
// that test must never skip a line the parsers would read. Checked on every line of the scenario
// logs, on what follows their first words (ParseLine's second tries) and on shapes near each
// parser's first test.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "logs/line_parser_internal.h"
#include "test_util.h"

namespace spinup {
namespace {

using line_internal::MayStartLinePrefix;
using line_internal::ReadLinePrefixes;

// A line the test lets through may hold anything; one it stops must read as no prefix at all.
void ExpectSkipIsSafe(std::string_view line) {
  if (MayStartLinePrefix(line)) return;
  const ParsedLine p = ReadLinePrefixes(line);
  EXPECT_FALSE(p.time.has_value()) << line;
  EXPECT_FALSE(p.wrapper_time.has_value()) << line;
  EXPECT_TRUE(p.wrapper_ident.empty()) << line;
  EXPECT_TRUE(p.rank.empty()) << line;
  EXPECT_TRUE(p.level.empty()) << line;
  EXPECT_EQ(p.style, PrefixStyle::kNone) << line;
  EXPECT_FALSE(p.client_request) << line;
  EXPECT_EQ(p.message.data(), line.data()) << line;  // nothing stripped from its start
}

std::vector<std::string> Shapes() {
  return {"Mar 09 12:01:49 host unit[1]: x",
          "Foo 09 12:01:49 host unit[1]: x",
          "stdout F x",
          "stderr P y",
          "svc   | INFO 08-29 04:16:14 [a.py:1] x",
          "svc|x | y",
          "I0501 01:00:00.245480 1 x.cc:1] m",
          "W0501 01:00:00.245480 1 x.cc:1] m",
          "(Worker pid=1) INFO 08-29 04:16:14 x",
          "Worker_TP0 pid=1) x",
          "(VllmWorker rank=1 pid=31) x",
          "VllmWorker rank=1 pid=31) x",
          "INFO 08-29 04:16:14 [a.py:1] x",
          "WARNING 08-29 04:16:14 x",
          "\tWorker pid=2) x",
          "a|b pid=3) x",
          "a|b c",
          "|x pid=3) y",
          std::string(130, 'n') + "   | x",
          std::string(127, 'n') + "  | x",
          "^[[0m x",
          "[1;36m(Worker pid=1)",
          " pid=4) x",
          "x pid=",
          "INFO",
          "INFO x",
          "FATAL: y",
          "2026-03-09T12:01:49Z x",
          "(raylet) x",
          "Error: x",
          "ERROR x",
          "E x",
          "E1 x",
          "",
          " ",
          "s",
          "stdout",
          "{\"a\": 1}",
          "Thu 2025-08-14 10:02:11 UTC host unit[1]: x",
          "1755165731.000003 host unit[1]: x",
          "<14>1 2025-09-03T02:11:40Z host app 1 - - x"};
}

TEST(LinePrefixSkip, NeverSkipsALineTheParsersRead) {
  std::vector<std::string> lines = Shapes();
  const auto dir = testing::SourceDir() / "tests/data/scenarios";
  size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".log") continue;
    ++files;
    const std::string text = testing::ReadFile(entry.path());
    size_t start = 0;
    while (start < text.size()) {
      size_t end = text.find('\n', start);
      if (end == std::string::npos) end = text.size();
      lines.push_back(text.substr(start, end - start));
      start = end + 1;
    }
  }
  ASSERT_GT(files, 100u);
  size_t skipped = 0;
  for (const std::string& line : lines) {
    std::string_view rest = line;
    // The line, then what follows each of its first three words (ParseLine's second tries).
    for (int k = 0; k < 4 && !rest.empty(); ++k) {
      ExpectSkipIsSafe(rest);
      skipped += !MayStartLinePrefix(rest);
      const size_t sp = rest.find_first_of(" \t");
      if (sp == std::string_view::npos) break;
      rest.remove_prefix(sp);
      while (!rest.empty() && (rest.front() == ' ' || rest.front() == '\t')) rest.remove_prefix(1);
    }
  }
  EXPECT_GT(skipped, lines.size() / 4);  // the test does stop most plain text
}

}  // namespace
}  // namespace spinup
