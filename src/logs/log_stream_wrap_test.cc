// A paste whose long lines a terminal wrapped (wrapped_lines.h): LogStream reads each record
// joined again, and leaves a natural log's lines as they are.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "logs/log_stream.h"
#include "session_fixtures.h"

namespace spinup {
namespace {

// Every line's text as the stream read it: events' and unmatched lines' alike, with the line
// number an event names.
struct Read {
  std::vector<std::string> texts;
  std::vector<uint64_t> event_lines;
  bool Has(std::string_view text) const {
    for (const auto& t : texts) {
      if (t == text) return true;
    }
    return false;
  }
  bool HasPart(std::string_view part) const {
    for (const auto& t : texts) {
      if (t.find(part) != std::string::npos) return true;
    }
    return false;
  }
};

Read ReadLog(const std::string& log) {
  Read out;
  LogStreamOptions o;
  o.reference_year = 2026;
  LogStream stream(testing::BuiltinRules(), o);
  stream.OnEvent([&](const LogEvent& e) {
    out.texts.push_back(e.text);
    out.event_lines.push_back(e.line_no);
  });
  stream.OnActivity([&](std::optional<int64_t>, std::string_view m) { out.texts.emplace_back(m); });
  stream.Feed(log);
  stream.Finish();
  return out;
}

// The text as a terminal `width` columns wide would have it copied: each long line cut.
std::string Wrap(const std::string& text, size_t width) {
  std::string out;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    for (std::string_view line(text.data() + start, end - start);; line.remove_prefix(width)) {
      out.append(line.substr(0, width)).push_back('\n');
      if (line.size() <= width) break;
    }
    start = end + 1;
  }
  return out;
}

constexpr std::string_view kFrame =
    "  File \"/usr/local/lib/python3.12/dist-packages/vllm/v1/worker/gpu_model_runner.py\", "
    "line 2345, in capture_model";

TEST(WrappedPaste, AFrameCutByTheWrapIsReadWhole) {
  const std::string log =
      "INFO 05-21 06:33:40 [core.py:1] Starting to load model m\n"
      "Traceback (most recent call last):\n" +
      std::string(kFrame) + "\n    self.capture()\nRuntimeError: CUDA error: out of memory\n";
  const Read r = ReadLog(Wrap(log, 70));
  EXPECT_TRUE(r.HasPart(kFrame.substr(2))) << "frame not joined";
  // The joined frame's event names the line it started on (line 3 of the wrapped paste).
  bool line3 = false;
  for (size_t i = 0; i < r.texts.size() && i < r.event_lines.size(); ++i) {
    line3 |= r.texts[i].find("capture_model") != std::string::npos && r.event_lines[i] == 3;
  }
  EXPECT_TRUE(line3);
}

TEST(WrappedPaste, AQuotedWrappedFrameIsReadWhole) {
  // GitHub's "Quote reply" of a wrapped paste marks every fragment.
  std::string quoted;
  const std::string wrapped = Wrap("Traceback (most recent call last):\n" + std::string(kFrame) +
                                       "\n    self.capture()\nRuntimeError: boom\n",
                                   64);
  for (size_t at = 0, nl; (nl = wrapped.find('\n', at)) != std::string::npos; at = nl + 1) {
    quoted += "> " + wrapped.substr(at, nl - at) + "\n";
  }
  EXPECT_TRUE(ReadLog(quoted).HasPart(kFrame.substr(2)));
}

TEST(WrappedPaste, AJsonLineCutByTheWrapIsReadThroughItsMessage) {
  const std::string json =
      R"({"timestamp":"2024-05-01T10:00:00.000000Z","level":"ERROR","fields":{"message":)"
      R"("Shard 0 failed to start"},"target":"text_generation_launcher"})";
  const Read r = ReadLog(Wrap(json + "\n", 64));
  EXPECT_TRUE(r.HasPart("Shard 0 failed to start"));
}

TEST(WrappedPaste, AnyLongLineJoinsOnceTheWidthIsKnown) {
  std::string log;
  for (int i = 0; i < 3; ++i) {
    log += "INFO 05-21 06:33:4" + std::to_string(i) + " [loader.py:1" + std::to_string(i) +
           "] message number " + std::to_string(i) +
           " that is long enough for a terminal to wrap it somewhere in the middle\n";
  }
  const Read r = ReadLog(Wrap(log, 60));
  // The first two teach the width (each read in two parts); the third is read whole.
  EXPECT_TRUE(
      r.HasPart("message number 2 that is long enough for a terminal to wrap it somewhere "
                "in the middle"));
  EXPECT_FALSE(
      r.HasPart("message number 0 that is long enough for a terminal to wrap it somewhere "
                "in the middle"));
}

TEST(WrappedPaste, ANaturalLogIsReadLineByLine) {
  // A crash loop repeats its widest line, each time followed by a line of no prefix; a table's
  // rows share a width; a frame without a function (a SyntaxError's) is followed by its code.
  std::string log;
  for (int i = 0; i < 3; ++i) {
    log += "E0601 10:0" + std::to_string(i) +
           ":09.000001 1 model_lifecycle.cc:638] failed to load 'tensorrt_llm' version 1: "
           "Internal: unexpected error when creating modelInstanceState\n"
           "error: creating server: Internal - failed to load all models\n";
  }
  log +=
      "+------------------+---------+------------------------------------------+\n"
      "| Model            | Version | Status                                   |\n"
      "+------------------+---------+------------------------------------------+\n"
      "| preprocessing    | 1       | READY                                    |\n"
      "| postprocessing   | 1       | READY                                    |\n"
      "+------------------+---------+------------------------------------------+\n";
  log +=
      "  File \"/srv/app/plugin.py\", line 12\n    import foo bar\nSyntaxError: invalid syntax\n";
  const Read r = ReadLog(log);
  for (const auto& t : r.texts) {
    EXPECT_EQ(t.find("modelInstanceStateerror"), std::string::npos) << t;
    EXPECT_EQ(t.find("||"), std::string::npos) << t;
    EXPECT_EQ(t.find("line 12    import"), std::string::npos) << t;
  }
  EXPECT_TRUE(r.HasPart("error: creating server: Internal - failed to load all models"));
}

TEST(WrappedPaste, AnUnfinishedLastLineIsReadAtTheEnd) {
  const Read r = ReadLog(std::string(kFrame.substr(0, 40)) + "\n");
  EXPECT_TRUE(r.HasPart(kFrame.substr(2, 38)));
}

}  // namespace
}  // namespace spinup
