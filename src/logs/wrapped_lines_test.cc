#include "logs/wrapped_lines.h"

#include <gtest/gtest.h>

#include <string>

namespace spinup {
namespace {

constexpr std::string_view kFrame =
    "  File \"/usr/local/lib/python3.12/dist-packages/vllm/v1/worker/gpu_model_runner.py\", "
    "line 1234, in capture_model";

TEST(UnfinishedRecord, WholeLinesAreNotHeld) {
  // A whole frame waits only for the rest of its function's name (see FrameNameRest).
  EXPECT_EQ(UnfinishedRecord(kFrame), Unfinished::kFrameName);
  EXPECT_EQ(UnfinishedRecord("  File \"<frozen importlib._bootstrap>\", line 1050, in <module>"),
            Unfinished::kFrameName);
  EXPECT_EQ(UnfinishedRecord("  File \"x.py\", line 12 in fn"), Unfinished::kFrameName);
  EXPECT_EQ(UnfinishedRecord(R"({"level":"INFO","fields":{"message":"Connected"}})"),
            Unfinished::kNone);
  EXPECT_EQ(UnfinishedRecord("INFO 05-21 06:33:43 [loader.py:12] Loading weights took 3.2 s"),
            Unfinished::kNone);
  EXPECT_EQ(UnfinishedRecord(R"(raise ValueError("File \"x\" is missing"))"), Unfinished::kNone);
  EXPECT_EQ(UnfinishedRecord(""), Unfinished::kNone);
}

TEST(UnfinishedRecord, EveryCutOfAFrameIsUnfinished) {
  // Cut anywhere after `File "` and before the function's name: inside the path, the number, the
  // words between them.
  for (size_t cut = 8; cut < kFrame.size() - std::string_view("capture_model").size(); ++cut) {
    EXPECT_EQ(UnfinishedRecord(kFrame.substr(0, cut)), Unfinished::kFrame) << cut;
  }
}

TEST(UnfinishedRecord, ACutJsonObjectIsUnfinished) {
  const std::string line =
      R"(2024-05-01T10:00:00Z {"timestamp":"2024-05-01T10:00:00Z","level":"ERROR","fields":)"
      R"({"message":"Shard 0 failed to start"},"target":"text_generation_launcher"})";
  EXPECT_EQ(UnfinishedRecord(line), Unfinished::kNone);
  for (size_t cut : {23u, 40u, 100u, 120u, 150u}) {
    EXPECT_EQ(UnfinishedRecord(std::string_view(line).substr(0, cut)), Unfinished::kJson) << cut;
  }
  // An object too far into the line, or behind a quote, is text about JSON, not a record.
  EXPECT_EQ(UnfinishedRecord(std::string(120, 'x') + R"({"a": [)"), Unfinished::kNone);
  EXPECT_EQ(UnfinishedRecord(R"(config "x" {"a": [)"), Unfinished::kNone);
}

TEST(ContinuesRecord, EveryWrapOfAFrameJoinsBack) {
  for (size_t cut = 8; cut < kFrame.size() - std::string_view("capture_model").size(); ++cut) {
    const std::string_view head = kFrame.substr(0, cut), rest = kFrame.substr(cut);
    if (rest.starts_with("  ")) continue;  // a wrap does not cut there in this frame
    EXPECT_TRUE(ContinuesRecord(head, Unfinished::kFrame, rest)) << cut;
    EXPECT_EQ(UnfinishedRecord(std::string(head) + std::string(rest)), Unfinished::kFrameName);
  }
}

TEST(ContinuesRecord, LinesOfTheirOwnAreNotJoined) {
  const std::string_view syntax_error_frame = "  File \"/srv/app/x.py\", line 12";
  ASSERT_EQ(UnfinishedRecord(syntax_error_frame), Unfinished::kFrame);
  EXPECT_FALSE(ContinuesRecord(syntax_error_frame, Unfinished::kFrame, "    import foo bar"));
  EXPECT_FALSE(ContinuesRecord(syntax_error_frame, Unfinished::kFrame,
                               "ERROR 05-21 06:33:43 [core.py:586]     import foo"));
  EXPECT_FALSE(ContinuesRecord(syntax_error_frame, Unfinished::kFrame, "SyntaxError: bad"));
  const std::string_view cut_path = "  File \"/usr/local/lib/python3.12/dist-pack";
  EXPECT_TRUE(ContinuesRecord(cut_path, Unfinished::kFrame, "ages/vllm/x.py\", line 3, in f"));
  EXPECT_FALSE(ContinuesRecord(cut_path, Unfinished::kFrame, "INFO 05-21 06:33:43 Loading"));
  EXPECT_FALSE(ContinuesRecord(cut_path, Unfinished::kFrame, "File \"/a/b.py\", line 1, in f"));
  EXPECT_FALSE(ContinuesRecord(cut_path, Unfinished::kFrame, ""));
  EXPECT_FALSE(ContinuesRecord(kFrame, Unfinished::kNone, "x"));
}

TEST(ContinuesRecord, FrameNameRest) {
  const std::string_view cut_in_name = "  File \"/a/py_executor_creator.py\", line 500, in cre";
  ASSERT_EQ(UnfinishedRecord(cut_in_name), Unfinished::kFrameName);
  EXPECT_TRUE(ContinuesRecord(cut_in_name, Unfinished::kFrameName, "ate_py_executor"));
  EXPECT_TRUE(ContinuesRecord(cut_in_name, Unfinished::kFrameName, "_init__"));
  // Code lines, exceptions (even bare ones), new frames and prose are lines of their own.
  EXPECT_FALSE(ContinuesRecord(cut_in_name, Unfinished::kFrameName, "    x = y()"));
  EXPECT_FALSE(ContinuesRecord(cut_in_name, Unfinished::kFrameName, "KeyboardInterrupt"));
  EXPECT_FALSE(ContinuesRecord(cut_in_name, Unfinished::kFrameName, "StopIteration"));
  EXPECT_FALSE(ContinuesRecord(cut_in_name, Unfinished::kFrameName, "ate py executor"));
  EXPECT_FALSE(ContinuesRecord(cut_in_name, Unfinished::kFrameName, "x.y()"));
  EXPECT_FALSE(ContinuesRecord(cut_in_name, Unfinished::kFrameName, std::string(80, 'a')));
}

TEST(ContinuesRecord, JsonFragmentsJoinUntilTheObjectCloses) {
  const std::string_view head = R"({"timestamp":"2024-05-01T10:00:00Z","level":"INFO","fiel)";
  EXPECT_TRUE(ContinuesRecord(head, Unfinished::kJson, R"(ds":{"message":"Connected"}})"));
  EXPECT_TRUE(ContinuesRecord(head, Unfinished::kJson, " more text"));
  EXPECT_FALSE(ContinuesRecord(head, Unfinished::kJson, R"({"timestamp":"2024-05-01"})"));
  EXPECT_FALSE(ContinuesRecord(head, Unfinished::kJson, R"(  "pretty": "printed")"));
  EXPECT_FALSE(ContinuesRecord(R"({"a":{"b":1)", Unfinished::kJson, "}}}"));  // closes too often
}

TEST(StartsRecord, PrefixesBlocksAndExceptionsStartRecordsFragmentsDoNot) {
  for (std::string_view record :
       {"INFO 05-21 06:33:43 [loader.py:12] Loading weights took 3.2 s",
        "[2026-03-09 12:01:50 TP0] Init torch distributed begin.",
        "(VllmWorker rank=1 pid=31) INFO 08-20 10:00:01 [gpu_model_runner.py:1] Starting",
        "2024-05-01T10:00:00.000000Z  INFO text_generation_launcher: Starting shard",
        "Traceback (most recent call last):", "  File \"x.py\", line 1, in f", "    x = y()",
        "RuntimeError: CUDA error", "KeyboardInterrupt", "| preprocessing | 1 | READY |",
        "+-------+-------+", "\xe2\x94\x82 /x/y.py:12 in load \xe2\x94\x82",
        "Loading safetensors checkpoint shards:  50% Completed | 2/4 [00:10<00:10,  5.0s/it]",
        "{\"timestamp\":\"2024-05-01\"}",
        "> [2026-03-09 12:01:50 TP0] Init torch distributed begin.", "> | Model | Version |",
        "\x1b[32mINFO\x1b[0m 05-21 06:33:43 [core.py:1] x", ""}) {
    EXPECT_TRUE(StartsRecord(record)) << record;
  }
  for (std::string_view fragment : {"ate_py_executor", "on 0.10.1", "le processing method x.",
                                    "ckages/vllm/x.py\", line 3, in f", " sure your triton"}) {
    EXPECT_FALSE(StartsRecord(fragment)) << fragment;
  }
}

}  // namespace
}  // namespace spinup
