// glog's line prefix (Triton) and PyTorch's bracketed variant (engine_prefix_glog.cc).
#include <gtest/gtest.h>

#include "logs/line_parser.h"

namespace spinup {
namespace {

// glog (Triton): level letter, MMDD, time, thread id, source file.
TEST(ParseLineGlog, TritonLines) {
  ParsedLine p = ParseLine(
      "E0501 01:00:40.245480 100348 model_lifecycle.cc:642] failed to load 'tensorrt_llm' "
      "version 1: Internal: x");
  EXPECT_EQ(p.style, PrefixStyle::kGlog);
  EXPECT_EQ(p.level, "E");
  ASSERT_TRUE(p.time.has_value());
  EXPECT_EQ(p.time->month, 5);
  EXPECT_EQ(p.time->day, 1);
  EXPECT_EQ(p.time->second, 40);
  EXPECT_EQ(p.message, "failed to load 'tensorrt_llm' version 1: Internal: x");
  ParsedLine i = ParseLine("I1220 01:42:16.245480 100348 python_be.cc:2199] Started");
  EXPECT_EQ(i.level, "I");
  EXPECT_EQ(i.message, "Started");
  // Words that merely start like it are left alone.
  EXPECT_EQ(ParseLine("I0501 is not a log line at all, friend").style, PrefixStyle::kNone);
  EXPECT_EQ(ParseLine("E1234 01:00:00.1 abc def.cc:x] msg").style, PrefixStyle::kNone);
}

// PyTorch's compiler logs through the same prefix: its source file stays in the message, as it is
// what says the line is the compiler's (a compile running inside another phase).
TEST(ParseLineGlog, PyTorchCompilerKeepsItsSourceFile) {
  ParsedLine p = ParseLine(
      "W0318 16:21:09.841000 229 torch/_inductor/utils.py:1137] [0/0] Not enough SMs to use "
      "max_autotune_gemm mode");
  EXPECT_EQ(p.style, PrefixStyle::kGlog);
  EXPECT_EQ(p.level, "W");
  EXPECT_EQ(p.message,
            "torch/_inductor/utils.py:1137] [0/0] Not enough SMs to use max_autotune_gemm mode");
  ParsedLine b = ParseLine("[I0318 16:21:09.841000 229 torch/_dynamo/convert_frame.py:9] [0/0] x");
  EXPECT_EQ(b.message, "torch/_dynamo/convert_frame.py:9] [0/0] x");
  // Any other source file is the prefix's.
  EXPECT_EQ(ParseLine("W0318 16:21:09.841000 229 torch/distributed/run.py:792] y").message, "y");
}

// PyTorch's C++ prefix in brackets (c10d, ProcessGroupNCCL), with or without the thread id, and
// after torchrun's rank prefix: its time moves the clock.
TEST(ParseLineGlog, PyTorchBracketedLines) {
  ParsedLine p = ParseLine(
      "[W0109 02:26:52.112000 882 socket.cpp:752] [c10d] The client socket has failed to connect");
  EXPECT_EQ(p.style, PrefixStyle::kGlog);
  EXPECT_EQ(p.level, "W");
  ASSERT_TRUE(p.time.has_value());
  EXPECT_EQ(p.time->month, 1);
  EXPECT_EQ(p.time->day, 9);
  EXPECT_EQ(p.time->minute, 26);
  EXPECT_EQ(p.message, "[c10d] The client socket has failed to connect");
  ParsedLine r =
      ParseLine("[rank0]:[W1009 03:00:55.123624934 ProcessGroupNCCL.cpp:1250] Warning: x");
  EXPECT_EQ(r.rank, "rank0");
  ASSERT_TRUE(r.time.has_value());
  EXPECT_EQ(r.time->hour, 3);
  EXPECT_EQ(r.message, "Warning: x");
  // PyTorch's own logger writes January to September unpadded: April 18.
  ParsedLine u = ParseLine("[W418 10:02:10.118014121 socket.cpp:755] [c10d] The client socket");
  ASSERT_TRUE(u.time.has_value());
  EXPECT_EQ(u.time->month, 4);
  EXPECT_EQ(u.time->day, 18);
  EXPECT_EQ(u.time->minute, 2);
  EXPECT_EQ(u.message, "[c10d] The client socket");
  // A bracket that only starts like it is not one.
  EXPECT_FALSE(ParseLine("[W0109 02:26:52 is a note about socket.cpp:752] x").time.has_value());
}

}  // namespace
}  // namespace spinup
