#include "logs/line_parser.h"

#include <gtest/gtest.h>

namespace spinup {
namespace {

int64_t Ms(int y, int mo, int d, int h, int mi, int s) {
  CivilTime t;
  t.year = y;
  t.month = mo;
  t.day = d;
  t.hour = h;
  t.minute = mi;
  t.second = s;
  return CivilToUnixMs(t);
}

TEST(CivilTime, RoundTripsAndKnownEpoch) {
  EXPECT_EQ(Ms(1970, 1, 1, 0, 0, 0), 0);
  EXPECT_EQ(Ms(2026, 3, 9, 12, 1, 53), 1773057713000);
  CivilTime t = UnixMsToCivil(1773057713123);
  EXPECT_EQ(t.year, 2026);
  EXPECT_EQ(t.month, 3);
  EXPECT_EQ(t.day, 9);
  EXPECT_EQ(t.second, 53);
  EXPECT_EQ(t.millis, 123);
  EXPECT_EQ(FormatIsoTime(1773057713000), "2026-03-09T12:01:53");
}

TEST(ParseTimeArg, AcceptsSpaceAndIsoForms) {
  EXPECT_EQ(ParseTimeArg("2026-03-09 12:01:53"), Ms(2026, 3, 9, 12, 1, 53));
  EXPECT_EQ(ParseTimeArg("2026-03-09T12:01:53Z"), Ms(2026, 3, 9, 12, 1, 53));
  EXPECT_EQ(ParseTimeArg("2026-03-09T14:01:53+02:00"), Ms(2026, 3, 9, 12, 1, 53));
  EXPECT_EQ(ParseTimeArg("2026-03-09T12:01:53.500Z"), Ms(2026, 3, 9, 12, 1, 53) + 500);
  EXPECT_FALSE(ParseTimeArg("yesterday"));
  EXPECT_FALSE(ParseTimeArg("2026-13-09 12:01:53"));
  EXPECT_FALSE(ParseTimeArg("2026-03-09 12:01:53 trailing"));
}

TEST(ParseLine, SglangPrefixWithRankTags) {
  auto p = ParseLine("[2026-03-09 12:01:53 TP2] Load weight begin. avail mem=70.00 GB");
  EXPECT_EQ(p.message, "Load weight begin. avail mem=70.00 GB");
  EXPECT_EQ(p.rank, "TP2");
  EXPECT_EQ(p.style, PrefixStyle::kSglang);
  ASSERT_TRUE(p.time);
  EXPECT_EQ(p.time->year, 2026);
  EXPECT_EQ(p.time->second, 53);

  p = ParseLine("[2025-05-13 23:28:26 DP6 TP6 EP6] Init torch distributed begin.");
  EXPECT_EQ(p.rank, "DP6_TP6_EP6");
  EXPECT_EQ(p.message, "Init torch distributed begin.");

  p = ParseLine("[2026-04-14 16:08:32] server_args=ServerArgs(model_path='x')");
  EXPECT_EQ(p.rank, "");
  EXPECT_EQ(p.message, "server_args=ServerArgs(model_path='x')");

  p = ParseLine("[2026-04-14 16:08:32.123 TP0] x");
  ASSERT_TRUE(p.time);
  EXPECT_EQ(p.time->millis, 123);

  p = ParseLine("[23:03:43 TP0] Load weight end.");  // 2024: time only
  ASSERT_TRUE(p.time);
  EXPECT_FALSE(p.time->has_date());
  EXPECT_EQ(p.rank, "TP0");

  p = ParseLine("[gpu_id=1] Memory pool end. avail mem=6.46 GB");
  EXPECT_EQ(p.rank, "gpu1");
  EXPECT_EQ(p.message, "Memory pool end. avail mem=6.46 GB");

  // A bracketed word that is not a prefix stays in the message.
  p = ParseLine("[Gloo] Rank 0 is connected to 0 peer ranks");
  EXPECT_EQ(p.message, "[Gloo] Rank 0 is connected to 0 peer ranks");
}

// Ray's deduplication suffix is not part of the message (vLLM's Ray executor); a look-alike is.
TEST(ParseLine, RayRepeatSuffixIsDropped) {
  auto p = ParseLine(
      "(RayWorkerWrapper pid=1, ip=10.0.0.6) ERROR 03-27 10:29:05 [worker_base.py:620]   File "
      "\"/x/vllm/worker/worker.py\", line 9, in _warm_up_model [repeated 7x across cluster]");
  EXPECT_EQ(p.message, "  File \"/x/vllm/worker/worker.py\", line 9, in _warm_up_model");
  p = ParseLine("INFO 03-27 10:29:05 [a.py:1] ok [repeated many times across cluster]");
  EXPECT_EQ(p.message, "ok [repeated many times across cluster]");
}

// k9s frames each line in "│ ... │": neither bar is part of the message, with or without a prefix.
TEST(ParseLine, TerminalFrameBarsAreDropped) {
  auto p = ParseLine(
      "\xe2\x94\x82   File \"/x/vllm/worker/worker.py\", line 9, in load_model      \xe2\x94\x82");
  EXPECT_EQ(p.message, "  File \"/x/vllm/worker/worker.py\", line 9, in load_model");
  p = ParseLine(
      "\xe2\x94\x82 INFO 03-21 20:15:44 [monitor.py:33] torch.compile takes 28.77 s in total   "
      "\xe2\x94\x82");
  EXPECT_EQ(p.message, "torch.compile takes 28.77 s in total");
  p = ParseLine("a \xe2\x94\x82 b");
  EXPECT_EQ(p.message, "a \xe2\x94\x82 b");
}

// vLLM's coloured process tag pasted without its ESC bytes ("[1;36m") or in caret notation.
TEST(ParseLine, ColourRemnantsAroundVllmTagsAreDropped) {
  for (const char* line :
       {"[1;36m(VllmWorker rank=1 pid=219)[0;0m INFO 08-31 14:42:32 [parallel_state.py:1076] rank "
        "1 "
        "in world size 2 is assigned",
        "^[[1;36m(VllmWorker rank=1 pid=219)^[[0;0m INFO 08-31 14:42:32 [parallel_state.py:1076] "
        "rank 1 in world size 2 is assigned"}) {
    auto p = ParseLine(line);
    EXPECT_EQ(p.rank, "Worker_rank1") << line;
    EXPECT_EQ(p.level, "INFO") << line;
    ASSERT_TRUE(p.time) << line;
    EXPECT_EQ(p.message, "rank 1 in world size 2 is assigned") << line;
  }
  // SGLang's bracketed time is not a colour code.
  auto s = ParseLine("[2025-09-22 10:00:00 TP0] Load weight begin.");
  EXPECT_EQ(s.rank, "TP0");
}

TEST(ParseLine, VllmPrefixes) {
  auto p = ParseLine(
      "(Worker_TP0 pid=400) INFO 08-29 04:16:14 [model_runner.py:491] Loading model from "
      "scratch...");
  EXPECT_EQ(p.rank, "Worker_TP0");
  EXPECT_EQ(p.message, "Loading model from scratch...");
  EXPECT_EQ(p.level, "INFO");
  ASSERT_TRUE(p.time);
  EXPECT_EQ(p.time->year, 0);  // vLLM prints no year
  EXPECT_EQ(p.time->month, 8);
  EXPECT_EQ(p.time->day, 29);

  p = ParseLine("INFO 07-12 19:04:13 api_server.py:206] vLLM API server version 0.5.1");
  EXPECT_EQ(p.message, "vLLM API server version 0.5.1");
  EXPECT_EQ(p.rank, "");

  p = ParseLine(
      "(VllmWorkerProcess pid=1153488) INFO 09-03 02:15:42 pynccl.py:63] vLLM is using "
      "nccl==2.21.5");
  EXPECT_EQ(p.rank, "Worker-1153488");
  EXPECT_EQ(p.message, "vLLM is using nccl==2.21.5");

  // A paste that lost the opening parenthesis, and Ray's ip suffix.
  p = ParseLine(
      "VllmWorkerProcess pid=11) INFO 09-03 02:15:41 x.py:1] Worker ready; awaiting tasks");
  EXPECT_EQ(p.rank, "Worker-11");
  EXPECT_EQ(p.message, "Worker ready; awaiting tasks");
  EXPECT_FALSE(p.remote_node);
  p = ParseLine(
      "(RayWorkerWrapper pid=146, ip=192.168.10.60) INFO 03-27 10:29:01 [worker.py:267] Memory "
      "profiling takes 4.26 seconds");
  EXPECT_EQ(p.rank, "Worker-146");
  EXPECT_EQ(p.message, "Memory profiling takes 4.26 seconds");
  EXPECT_TRUE(p.remote_node);  // Ray names the node of a worker that is not on the driver's

  // Nested Ray data actor tag, then the engine core's tag.
  p = ParseLine(
      "(MapWorker(MapBatches(vLLMEngineStageUDF)) pid=4385) (EngineCore_DP0 pid=6448) INFO 02-12 "
      "15:00:36 [monitor.py:34] torch.compile takes 2222.52 s in total");
  EXPECT_EQ(p.rank, "EngineCore_DP0");
  EXPECT_EQ(p.message, "torch.compile takes 2222.52 s in total");

  p = ParseLine(
      "(APIServer pid=1) INFO 08-29 04:16:10 [api_server.py:1] vLLM API server version 0.11.0");
  EXPECT_EQ(p.rank, "APIServer");
}

// vLLM's source location is stripped only when it is one: "] " within 160 bytes, no space before
// it, ".py:" inside; a ']' inside it does not end it.
TEST(ParseLine, VllmSourceLocationEdges) {
  EXPECT_EQ(ParseLine("INFO 08-29 04:16:14 [a.py:1] msg").message, "msg");
  EXPECT_EQ(ParseLine("INFO 08-29 04:16:14 [a[0].py:1] msg").message, "msg");
  EXPECT_EQ(ParseLine("INFO 08-29 04:16:14 [a.py:1]").message, "[a.py:1]");  // no space after
  EXPECT_EQ(ParseLine("INFO 08-29 04:16:14 [a b.py:1] msg").message, "[a b.py:1] msg");
  EXPECT_EQ(ParseLine("INFO 08-29 04:16:14 [a.txt:1] msg").message, "[a.txt:1] msg");
  EXPECT_EQ(ParseLine("INFO 08-29 04:16:14 [a.py] x.py:1] msg").message, "[a.py] x.py:1] msg");
  const std::string far(170, 'x');
  EXPECT_EQ(ParseLine("INFO 08-29 04:16:14 [" + far + ".py:1] m").message, "[" + far + ".py:1] m");
  const std::string near(150, 'x');
  EXPECT_EQ(ParseLine("INFO 08-29 04:16:14 [" + near + ".py:1] m").message, "m");
}

TEST(ParseLine, JournalctlShortAndIso) {
  auto p = ParseLine(
      "Mar 09 12:01:49 gpu-host sglang[2957]: [2026-03-09 12:01:49 TP1] Load weight begin.");
  EXPECT_EQ(p.message, "Load weight begin.");
  EXPECT_EQ(p.rank, "TP1");
  ASSERT_TRUE(p.wrapper_time);
  EXPECT_EQ(p.wrapper_time->month, 3);
  EXPECT_EQ(p.wrapper_time->year, 0);

  p = ParseLine("Mar  9 12:01:49 gpu-host vllm[2957]: INFO 03-09 12:01:49 [x.py:1] hello");
  EXPECT_EQ(p.message, "hello");

  p = ParseLine("2026-03-09T12:01:49+0000 gpu-host vllm[2957]: INFO 03-09 12:01:49 [x.py:1] hello");
  EXPECT_EQ(p.message, "hello");
  ASSERT_TRUE(p.wrapper_time);
  EXPECT_EQ(p.wrapper_time->year, 2026);
}

TEST(ParseLine, DockerKubectlComposeWrappers) {
  auto p = ParseLine(
      "2026-03-09T12:01:49.123456789Z INFO 03-09 12:01:49 [x.py:1] Loading model from scratch...");
  EXPECT_EQ(p.message, "Loading model from scratch...");
  ASSERT_TRUE(p.wrapper_time);
  EXPECT_EQ(p.wrapper_time->year, 2026);
  ASSERT_TRUE(p.time);
  EXPECT_EQ(p.time->month, 3);

  // A runtime's Z time before a message shaped like journalctl's "host unit: ": the message.
  p = ParseLine("2026-03-09T12:01:49.123456789Z vllm serve: error: unrecognized arguments: --x");
  EXPECT_EQ(p.message, "vllm serve: error: unrecognized arguments: --x");
  EXPECT_TRUE(p.wrapper_ident.empty());

  p = ParseLine("[pod/sglang-0/server] [2026-03-09 12:01:53 TP0] Init torch distributed begin.");
  EXPECT_EQ(p.message, "Init torch distributed begin.");
  EXPECT_EQ(p.rank, "TP0");

  p = ParseLine("[pod/sglang-0/server] 2026-03-09T12:01:53.000000000Z [2026-03-09 12:01:53 TP3] x");
  EXPECT_EQ(p.message, "x");
  EXPECT_EQ(p.rank, "TP3");

  p = ParseLine("[sglang]     | [2026-06-24 11:50:37] Load weight end. elapsed=4.58 s");
  EXPECT_EQ(p.message, "Load weight end. elapsed=4.58 s");

  p = ParseLine("vllm-1  | INFO 03-09 12:01:49 [x.py:1] hi");
  EXPECT_EQ(p.message, "hi");

  // A tqdm bar is not a compose prefix.
  p = ParseLine("Capturing batches (bs=1 avail_mem=37.08 GB): 100%|#####| 52/52");
  EXPECT_EQ(p.message, "Capturing batches (bs=1 avail_mem=37.08 GB): 100%|#####| 52/52");
}

TEST(ParseLine, TgiTrtllmAndPythonLogging) {
  auto p = ParseLine(
      "2023-11-29T05:27:54.565434Z  INFO shard-manager: text_generation_launcher: Starting shard "
      "rank=0");
  EXPECT_EQ(p.message, "Starting shard rank=0");
  EXPECT_EQ(p.style, PrefixStyle::kTgi);
  p = ParseLine("[TensorRT-LLM][INFO] Allocate 7616856064 bytes for k/v cache.");
  EXPECT_EQ(p.message, "Allocate 7616856064 bytes for k/v cache.");
  EXPECT_EQ(p.style, PrefixStyle::kTrtllm);
  p = ParseLine("2025-03-03 18:46:45,039 - INFO - flashinfer.jit: Loading JIT ops: x");
  EXPECT_EQ(p.message, "flashinfer.jit: Loading JIT ops: x");
  ASSERT_TRUE(p.time);
  EXPECT_EQ(p.time->millis, 39);
  // The logger's name first, then its level; an application relaying the engine's lines keeps
  // their prefix, which names the rank.
  p = ParseLine("2025-08-12 09:13:58,611 - model_server.proc - WARNING - low disk");
  EXPECT_EQ(p.message, "low disk");
  EXPECT_EQ(p.level, "WARNING");
  p = ParseLine(
      "2025-08-12 09:13:58,611 - model_server.proc - INFO - [sglang] [2025-08-12 09:13:57 TP3] "
      "Load weight begin.");
  EXPECT_EQ(p.message, "Load weight begin.");
  EXPECT_EQ(p.rank, "TP3");
  ASSERT_TRUE(p.time);
  EXPECT_EQ(p.time->second, 57);
}

TEST(CleanLine, StripsAnsiCrAndRepairsUtf8) {
  std::string scratch;
  EXPECT_EQ(CleanLine("plain\r", &scratch), "plain");
  EXPECT_EQ(CleanLine("\x1b[36m(Worker_TP0 pid=1)\x1b[0m INFO", &scratch),
            "(Worker_TP0 pid=1) INFO");
  EXPECT_EQ(CleanLine("a\x1b]0;title\x07"
                      "b",
                      &scratch),
            "ab");
  EXPECT_EQ(CleanLine("bad \xff\xfe byte", &scratch), "bad \xef\xbf\xbd\xef\xbf\xbd byte");
  EXPECT_EQ(CleanLine("ok \xe2\x96\x88 block", &scratch), "ok \xe2\x96\x88 block");
  EXPECT_EQ(CleanLine("cut \xe2\x96", &scratch), "cut \xef\xbf\xbd\xef\xbf\xbd");
  EXPECT_EQ(CleanLine("\x1b[", &scratch), "");
}

// A caller that saw no '[' in the line skips the search for colour codes that lost their ESC:
// the answer is the same as with the search.
TEST(CleanLine, NoBracketHintGivesTheSameLine) {
  std::string a, b;
  for (std::string_view line : {"plain text  \r", "INFO 08-29 04:16:14 api.py:206] up", "",
                                "0m 1;36m only params", "tail \t "}) {
    EXPECT_EQ(CleanLine(line, &a, true, true), CleanLine(line, &b)) << line;
    EXPECT_EQ(CleanLine(line, &a, false, true), CleanLine(line, &b)) << line;
  }
  // Without it the remnants go (the hint is only for lines that hold no '[').
  EXPECT_EQ(CleanLine("[2mx[0m", &a), "x");
}

TEST(CleanLine, FindsEscapesAndHighBytesAtEveryOffset) {
  // The clean-line check reads 16 or 8 bytes at a time plus a tail: put the byte in every
  // position.
  std::string scratch;
  for (size_t len : {1u, 7u, 8u, 9u, 15u, 16u, 17u, 23u, 31u, 32u, 33u, 40u}) {
    for (size_t k = 0; k < len; ++k) {
      std::string plain(len, 'a');
      std::string esc = plain.substr(0, k) + "\x1b[31m" + plain.substr(k);
      EXPECT_EQ(CleanLine(esc, &scratch), plain) << len << " " << k;
      std::string high = plain;
      high[k] = '\xff';
      std::string want = plain.substr(0, k) + "\xef\xbf\xbd" + plain.substr(k + 1);
      EXPECT_EQ(CleanLine(high, &scratch), want) << len << " " << k;
      EXPECT_EQ(CleanLine(plain, &scratch).data(), plain.data());  // untouched: no copy
      // Valid UTF-8 (a bar glyph) is untouched too, and is not copied; a stray byte after it
      // is still replaced.
      const std::string glyph = plain.substr(0, k) + "\xe2\x96\x88" + plain.substr(k);
      EXPECT_EQ(CleanLine(glyph, &scratch).data(), glyph.data()) << len << " " << k;
      EXPECT_EQ(CleanLine(glyph + "\x80", &scratch), glyph + "\xef\xbf\xbd") << len << " " << k;
      EXPECT_EQ(CleanLine(glyph + "\x1b[0m", &scratch), glyph) << len << " " << k;
    }
  }
}

TEST(ParseTqdm, BothBarStyles) {
  auto b =
      ParseTqdm("Multi-thread loading shards:  45% Completed | 18/39 [01:40<08:39,  9.27s/it]");
  ASSERT_TRUE(b);
  EXPECT_EQ(b->bar, "Multi-thread loading shards");
  EXPECT_EQ(b->n, 18);
  EXPECT_EQ(b->total, 39);
  ASSERT_TRUE(b->elapsed_s);
  EXPECT_DOUBLE_EQ(*b->elapsed_s, 100);

  b = ParseTqdm("Capturing batches (bs=24 avail_mem=4.00 GB):  14%|#4        | 1/7 [00:01<00:06]");
  ASSERT_TRUE(b);
  EXPECT_EQ(b->bar, "Capturing batches");
  EXPECT_EQ(b->n, 1);
  EXPECT_EQ(b->total, 7);

  b = ParseTqdm(
      "Loading safetensors checkpoint shards: 100% Completed | 163/163 [1:09:28<00:00, 26.68s/it]");
  ASSERT_TRUE(b);
  EXPECT_DOUBLE_EQ(*b->elapsed_s, 4168);

  b = ParseTqdm("  0%|          | 0/23 [00:00<?, ?it/s][2025-03-03 18:46:44 TP3] Capture");
  ASSERT_TRUE(b);
  EXPECT_EQ(b->bar, "");
  EXPECT_EQ(b->total, 23);
  EXPECT_EQ(
      std::string_view("  0%|          | 0/23 [00:00<?, ?it/s][2025-03-03 18:46:44 TP3] Capture")
          .substr(b->end, 1),
      "[");

  b = ParseTqdm("InstantTensor: 10%|#| 13.3G/155G [00:10<01:40]");
  ASSERT_TRUE(b);
  EXPECT_EQ(b->n, 13300000000);
  EXPECT_FALSE(ParseTqdm("mem usage=45% of something"));
  EXPECT_FALSE(ParseTqdm("100%"));
}

// A bar whose glyphs were dropped on the way (only "NN% n/total [timing]" is left) is still a bar;
// without tqdm's timing block "NN% n/total" is a message's words.
TEST(ParseTqdm, BarWithoutGlyphs) {
  auto b = ParseTqdm("Loading weights concurrently:  40% 18/45 [00:01<00:00, 35.06it/s]");
  ASSERT_TRUE(b);
  EXPECT_EQ(b->bar, "Loading weights concurrently");
  EXPECT_EQ(b->n, 18);
  EXPECT_EQ(b->total, 45);
  ASSERT_TRUE(b->elapsed_s);
  EXPECT_DOUBLE_EQ(*b->elapsed_s, 1);
  b = ParseTqdm("util 90% 2 GPUs; Loading weights concurrently: 100% 45/45 [00:02<00:00]");
  ASSERT_TRUE(b);
  EXPECT_EQ(b->n, 45);
  EXPECT_FALSE(ParseTqdm("checked 40% 18/45 files"));
  EXPECT_FALSE(ParseTqdm("Loading weights concurrently:  40% 18/45"));
}

TEST(CanonicalRank, JoinsAndCleans) {
  EXPECT_EQ(CanonicalRank("DP0 TP2 EP0"), "DP0_TP2_EP0");
  EXPECT_EQ(CanonicalRank("Worker_TP1"), "Worker_TP1");
  EXPECT_EQ(CanonicalRank("a\"b<c>"), "abc");
  EXPECT_EQ(CanonicalRank("ServeReplica:default:VLLMDeployment"),
            "ServeReplica:default:VLLMDeployment");
  EXPECT_LE(CanonicalRank(std::string(500, 'x')).size(), 64u);
}

}  // namespace
}  // namespace spinup

