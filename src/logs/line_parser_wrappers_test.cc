// Wrapped formats in ParseLine: prefixes nobody taught spinup (skipped, and learned by LogStream),
// node-level Kubernetes files, LogQL output, indented line numbers, mpirun's tag.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "logs/line_parser.h"

namespace spinup {
namespace {

// Wrapped formats: a constant prefix nobody taught spinup (an editor's line numbers, a k9s
// frame) is skipped when what follows is a known engine prefix.
TEST(ParseLineUnknownPrefix, LeadingTokensBeforeAKnownPrefixAreSkipped) {
  ParsedLine p = ParseLine("16433 [2026-07-23 15:23:26 DP2 TP2 EP2] Scheduler hit an exception");
  EXPECT_EQ(p.style, PrefixStyle::kSglang);
  EXPECT_EQ(p.rank, "DP2_TP2_EP2");
  EXPECT_EQ(p.message, "Scheduler hit an exception");
  ParsedLine k =
      ParseLine("\u2502 INFO 03-09 12:00:01 [core.py:1] Starting to load model m   \u2502");
  EXPECT_EQ(k.style, PrefixStyle::kVllm);
  ParsedLine plain = ParseLine("Traceback (most recent call last):");
  EXPECT_EQ(plain.style, PrefixStyle::kNone);
  EXPECT_EQ(plain.message, "Traceback (most recent call last):");
}

// pm2's logs: its own lines behind "PM2        | ", the app's behind "<id>|<name>   | ", as
// docker compose's name; a bar right after the name is no such prefix.
TEST(ParseLineUnknownPrefix, Pm2sAppIdAndNameAreAWrapper) {
  EXPECT_EQ(ParseLine("0|vllm     | Traceback (most recent call last):").message,
            "Traceback (most recent call last):");
  ParsedLine v =
      ParseLine("12|llm-api  | INFO 03-09 12:00:01 [core.py:1] Starting to load model m");
  EXPECT_EQ(v.style, PrefixStyle::kVllm);
  EXPECT_EQ(v.message, "Starting to load model m");
  EXPECT_EQ(ParseLine("PM2        | App [vllm:0] online").message, "App [vllm:0] online");
  EXPECT_EQ(ParseLine("10|x| y").message, "10|x| y");
}

// The skipped prefix is reported (LogStream learns the ones that repeat), and a learned one is
// removed from any line that starts with it, whatever follows.
TEST(ParseLineUnknownPrefix, SkippedPrefixIsReportedAndALearnedOneIsRemoved) {
  ParsedLine p = ParseLine("gpu-07: INFO 03-09 12:00:01 [core.py:1] Starting to load model m");
  EXPECT_EQ(p.style, PrefixStyle::kVllm);
  EXPECT_EQ(p.skipped_prefix, "gpu-07: ");
  EXPECT_TRUE(ParseLine("INFO 03-09 12:00:01 [core.py:1] x").skipped_prefix.empty());
  const std::vector<std::string> learned = {"gpu-07: "};
  EXPECT_EQ(ParseLine("gpu-07: Traceback (most recent call last):", &learned).message,
            "Traceback (most recent call last):");
  // Before it is learned, a traceback's line behind it is read too (its shape is known).
  EXPECT_EQ(ParseLine("gpu-07: Traceback (most recent call last):").message,
            "Traceback (most recent call last):");
  EXPECT_EQ(ParseLine("gpu-07: Memory pool end.").message, "gpu-07: Memory pool end.");
  // Only at the line's start, and never the whole line.
  EXPECT_EQ(ParseLine("x gpu-07: y", &learned).message, "x gpu-07: y");
  EXPECT_EQ(ParseLine("gpu-07: ", &learned).message, "gpu-07: ");
}

// A skipped token ends at a space or a tab and is at most 47 bytes, wherever the blank falls
// (the token's end is looked for 8 bytes at a time).
TEST(ParseLineUnknownPrefix, TokenEndsAtABlankWithinFortyEightBytes) {
  const std::string known = "[2026-07-23 15:23:26 TP2] Load weight begin.";
  for (size_t len = 1; len <= 50; ++len) {
    for (const char* blank : {" ", "\t", " \t "}) {
      const std::string token(len, len % 2 ? 'x' : '7');
      const std::string line = token + blank + known;  // ParsedLine views into it
      ParsedLine p = ParseLine(line);
      EXPECT_EQ(p.style, len < 48 ? PrefixStyle::kSglang : PrefixStyle::kNone) << len;
      if (len < 48) {
        EXPECT_EQ(p.message, "Load weight begin.") << len;
      }
    }
  }
  // Two tokens, or three where the third is a label (DJL Serving's "INFO  PyProcess
  // W-215-model-stdout: "); never more.
  EXPECT_EQ(ParseLine("a\tb " + known).style, PrefixStyle::kSglang);
  EXPECT_EQ(ParseLine("INFO  PyProcess W-215-model-stdout: " + known).style, PrefixStyle::kSglang);
  EXPECT_EQ(ParseLine("a b c " + known).style, PrefixStyle::kNone);
  EXPECT_EQ(ParseLine("a b c: d: " + known).style, PrefixStyle::kNone);
}

// Node-level Kubernetes files (CRI format), LogQL output and indented line numbers.
TEST(ParseLineWrappers, CriLokiAndIndentedLineNumbers) {
  ParsedLine cri = ParseLine(
      "2025-09-22T10:00:00.123456789+00:00 stderr F [2025-09-22 10:00:01 TP0] Load weight begin.");
  EXPECT_EQ(cri.style, PrefixStyle::kSglang);
  EXPECT_EQ(cri.message, "Load weight begin.");
  ParsedLine loki = ParseLine(
      "2025-09-22T10:00:00Z {app=\"sglang\", pod=\"sglang-0\"} [2025-09-22 10:00:01 TP0] Load "
      "weight begin.");
  EXPECT_EQ(loki.rank, "TP0");
  EXPECT_EQ(loki.message, "Load weight begin.");
  ParsedLine num = ParseLine("  12  [2025-09-22 10:00:01 TP0] Load weight begin.");
  EXPECT_EQ(num.rank, "TP0");
  EXPECT_EQ(num.message, "Load weight begin.");
  // A traceback frame keeps its indentation and gains no prefix.
  ParsedLine frame = ParseLine("  File \"/x/y.py\", line 3, in load_model");
  EXPECT_EQ(frame.style, PrefixStyle::kNone);
  EXPECT_EQ(frame.message, "  File \"/x/y.py\", line 3, in load_model");
}

// mpirun --tag-output: "[job,rank]<stream>:" before the engine's own prefix.
// A wrapper that names the program of the line: compose's service, kubectl --prefix's container.
TEST(ParseLineWrappers, ComposeAndKubectlPrefixNameTheSource) {
  ParsedLine p = ParseLine("open-webui-1  | Application startup complete.");
  EXPECT_EQ(p.source, "open-webui-1");
  EXPECT_EQ(p.message, "Application startup complete.");
  p = ParseLine("[pod/vllm-7d9f/model-downloader] Fetching 30 files");
  EXPECT_EQ(p.source, "model-downloader");
  EXPECT_EQ(p.message, "Fetching 30 files");
  EXPECT_EQ(ParseLine("INFO 06-02 14:40:39 [loader.py:1] Loading weights took 3 s").source, "");
}

// honcho's and foreman's time of day and process name before the engine's own prefix.
TEST(ParseLineWrappers, ProcfileRunnersTimeAndName) {
  ParsedLine p = ParseLine(
      "10:02:14 vllm.1   | INFO 03-02 10:02:14 [api_server.py:1043] vLLM API server version 0.8.5");
  EXPECT_EQ(p.style, PrefixStyle::kVllm);
  EXPECT_EQ(p.source, "vllm.1");
  EXPECT_EQ(p.message, "vLLM API server version 0.8.5");
  p = ParseLine("10:02:28 vllm.1   | Loading safetensors checkpoint shards:   0% Completed");
  EXPECT_EQ(p.message, "Loading safetensors checkpoint shards:   0% Completed");
  EXPECT_EQ(p.source, "vllm.1");
  // A time of day before a sentence with a bar in it is no runner's prefix.
  EXPECT_EQ(ParseLine("10:02:28 it hangs | here").message, "10:02:28 it hangs | here");
}

TEST(ParseLineWrappers, MpirunTagOutput) {
  ParsedLine p = ParseLine("[1,3]<stderr>:[TensorRT-LLM][INFO] Loaded engine size: 8745 MiB");
  EXPECT_EQ(p.style, PrefixStyle::kTrtllm);
  EXPECT_EQ(p.rank, "rank3");
  EXPECT_EQ(p.message, "Loaded engine size: 8745 MiB");
  ParsedLine q =
      ParseLine("[1,0]<stdout>:[05/01/2025-01:00:00] [TRT-LLM] [RANK 2] [I] Loading weights");
  EXPECT_EQ(q.rank, "rank2");  // the engine's own rank wins
  EXPECT_EQ(q.message, "Loading weights");
  // SGLang's bracketed time is not a tag.
  EXPECT_EQ(ParseLine("[2025-09-22 10:00:01 TP0] Load weight begin.").rank, "TP0");
  EXPECT_EQ(ParseLine("[1,2] not a tag").message, "[1,2] not a tag");
}

// srun --label: "N: " before the engine's prefix, before a traceback's lines, before a plain one.
TEST(ParseLineWrappers, SrunLabel) {
  ParsedLine p = ParseLine("1: [2025-09-22 10:00:01 TP3] Load weight begin. avail mem=70.1 GB");
  EXPECT_EQ(p.style, PrefixStyle::kSglang);
  EXPECT_EQ(p.rank, "TP3");
  EXPECT_EQ(p.message, "Load weight begin. avail mem=70.1 GB");
  EXPECT_EQ(ParseLine("0:   File \"/x/y.py\", line 3, in load_model").message,
            "  File \"/x/y.py\", line 3, in load_model");
  ParsedLine q = ParseLine("12: ValueError: Missing weights");
  EXPECT_EQ(q.message, "ValueError: Missing weights");
  EXPECT_TRUE(q.rank.empty());  // a task is not a rank
  // Not labels: a clock, a label with nothing after it, a long number.
  EXPECT_EQ(ParseLine("12:00:01 ready").message, "12:00:01 ready");
  EXPECT_EQ(ParseLine("3: ").message, "3: ");
  EXPECT_EQ(ParseLine("123456: x").message, "123456: x");
}

// grep -n's line number ("134:" on a match, "135-" on a context line) before the log's own line:
// the engine's prefix and time behind it are read.
TEST(ParseLineWrappers, GrepLineNumbers) {
  ParsedLine p = ParseLine("134:INFO 07-30 08:14:15 [monitor.py:34] torch.compile takes 7.11 s");
  EXPECT_EQ(p.style, PrefixStyle::kVllm);
  ASSERT_TRUE(p.time.has_value());
  EXPECT_EQ(p.time->minute, 14);
  EXPECT_EQ(p.message, "torch.compile takes 7.11 s");
  EXPECT_EQ(ParseLine("166-[2025-06-27 10:06:31 TP0] Load weight begin.").rank, "TP0");
  EXPECT_EQ(ParseLine("52:Traceback (most recent call last):").message,
            "Traceback (most recent call last):");
  // Not line numbers: a clock, a date, a range.
  EXPECT_EQ(ParseLine("10:02:19 started").message, "10:02:19 started");
  EXPECT_EQ(ParseLine("2025-06-12 something").message, "2025-06-12 something");
  EXPECT_EQ(ParseLine("3--x").message, "3--x");
}

// journalctl's other time formats and RFC 5424 syslog wrap the server's line as the default does:
// the wrapper's time and unit are read, the engine's line is what is left.
TEST(ParseLineServiceManager, JournalShortFullShortUnixAndRfc5424) {
  ParsedLine full = ParseLine(
      "Thu 2025-08-14 10:02:11 UTC gpu-node-3 vllm-serve[24817]: INFO 08-14 10:02:11 "
      "[core.py:1] Starting to load model m");
  EXPECT_EQ(full.message, "Starting to load model m");
  EXPECT_EQ(full.wrapper_ident, "vllm-serve[24817]");
  ASSERT_TRUE(full.wrapper_time);
  EXPECT_EQ(full.wrapper_time->year, 2025);
  EXPECT_EQ(full.wrapper_time->hour, 10);

  ParsedLine unix_time = ParseLine(
      "1755165731.000003 gpu-node-3 vllm-serve[24817]: INFO 08-14 10:02:11 [core.py:1] hello");
  EXPECT_EQ(unix_time.message, "hello");
  ASSERT_TRUE(unix_time.wrapper_time);
  EXPECT_EQ(unix_time.wrapper_time->year, 2025);
  EXPECT_EQ(unix_time.wrapper_time->month, 8);
  EXPECT_EQ(unix_time.wrapper_time->day, 14);

  ParsedLine syslog = ParseLine(
      "<14>1 2025-09-03T02:11:40.000000Z gpu-node-3 vllm 24817 - - INFO 09-03 02:11:40 "
      "[core.py:1] hello");
  EXPECT_EQ(syslog.message, "hello");
  EXPECT_EQ(syslog.wrapper_ident, "vllm");
  ASSERT_TRUE(syslog.wrapper_time);
  EXPECT_EQ(syslog.wrapper_time->minute, 11);
  // systemd's own lines in it are the service manager's (a unit fact or nothing).
  EXPECT_EQ(ParseLine("<30>1 2025-09-03T02:11:41Z gpu-node-3 systemd 1 - - vllm.service: Main "
                      "process exited, code=exited, status=1/FAILURE")
                .wrapper_ident,
            "systemd");
  // Near misses are no service manager's lines (another reader may still take a time from them).
  EXPECT_TRUE(ParseLine("Thu 2025-08-14 10:02:11 is when it broke").wrapper_ident.empty());
  EXPECT_EQ(ParseLine("1755165731 lines read").wrapper_time, std::nullopt);
  EXPECT_TRUE(ParseLine("<14>2 2025-09-03T02:11:40Z h a 1 - - x").wrapper_ident.empty());
  EXPECT_TRUE(ParseLine("<14>1 2025-09-03T02:11:40Z h a 1 - x").wrapper_ident.empty());
}

}  // namespace
// journalctl --no-hostname: the identifier with its pid right after the time.
TEST(ParseLineWrappers, JournalctlWithoutHostnames) {
  auto p =
      ParseLine("Aug 21 02:30:14 sglang-wrap[30112]: [2025-08-21 02:30:14 TP3] Load weight begin.");
  EXPECT_EQ(p.message, "Load weight begin.");
  EXPECT_EQ(p.rank, "TP3");
  EXPECT_EQ(p.source, "sglang-wrap");
  p = ParseLine("Aug 21 02:52:57 systemd[1]: sglang.service: Start operation timed out.");
  EXPECT_EQ(p.message, "sglang.service: Start operation timed out.");
  // A sentence's word and colon after a time is no identifier.
  p = ParseLine("Aug 21 02:30:14 note: the start hung here");
  EXPECT_FALSE(p.wrapper_time);
}

// A script's bracket with its time, tagged or not, keeps the log's clock; SGLang's own bracket
// (time first, no 'T') stays the engine's.
TEST(ParseLineWrappers, ScriptBracketWithTime) {
  auto p = ParseLine("[start.sh 2024-11-04T11:30:02+00:00] /health -> curl: (7) Failed");
  ASSERT_TRUE(p.wrapper_time);
  EXPECT_EQ(p.wrapper_time->minute, 30);
  EXPECT_TRUE(p.utc_stamp);
  EXPECT_EQ(p.message, "/health -> curl: (7) Failed");
  p = ParseLine("[2024-11-04T11:30:02.5Z] waiting for port 8000");
  ASSERT_TRUE(p.wrapper_time);
  EXPECT_EQ(p.message, "waiting for port 8000");
  p = ParseLine("[entrypoint 2024-11-04 11:30:02] waiting");
  ASSERT_TRUE(p.wrapper_time);
  EXPECT_FALSE(p.utc_stamp);
  p = ParseLine("[2024-11-04 11:30:02 TP0] Load weight begin.");
  EXPECT_EQ(p.rank, "TP0");
  EXPECT_FALSE(p.wrapper_time);
  p = ParseLine("[see note 2024-11-04] not a time");
  EXPECT_FALSE(p.wrapper_time);
  // dmesg -T's human time dates the kernel's record.
  p = ParseLine("[Wed Jan 15 08:31:27 2025] Out of memory: Killed process 5123 (python3)");
  ASSERT_TRUE(p.wrapper_time);
  EXPECT_EQ(p.wrapper_time->hour, 8);
  EXPECT_EQ(p.wrapper_time->minute, 31);
  EXPECT_EQ(p.message, "Out of memory: Killed process 5123 (python3)");
  p = ParseLine("[Wed is a day] not a time");
  EXPECT_FALSE(p.wrapper_time);
}

// `ts '[%H:%M:%S]'` before an engine's dated prefix: dropped, the engine's line is read. Before a
// line no prefix dates, the bracket stays (SGLang 2024's time of day).
TEST(ParseLineWrappers, TsTimeOfDayBeforeAnEnginePrefix) {
  auto p = ParseLine("[13:02:03] INFO 03-03 13:02:03 api_server.py:912] vLLM API server version");
  EXPECT_EQ(p.style, PrefixStyle::kVllm);
  EXPECT_EQ(p.level, "INFO");
  ASSERT_TRUE(p.time);
  EXPECT_EQ(p.time->month, 3);
  EXPECT_EQ(p.message, "vLLM API server version");
  p = ParseLine("[07:02:10] waiting for http://10.1.4.22:8000/health ...");
  EXPECT_EQ(p.style, PrefixStyle::kSglang);
  EXPECT_EQ(p.message, "waiting for http://10.1.4.22:8000/health ...");
}

// A log shipper's time (with the node's offset), its host or container name, then the engine's own
// line with its own stamp: the name is the wrapper's, the engine's prefix is read.
TEST(ParseLineWrappers, ShipperTimeAndHostBeforeAStampedLine) {
  auto p = ParseLine(
      "2024-12-07T13:50:06.077+05:30 tgi-qwen14b 2024-12-07T08:20:06.077000Z  INFO "
      "text_generation_launcher: Starting shard rank=0");
  EXPECT_EQ(p.style, PrefixStyle::kTgi);
  EXPECT_EQ(p.wrapper_ident, "tgi-qwen14b");
  ASSERT_TRUE(p.time);
  EXPECT_EQ(p.time->hour, 8);
  EXPECT_EQ(p.message, "Starting shard rank=0");
  // A word before a line that has no date of its own stays the message's.
  p = ParseLine("2024-12-07T13:50:06.077Z waiting 2024 seconds");
  EXPECT_EQ(p.message, "waiting 2024 seconds");
  // `aws logs tail`: the log stream's name before a JSON line.
  p = ParseLine(R"(2024-08-12T15:04:36.521000+00:00 ecs/tgi/8c1e55a2 {"level":"INFO"})");
  EXPECT_EQ(p.wrapper_ident, "ecs/tgi/8c1e55a2");
  EXPECT_EQ(p.message, R"({"level":"INFO"})");
  // A path before other text stays the message's.
  p = ParseLine("2024-08-12T15:04:36Z ecs/tgi/8c1e55a2 started");
  EXPECT_EQ(p.message, "ecs/tgi/8c1e55a2 started");
  // Behind `aws logs tail`'s own time (an offset, not Z) the stream's name is the wrapper's,
  // before any line; it is no journal's host.
  p = ParseLine(
      "2025-01-27T16:20:12.218000+00:00 ecs/tgi/0d3e5f7a RuntimeError: Found no NVIDIA driver");
  EXPECT_EQ(p.wrapper_ident, "ecs/tgi/0d3e5f7a");
  EXPECT_EQ(p.message, "RuntimeError: Found no NVIDIA driver");
}

}  // namespace spinup
