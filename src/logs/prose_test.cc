#include "logs/prose.h"

#include <gtest/gtest.h>

namespace spinup {
namespace {

TEST(ProseTest, APersonsSentenceAboutTheLog) {
  EXPECT_TRUE(LooksLikeProse("I saw CUDA out of memory before."));
  EXPECT_TRUE(LooksLikeProse("With --port 8000 I get Address already in use, so I used 8001:"));
  EXPECT_TRUE(LooksLikeProse("Loading the model fails and I get Segmentation fault (core dumped)"));
  EXPECT_TRUE(LooksLikeProse("We're seeing NCCL error: unhandled system error on every start"));
  EXPECT_TRUE(LooksLikeProse("### 🐛 Describe the bug"));
  EXPECT_TRUE(LooksLikeProse("## Your current environment"));
  EXPECT_TRUE(LooksLikeProse("Error I get:"));  // a short label, with a first-person "I"
  // A question to the reader, whatever it names.
  EXPECT_TRUE(
      LooksLikeProse("TGI 2.2.0, 4x A100. Logs are full of NCCL WARN, is it safe to put "
                     "traffic on it?"));
  EXPECT_FALSE(LooksLikeProse("Trust remote code?"));  // too short to be a person's question
  // An exception quoted in markdown's inline code.
  EXPECT_TRUE(LooksLikeProse("Error: `RuntimeError: Engine core initialization failed.`"));
  EXPECT_TRUE(LooksLikeProse("`ValueError: max seq len is larger than the KV cache`"));
  EXPECT_TRUE(LooksLikeProse("Getting `RuntimeError: Engine core initialization failed` on start"));
  // A symptom reported in a word or two above the log.
  EXPECT_TRUE(LooksLikeProse("Getting NCCL error, log:"));
  EXPECT_TRUE(LooksLikeProse("Got a NCCL error"));
  EXPECT_TRUE(LooksLikeProse(
      "(the docs say to reduce them if `No available memory for the cache blocks`)"));
  EXPECT_TRUE(
      LooksLikeProse("(20 minutes later, still no \"The server is fired up and ready to roll!\")"));
  // An error quoted in double quotes inside a sentence.
  EXPECT_TRUE(LooksLikeProse("Weird one, still \"CUDA error: out of memory\". Pod has 48Gi."));
  EXPECT_TRUE(LooksLikeProse("It fails with \"CUDA error: out of memory\"."));
  // An incident timeline's note: a time to the minute, then the writer's words.
  EXPECT_TRUE(LooksLikeProse("14:36 came up on its own, Application startup complete."));
  EXPECT_TRUE(LooksLikeProse("14:02 restarted pod llm-70b-7d9f after node drain"));
}

// A sentence introducing what follows, and an issue's title as GitHub's templates prefix it.
// The engines print English: a sentence in Chinese, Japanese or Korean is a person's, even when
// it quotes the engine's line; a path with a directory in those scripts is not a sentence.
TEST(ProseTest, ASentenceInChineseJapaneseOrKorean) {
  EXPECT_TRUE(LooksLikeProse("就停在 generating GPU P2P access cache 这一行"));
  EXPECT_TRUE(LooksLikeProse("30 分以上止まったまま"));
  EXPECT_TRUE(LooksLikeProse("여기서 멈춤"));
  // An exception whose message introduces the lines after it.
  EXPECT_FALSE(LooksLikeProse("RuntimeError: Version mismatch: The cluster was started with:"));
  EXPECT_FALSE(LooksLikeProse("Loading weights from /mnt/d/模型/Qwen3-8B"));
  EXPECT_FALSE(LooksLikeProse("████ 100%"));
  // A shell's report of its child's death in those locales is the shell's line.
  EXPECT_FALSE(LooksLikeProse("非法指令 (核心已转储)"));
  EXPECT_FALSE(LooksLikeProse("已杀死"));
  EXPECT_FALSE(LooksLikeProse("セグメンテーション違反 (コアダンプ)"));
  EXPECT_TRUE(LooksLikeProse("已杀死进程之后重新启动也不行，还是卡住"));
}

TEST(ProseTest, AnIntroductionOrAnIssueTitle) {
  EXPECT_TRUE(LooksLikeProse("Not a CUDA out of memory issue this time, the GPU is empty:"));
  EXPECT_TRUE(LooksLikeProse("Fixed: the error from my first post went away. Working log:"));
  EXPECT_TRUE(LooksLikeProse("Crash during CUDA graph capture with FP8 KV cache on H20:"));
  EXPECT_TRUE(LooksLikeProse("[Bug]: NCCL error: unhandled cuda error with TP=2"));
  EXPECT_TRUE(
      LooksLikeProse("Update: earlier I got `Initialization failed. warmup error: "
                     "ConnectionRefusedError`. Now it works:"));
  EXPECT_TRUE(LooksLikeProse("[Usage]: server hangs at Init torch distributed begin"));
  // A later note under its label, in lower case after it.
  EXPECT_TRUE(
      LooksLikeProse("Update: adding `--shm-size 1g` to docker run fixed it, shards ready "
                     "in ~90s."));
  EXPECT_TRUE(LooksLikeProse("EDIT: same thing with the 0.9 image"));
  EXPECT_FALSE(LooksLikeProse("Update: 3/4"));  // too short for a sentence
  // A sentence in lower case around a quote in backticks.
  EXPECT_TRUE(
      LooksLikeProse("prefill node for comparison reached `The server is fired up and ready to "
                     "roll!` at 11:23:40."));
  EXPECT_FALSE(LooksLikeProse("export `VLLM_USE_V1=1`"));
  EXPECT_FALSE(
      LooksLikeProse("called `Result::unwrap()` on an `Err` value: Os { code: 98, kind: "
                     "AddrInUse, message: \"Address already in use\" }"));
  EXPECT_FALSE(LooksLikeProse("use `--foo` to set `bar` and more `x"));  // an open quote
  // An exception's name as the title, the writer's sentence after its full stop.
  EXPECT_TRUE(
      LooksLikeProse("RuntimeError: Not enough memory when serving Llama-3.3-70B on 2x A100. I "
                     "set --mem-fraction-static 0.6 because the GPUs are shared."));
  EXPECT_FALSE(LooksLikeProse(
      "RuntimeError: Not enough memory. Please try to increase --mem-fraction-static."));
  EXPECT_FALSE(LooksLikeProse("ValueError: Invalid value. I/O failed for /models/x"));
  // A program's lines that end in a colon: a stack's header, an exception announced.
  EXPECT_FALSE(LooksLikeProse("Current thread 0x00007c15379bc740 (most recent call first):"));
  EXPECT_FALSE(LooksLikeProse("Exception in thread Thread-3 (run) raised while starting:"));
  EXPECT_FALSE(LooksLikeProse(
      "The deployment failed to start 3 times in a row. Retrying after 4 seconds. Error:"));
  EXPECT_FALSE(LooksLikeProse("Loading safetensors checkpoint shards:"));
  EXPECT_FALSE(LooksLikeProse("[TensorRT-LLM][ERROR] Assertion failed: mpiSize == tp * pp"));
}

TEST(ProseTest, AnEnginesBareLinesAreNot) {
  EXPECT_FALSE(
      LooksLikeProse("RuntimeError: CUDA error: an illegal memory access was encountered"));
  EXPECT_FALSE(
      LooksLikeProse("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB"));
  EXPECT_FALSE(
      LooksLikeProse("The above exception was the direct cause of the following exception:"));
  EXPECT_FALSE(
      LooksLikeProse("During handling of the above exception, another exception occurred:"));
  EXPECT_FALSE(LooksLikeProse("Traceback (most recent call last):"));
  EXPECT_FALSE(LooksLikeProse("Error: ShardCannotStart"));
  EXPECT_FALSE(LooksLikeProse("I0501 01:00:00.245480 1 model_lifecycle.cc:818] loaded 'ensemble'"));
  EXPECT_FALSE(LooksLikeProse("Loading safetensors checkpoint shards:  27% Completed | 8/30"));
  EXPECT_FALSE(LooksLikeProse("Segmentation fault (core dumped)"));
  EXPECT_FALSE(LooksLikeProse("(RayWorkerWrapper pid=2211) INFO 07-29 10:03:45 worker started"));
  EXPECT_FALSE(LooksLikeProse("(raylet) [2024-01-01 00:00:00] some worker died unexpectedly"));
  EXPECT_FALSE(
      LooksLikeProse("(raylet, ip=10.1.4.22) 1 Workers (tasks / actors) killed due to "
                     "memory pressure (OOM)"));
  EXPECT_FALSE(LooksLikeProse("#0 0x00007f3a2b1c in ncclCommInitRank () from libnccl.so.2"));
  EXPECT_FALSE(LooksLikeProse("I failed"));  // too short to tell
  EXPECT_FALSE(LooksLikeProse("Got fatal signal from worker processes, shutting down."));
  // A program's quoted name, no error in it.
  EXPECT_FALSE(LooksLikeProse("Exception in thread \"MainThread\" while starting"));
  // Programs put flags and identifiers in backticks.
  EXPECT_FALSE(LooksLikeProse(
      "ValueError: Try increasing `gpu_memory_utilization` or decreasing `max_model_len`"));
  // A program's own prose (OpenMPI's help text) is the log's.
  EXPECT_FALSE(
      LooksLikeProse("It looks like MPI_INIT failed for some reason; your parallel process is"));
  EXPECT_FALSE(LooksLikeProse("This may be caused by your system not having enough shared memory"));
  EXPECT_FALSE(LooksLikeProse(""));
  // Lines that open with a number: a stamp, a count, a bar, a size in a record.
  EXPECT_FALSE(LooksLikeProse("2025-01-09 03:40:11 INFO loading the model now, please wait a bit"));
  EXPECT_FALSE(LooksLikeProse("8 GPUs detected"));
  // Programs stamp to the second.
  EXPECT_FALSE(LooksLikeProse("14:02:11 loading the model weights now"));
  EXPECT_FALSE(LooksLikeProse("100%|##########| 35/35 [00:19<00:00, 1.81it/s]"));
  EXPECT_FALSE(LooksLikeProse("70B model: weights take 140 GB on each of the ranks"));
}

// A sentence that opens with the model's size or the GPUs' count.
TEST(ProseTest, ASentenceOpeningWithTheModelsSize) {
  EXPECT_TRUE(LooksLikeProse(
      "405B FP8 on 8xH100 hangs during CUDA graph capture at 25/35, every time, same shape."));
  EXPECT_TRUE(LooksLikeProse("8x A100 box, the start hangs after loading the weights."));
  EXPECT_FALSE(LooksLikeProse("405B hangs"));  // too short to tell
  // A count, then the writer's sentence quoting a command.
  EXPECT_TRUE(
      LooksLikeProse("135 bytes each. the ansible role did `git clone` of the HF repo, so "
                     "these are LFS pointer files."));
  EXPECT_FALSE(LooksLikeProse("0 errors in `x` when [rank0] said so"));
  EXPECT_FALSE(LooksLikeProse("2025-01-02 10:00:00 INFO loading `model` from disk now"));
}

TEST(ProseTest, ALineNamingItsException) {
  EXPECT_TRUE(NamesAnException("RuntimeError: NCCL error: unhandled system error"));
  EXPECT_TRUE(NamesAnException("[TP0] torch.OutOfMemoryError: CUDA out of memory"));
  EXPECT_TRUE(NamesAnException("Error: ShardCannotStart"));
  EXPECT_FALSE(NamesAnException("Traceback (most recent call last):"));
  EXPECT_FALSE(NamesAnException("Shard complete standard error output:"));
  EXPECT_FALSE(NamesAnException("Got a NCCL error"));
  EXPECT_FALSE(NamesAnException("    raise RuntimeError(\"Engine core initialization failed. \""));
}

// The next line of a note, indented under its first: words, not a traceback's or py-spy's frame.
TEST(ProseTest, ANoteGoingOnOnItsNextLine) {
  EXPECT_TRUE(
      GoesOnANote("With --disable-custom-all-reduce it gets past this point and serves fine."));
  EXPECT_TRUE(GoesOnANote("custom_all_reduce.py all_reduce -> ops.all_reduce during profile_run"));
  EXPECT_FALSE(GoesOnANote("File \"/x/vllm/worker/worker.py\", line 183, in load_model"));
  EXPECT_FALSE(GoesOnANote("all_reduce (vllm/distributed/device_communicators/pynccl.py:127)"));
  EXPECT_FALSE(GoesOnANote("return self._call_impl(*args)"));  // code: too few words
  EXPECT_FALSE(GoesOnANote(""));
}

TEST(ProseTest, MarkdownFences) {
  EXPECT_TRUE(IsMarkdownFence("```"));
  EXPECT_TRUE(IsMarkdownFence("```text"));
  EXPECT_TRUE(IsMarkdownFence("  ~~~ "));
  EXPECT_FALSE(IsMarkdownFence("```INFO 09-18 03:12:40 x"));
  EXPECT_FALSE(IsMarkdownFence("`x`"));
}

}  // namespace
}  // namespace spinup