namespace spinup {
namespace {

// TensorRT-LLM's Python logger (trtllm-serve): time, "[TRT-LLM]", maybe a rank, a one-letter level.
TEST(ParseLineTrtllm, PythonLoggerPrefix) {
  ParsedLine p =
      ParseLine("[12/20/2025-04:21:37] [TRT-LLM] [I] Creating CUDA graph instances for 11");
  EXPECT_EQ(p.style, PrefixStyle::kTrtllm);
  EXPECT_EQ(p.level, "I");
  ASSERT_TRUE(p.time.has_value());
  EXPECT_EQ(p.time->year, 2025);
  EXPECT_EQ(p.time->month, 12);
  EXPECT_EQ(p.time->minute, 21);
  EXPECT_EQ(p.message, "Creating CUDA graph instances for 11");
  ParsedLine r = ParseLine("[TRT-LLM] [RANK 3] [E] Executor creation failed");
  EXPECT_EQ(r.style, PrefixStyle::kTrtllm);
  EXPECT_EQ(r.rank, "rank3");
  EXPECT_EQ(r.message, "Executor creation failed");
  // A bracketed date that is not followed by the tag is not TensorRT-LLM's.
  ParsedLine other = ParseLine("[12/20/2025-04:21:37] something else");
  EXPECT_NE(other.style, PrefixStyle::kTrtllm);
}

// TGI's router and client crates log through their own tracing targets and source locations.
TEST(ParseLineTgi, RouterAndClientTargetsAreStripped) {
  ParsedLine p = ParseLine(
      "2024-05-01T01:00:22.1Z  INFO text_generation_router::server: router/src/server.rs:1597: "
      "Warming up model");
  EXPECT_EQ(p.style, PrefixStyle::kTgi);
  EXPECT_EQ(p.message, "Warming up model");
  ParsedLine c = ParseLine(
      "2024-05-01T01:00:25.1Z ERROR warmup{max_input_length=4095}:warmup: text_generation_client: "
      "router/client/src/lib.rs:33: Server error: out of memory");
  EXPECT_EQ(c.level, "ERROR");
  EXPECT_EQ(c.message, "Server error: out of memory");
  ParsedLine l = ParseLine(
      "2024-05-01T01:00:01.1Z  INFO shard-manager: text_generation_launcher: "
      "Starting shard rank=0");
  EXPECT_EQ(l.message, "Starting shard rank=0");
  EXPECT_FALSE(p.client_request);
  EXPECT_FALSE(c.client_request);  // the router's own warm-up is not a client's request
  ParsedLine r = ParseLine(
      "2024-05-01T01:01:10.1Z ERROR chat_completions{total_time=\"2ms\"}:generate_stream{}: "
      "text_generation_router::server: router/src/server.rs:1200: Input validation error: x");
  EXPECT_TRUE(r.client_request);
  EXPECT_EQ(r.message, "Input validation error: x");
  // The launcher's span name alone, its target cut.
  ParsedLine d = ParseLine(
      "2024-10-08T03:21:51.602118Z  INFO download: Successfully downloaded weights for m");
  EXPECT_EQ(d.style, PrefixStyle::kTgi);
  EXPECT_EQ(d.message, "Successfully downloaded weights for m");
  EXPECT_EQ(ParseLine("INFO shard-manager: Waiting for shard to be ready... rank=1").rank,
            "shard1");
}

}  // namespace
}  // namespace spinup

