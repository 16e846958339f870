#include "proc/stall_evidence.h"

#include <gtest/gtest.h>

namespace spinup::proc {
namespace {

constexpr char kDump[] = R"(Process 4242: sglang::scheduler_TP0
Python v3.10.12 (/usr/bin/python3.10)

Thread 4242 (idle): "MainThread"
    all_reduce (torch/distributed/distributed_c10d.py:2050)
    wrapper (torch/distributed/c10d_logger.py:72)
    init_torch_distributed (sglang/srt/model_executor/model_runner.py:300)
    Arguments:
        self: <ModelRunner at 0x7f>
Thread 0x7F12AB (idle): "Thread-1"
    wait (threading.py:320)
)";

TEST(PySpyDump, ThreadsAndFrames) {
  auto threads = ParsePySpyDump(kDump);
  ASSERT_EQ(threads.size(), 2u);
  EXPECT_EQ(threads[0].tid, 4242);
  EXPECT_EQ(threads[0].name, "MainThread");
  EXPECT_EQ(threads[0].status, "idle");
  ASSERT_EQ(threads[0].frames.size(), 3u);  // "Arguments:" and its values are not frames
  EXPECT_EQ(threads[0].frames[0], "all_reduce");
  EXPECT_EQ(threads[1].tid, 0x7F12AB);
  EXPECT_EQ(CollectiveOf(threads), "all-reduce");
  EXPECT_EQ(CollectiveOf(ParsePySpyDump("Thread 1 (idle): \"x\"\n    wait (threading.py:320)\n")),
            "");
  EXPECT_TRUE(ParsePySpyDump("Error: Permission denied (os error 13)\n").empty());
  EXPECT_EQ(ParsePySpyDump(kDump, 1).size(), 1u);
  EXPECT_EQ(ParsePySpyDump(kDump, 8, 1)[0].frames.size(), 1u);
}

TEST(KernelStack, SymbolsWithoutOffsets) {
  auto frames = ParseKernelStack(
      "[<0>] futex_wait_queue+0x60/0x90\n[<0>] futex_wait+0x170/0x260\n[<0>] "
      "do_syscall_64+0x5b/0xc0\n");
  ASSERT_EQ(frames.size(), 3u);
  EXPECT_EQ(frames[0], "futex_wait_queue");
  EXPECT_EQ(frames[2], "do_syscall_64");
  EXPECT_TRUE(ParseKernelStack("").empty());
}

TEST(WaitChannels, CountedMostFirst) {
  auto s = SummarizeWaitChannels({"futex_wait_queue", "do_epoll_wait", "futex_wait_queue", "0"});
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(s[0], (std::pair<std::string, int>{"futex_wait_queue", 2}));
  EXPECT_EQ(s[1].first, "do_epoll_wait");
  EXPECT_EQ(s[2].first, "running");
}

TEST(RankOfProcess, FromTitleOrComm) {
  EXPECT_EQ(RankOfProcess("sglang::scheduler_TP2", "sglang::schedul"), "TP2");
  EXPECT_EQ(RankOfProcess("sglang::scheduler_DP1_TP3 --x", ""), "DP1_TP3");
  EXPECT_EQ(RankOfProcess("python3 -m vllm", "VllmWorker TP0"), "TP0");
  EXPECT_EQ(RankOfProcess("python3 -m sglang.launch_server --tp 8", "python3"), "");
  EXPECT_EQ(RankOfProcess("HTTP", "TPx"), "");
}

std::vector<RankPhase> Ranks(std::initializer_list<std::pair<const char*, Phase>> list) {
  std::vector<RankPhase> out;
  for (const auto& [r, p] : list) out.push_back({r, p, std::nullopt});
  return out;
}

TEST(BehindSentence, NamesTheRankThatHasNotLeft) {
  auto ranks = Ranks({{"TP0", Phase::kWeightLoad},
                      {"TP1", Phase::kWeightLoad},
                      {"TP2", Phase::kDistributedInit},
                      {"TP3", Phase::kWeightLoad}});
  EXPECT_EQ(
      BehindSentence(ranks, {{"TP0", "all-reduce"}, {"TP1", "all-reduce"}, {"TP3", "all-reduce"}}),
      "TP2 has not left distributed_init; TP0, TP1, TP3 are waiting in all-reduce");
  EXPECT_EQ(BehindSentence(ranks, {}),
            "TP2 has not left distributed_init; TP0, TP1, TP3 are in weight_load");
  ranks[3].phase = Phase::kKvCache;
  EXPECT_EQ(BehindSentence(ranks, {{"TP0", "all-reduce"}}),
            "TP2 has not left distributed_init; TP0, TP1 are in weight_load, TP3 is in kv_cache");
  auto same = Ranks({{"TP0", Phase::kDistributedInit}, {"TP1", Phase::kDistributedInit}});
  EXPECT_EQ(BehindSentence(same, {}),
            "all 2 ranks are in distributed_init; none is behind the others");
  EXPECT_EQ(BehindSentence(same, {{"TP0", "barrier"}, {"TP1", "barrier"}}),
            "all 2 ranks are in distributed_init; none is behind the others, all waiting in "
            "barrier");
  auto two_behind =
      Ranks({{"TP0", Phase::kCudaGraph}, {"TP1", Phase::kKvCache}, {"TP2", Phase::kKvCache}});
  EXPECT_EQ(BehindSentence(two_behind, {}),
            "TP1, TP2 have not left kv_cache; TP0 is in cuda_graph");
  EXPECT_EQ(BehindSentence({}, {}), "");
  EXPECT_EQ(BehindSentence(Ranks({{"", Phase::kLaunch}}), {}), "");
}

}  // namespace
}  // namespace spinup::proc
