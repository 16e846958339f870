// Engine prefixes a paste left without their times: still that engine's lines (engine_prefix.cc).
#include "logs/engine_prefix.h"

#include <gtest/gtest.h>

#include "logs/line_parser.h"

namespace spinup {
namespace {

// A paste that cut the times out keeps vLLM's level and source location, and TGI's level and
// crate: each is still that engine's line, with its message and no time.
TEST(ParseLineTimesCut, VllmAndTgiPrefixesWithoutTheirTimes) {
  ParsedLine p = ParseLine("INFO [gpu_model_runner.py:1] Starting to load model m...");
  EXPECT_EQ(p.style, PrefixStyle::kVllm);
  EXPECT_EQ(p.level, "INFO");
  EXPECT_FALSE(p.time);
  EXPECT_EQ(p.message, "Starting to load model m...");
  p = ParseLine("(VllmWorker TP1 pid=31) ERROR model_runner.py:1056] Failed: x");
  EXPECT_EQ(p.style, PrefixStyle::kVllm);
  EXPECT_EQ(p.level, "ERROR");
  EXPECT_EQ(p.message, "Failed: x");
  p = ParseLine(
      "WARN shard-manager: text_generation_launcher: Waiting for shard to be ready... rank=1");
  EXPECT_EQ(p.style, PrefixStyle::kTgi);
  EXPECT_EQ(p.rank, "shard1");
  EXPECT_EQ(p.message, "Waiting for shard to be ready... rank=1");
  p = ParseLine("INFO chat_completions{total_time=\"1ms\"}: text_generation_router::server: ok");
  EXPECT_EQ(p.style, PrefixStyle::kTgi);
  EXPECT_TRUE(p.client_request);
  EXPECT_EQ(p.message, "ok");
  p = ParseLine("[ TP3] Load weight begin. avail mem=78.00 GB");
  EXPECT_EQ(p.style, PrefixStyle::kSglang);
  EXPECT_EQ(p.rank, "TP3");
  EXPECT_EQ(p.message, "Load weight begin. avail mem=78.00 GB");
  p = ParseLine("[DP0 TP2 EP0] Init torch distributed begin.");
  EXPECT_EQ(p.style, PrefixStyle::kSglang);
  EXPECT_EQ(p.message, "Init torch distributed begin.");
  // A bracket that holds no tags ("[E]", "[RANK 0]" alone) is not SGLang's.
  EXPECT_EQ(ParseLine("[RANK 0] hello").style, PrefixStyle::kNone);
  // A sentence that starts with a level word has neither a source location nor a crate.
  p = ParseLine("ERROR while loading model: the file config.py: 12 is missing");
  EXPECT_EQ(p.style, PrefixStyle::kNone);
  EXPECT_EQ(p.message, "ERROR while loading model: the file config.py: 12 is missing");
}

// A level ends vLLM's and TGI's prefix; TensorRT-LLM's C++ runtime prints its prefix twice on
// assertions, and both go.
TEST(ParseLineTimesCut, ATrtllmPrefixPrintedTwiceIsReadTwice) {
  ParsedLine p = ParseLine("[TensorRT-LLM][ERROR] [TensorRT-LLM][ERROR] Assertion failed: x");
  EXPECT_EQ(p.style, PrefixStyle::kTrtllm);
  EXPECT_EQ(p.message, "Assertion failed: x");
  p = ParseLine("INFO [loader.py:1] [TensorRT-LLM][ERROR] quoted");
  EXPECT_EQ(p.style, PrefixStyle::kVllm);
  EXPECT_EQ(p.message, "[TensorRT-LLM][ERROR] quoted");
}

}  // namespace
}  // namespace spinup