namespace spinup {
namespace {

// vLLM 0.8-0.9 put the worker's rank between its name and its pid.
TEST(ParseLineVllmTags, WorkerRankBeforePid) {
  ParsedLine p = ParseLine(
      "(VllmWorker rank=1 pid=31) INFO 08-20 10:00:01 [gpu_model_runner.py:1] Starting to load");
  EXPECT_EQ(p.style, PrefixStyle::kVllm);
  EXPECT_EQ(p.rank, "Worker_rank1");
  EXPECT_EQ(p.message, "Starting to load");
}

}  // namespace
}  // namespace spinup

namespace spinup {
namespace {

// A bracketed time followed by "LEVEL file.py:N:" is a Python logger, not SGLang (which prints
// neither a level nor a source file).
TEST(ParseLinePython, BracketedTimeWithLevelAndSourceIsNotSglang) {
  ParsedLine p = ParseLine(
      "[2025-09-15 02:22:37] WARNING quantization.py:1680: w1_weight_scale_2 != w3_weight_scale_2");
  EXPECT_EQ(p.style, PrefixStyle::kPython);
  EXPECT_EQ(p.level, "WARNING");
  EXPECT_EQ(p.message, "w1_weight_scale_2 != w3_weight_scale_2");
  ASSERT_TRUE(p.time.has_value());
  EXPECT_EQ(p.time->second, 37);
  ParsedLine s = ParseLine("[2025-09-15 02:22:37 TP0] Load weight begin. avail mem=70 GB");
  EXPECT_EQ(s.style, PrefixStyle::kSglang);
  ParsedLine t = ParseLine("[2025-09-15 02:22:37] INFO something happened: yes");
  EXPECT_EQ(t.style, PrefixStyle::kSglang);  // no source file: still SGLang's main process
}

}  // namespace
TEST(ParseLine, PlainAsctimeLevelPrefix) {
  // "%(asctime)s %(levelname)s %(message)s" and supervisord's own lines.
  ParsedLine p =
      ParseLine("2025-08-20 10:01:00,100 WARN exited: vllm (exit status 1; not expected)");
  EXPECT_EQ(p.style, PrefixStyle::kPython);
  EXPECT_EQ(p.level, "WARN");
  ASSERT_TRUE(p.time.has_value());
  EXPECT_EQ(p.time->minute, 1);
  EXPECT_EQ(p.message, "exited: vllm (exit status 1; not expected)");
  EXPECT_EQ(ParseLine("2025-08-20 10:01:00,100 CRIT Supervisor running as root").level, "CRIT");
  // A date followed by a word that is no level is a stamp put before the line (a log shipper's,
  // `ts`): the line's time, and its message is what follows.
  ParsedLine q = ParseLine("2025-08-20 10:01:00,100 spawned: 'vllm' with pid 42");
  EXPECT_EQ(q.message, "spawned: 'vllm' with pid 42");
  ASSERT_TRUE(q.time.has_value());
  EXPECT_EQ(q.time->second, 0);
}

TEST(ParseLine, LabelBeforeATracebackIsSkipped) {
  // A traceback's lines have no prefix of their own to find behind a host's label: their shapes
  // are enough, so the label is learned from them as well.
  ParsedLine p = ParseLine("gpu-node-07: Traceback (most recent call last):");
  EXPECT_EQ(p.message, "Traceback (most recent call last):");
  EXPECT_EQ(p.skipped_prefix, "gpu-node-07: ");
  EXPECT_EQ(ParseLine(" 3:   File \"/x/loader.py\", line 7, in load_model").message,
            "  File \"/x/loader.py\", line 7, in load_model");
  // PyTorch's per-rank label is the rank's; a word that is no label is no prefix.
  p = ParseLine("[rank0]: Traceback (most recent call last):");
  EXPECT_EQ(p.message, "Traceback (most recent call last):");
  EXPECT_EQ(p.rank, "rank0");
  EXPECT_TRUE(p.skipped_prefix.empty());
  EXPECT_EQ(ParseLine("[rank12]:   File \"/x/loader.py\", line 7, in load_model").message,
            "  File \"/x/loader.py\", line 7, in load_model");
  EXPECT_EQ(ParseLine("[rank0]: KeyError: foo").message, "KeyError: foo");
  EXPECT_EQ(ParseLine("[rankX]: KeyError: foo").message, "[rankX]: KeyError: foo");
  EXPECT_EQ(ParseLine("see File \"x\"").message, "see File \"x\"");
}

TEST(ParseLine, ShipperTimeBeforeTheLine) {
  // A tab after the stamp, the engine's own prefix behind it: one clock (the stamp's), the
  // engine's level and message.
  ParsedLine p = ParseLine(
      "2025-09-22 10:00:01.123\tINFO 08-20 10:00:00 [api_server.py:1] vLLM API server version "
      "0.8.4");
  ASSERT_TRUE(p.time.has_value());
  EXPECT_EQ(p.time->month, 9);
  EXPECT_EQ(p.level, "INFO");
  EXPECT_EQ(p.message, "vLLM API server version 0.8.4");
  // A traceback's tail behind it, start-anchored rules see its first byte.
  EXPECT_EQ(ParseLine("2025-09-22 10:00:01 vllm serve: error: argument -tp").message,
            "vllm serve: error: argument -tp");
  // A stamp and nothing after it is a clock reading (date's output pasted after a log); a date
  // with no clock is no stamp.
  EXPECT_TRUE(ParseLine("2025-09-22 10:00:01.123   ").time.has_value());
  EXPECT_EQ(ParseLine("2025-09-22 is the day").message, "2025-09-22 is the day");
}

}  // namespace spinup

namespace spinup {
namespace {

// TensorRT-LLM's rank tags across its loggers and versions.
TEST(ParseLineTrtllm, RankTagsAcrossLoggers) {
  ParsedLine old_py =
      ParseLine("[05/01/2024-01:00:00] [TRT-LLM] [MPI_Rank 1] [I] Loading engine from /e");
  EXPECT_EQ(old_py.style, PrefixStyle::kTrtllm);
  EXPECT_EQ(old_py.rank, "rank1");
  EXPECT_EQ(old_py.level, "I");
  EXPECT_EQ(old_py.message, "Loading engine from /e");
  ParsedLine cpp_rank = ParseLine("[TensorRT-LLM][INFO][2] Loaded engine size: 8745 MiB");
  EXPECT_EQ(cpp_rank.rank, "rank2");
  EXPECT_EQ(cpp_rank.message, "Loaded engine size: 8745 MiB");
  ParsedLine cpp_iter = ParseLine("[TensorRT-LLM][INFO] [RANK 0] iter = 5, host_step_time = 1ms");
  EXPECT_EQ(cpp_iter.rank, "rank0");
  EXPECT_EQ(cpp_iter.message, "iter = 5, host_step_time = 1ms");
  ParsedLine plain = ParseLine("[TensorRT-LLM][ERROR] [json.exception] [1] not a rank");
  EXPECT_EQ(plain.level, "ERROR");
  EXPECT_EQ(plain.rank, "");
  EXPECT_EQ(plain.message, "[json.exception] [1] not a rank");
  // TensorRT's own logger beside TensorRT-LLM's.
  ParsedLine trt =
      ParseLine("[05/01/2024-01:00:09] [TRT] [E] 4: [runtime.cpp::x::65] Error Code 4");
  EXPECT_EQ(trt.style, PrefixStyle::kTrtllm);
  EXPECT_EQ(trt.level, "E");
  EXPECT_EQ(trt.message, "4: [runtime.cpp::x::65] Error Code 4");
}

// The C++ runtime's 2026 prefix: local time with microseconds, "[TRT-LLM]", level, maybe a rank.
TEST(ParseLineTrtllm, CppLoggerWithTime) {
  ParsedLine p =
      ParseLine("05-01-2026 01:00:05.100000 [TRT-LLM] [I] [0] Number of tokens per block: 32.");
  EXPECT_EQ(p.style, PrefixStyle::kTrtllm);
  EXPECT_EQ(p.level, "I");
  EXPECT_EQ(p.rank, "rank0");
  EXPECT_EQ(p.message, "Number of tokens per block: 32.");
  ASSERT_TRUE(p.time.has_value());
  EXPECT_EQ(p.time->year, 2026);
  EXPECT_EQ(p.time->second, 5);
  ParsedLine q = ParseLine("05-01-2026 01:00:05.100000 [TRT-LLM] [E] out of memory");
  EXPECT_EQ(q.level, "E");
  EXPECT_EQ(q.rank, "");
  EXPECT_EQ(q.message, "out of memory");
  // Not the prefix: a date without the tag.
  EXPECT_NE(ParseLine("05-01-2026 01:00:05.1 something").style, PrefixStyle::kTrtllm);
}

}  // namespace
}  // namespace spinup

namespace spinup {
namespace {

// Every cut of the new prefixes parses without reading past the line (untrusted, truncated input).
TEST(ParseLineTrtllm, TruncatedPrefixesAreSafe) {
  for (std::string_view line : {
           "05-01-2026 01:00:05.100000 [TRT-LLM] [I] [0] Number of tokens per block: 32.",
           "E0501 01:00:40.245480 100348 model_lifecycle.cc:642] failed to load 'x'",
           "[TensorRT-LLM][INFO] [RANK 12] iter = 5",
           "[05/01/2024-01:00:00] [TRT-LLM] [MPI_Rank 1] [I] Loading engine",
           "[05/01/2024-01:00:09] [TRT] [E] 4: [runtime.cpp::x::65] Error Code 4",
           "[1,12]<stderr>:[TensorRT-LLM][INFO][3] Loaded engine size: 1 MiB",
       }) {
    for (size_t n = 0; n <= line.size(); ++n) {
      ParsedLine p = ParseLine(line.substr(0, n));
      EXPECT_LE(p.message.size(), n);
    }
  }
}

}  // namespace
}  // namespace spinup
