#include "logs/reported_wait.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace spinup {
namespace {

TEST(ReportedWait, AWritersClaimOfTimeWithoutProgress) {
  EXPECT_EQ(ReportedWaitSeconds("after 20 minutes nothing"), 1200);
  // A note set beside or under the line it points at.
  EXPECT_EQ(ReportedWaitSeconds("    <- hangs here, been 20+ min"), 1200);
  EXPECT_EQ(ReportedWaitSeconds("          ^ stuck here. nothing for 40+ minutes, du stays"), 2400);
  EXPECT_FALSE(ReportedWaitSeconds("    hangs here for 20 min").has_value());  // a program's line
  EXPECT_EQ(ReportedWaitSeconds("both sides just sit there, 25 min now"), 1500);
  EXPECT_EQ(ReportedWaitSeconds("ranks 8-15 never print anything. Left it 1h15m, then scancel."),
            4500);
  EXPECT_EQ(ReportedWaitSeconds("no output, stuck for 2h 30min"), 9000);
  EXPECT_EQ(ReportedWaitSeconds("Stuck like this for 1 hour, no more output"), 3600);
}

// The forms writers added in later rounds: headings, what the log last printed, ages, effort.
TEST(ReportedWait, HeadingsLastLinesAgesAndEffort) {
  // A heading in brackets before the claim; what it last printed and that it still runs.
  EXPECT_EQ(ReportedWaitSeconds("[sglang 0.4.1, A10G 24GB, awq checkpoint] -- stuck at cuda graph "
                                "capture, left it over lunch (1.5h), log never moves past this."),
            5400);
  EXPECT_FALSE(ReportedWaitSeconds("[2025-01-02 10:00:00, rank0] stuck for 20 min").has_value());
  EXPECT_FALSE(ReportedWaitSeconds("[TP0] waited 20 min for peers").has_value());
  EXPECT_EQ(ReportedWaitSeconds("vllm 0.8.4, V1 engine, LLM() in a notebook. cell has been running "
                                "45 minutes, GPU idle. never returns."),
            2700);
  EXPECT_EQ(ReportedWaitSeconds("(keeps printing exactly this every 10s for both ranks, I left it "
                                "for 2 hours. no 'Shard ready', no error.)"),
            7200);
  EXPECT_FALSE(
      ReportedWaitSeconds("it keeps printing progress, not stuck, 20 min so far").has_value());
  EXPECT_EQ(ReportedWaitSeconds("[*] <- cell still running after 55 min. Nothing after the graph "
                                "line."),
            3300);
  // An age is no wait.
  EXPECT_FALSE(ReportedWaitSeconds("it's the engine process of the OLD server (3 days old); the "
                                   "kill matched nothing and it survived")
                   .has_value());
  // The time the writer spent on the problem is no wait of the start's.
  EXPECT_FALSE(ReportedWaitSeconds("Posting for the record since I spent a day on this; I thought "
                                   "the container was hung.")
                   .has_value());
  EXPECT_EQ(ReportedWaitSeconds("here it stops. been 25 minutes. py-spy dump on rank 0 shows it in "
                                "graph capture"),
            1500);
  EXPECT_EQ(ReportedWaitSeconds("that's the last line. pod has been Running (0/1 ready) for 40 min "
                                "now, no restarts, no errors."),
            2400);
  EXPECT_EQ(ReportedWaitSeconds("Stuck at 3/163 for 40 minutes now"), 2400);
  EXPECT_EQ(ReportedWaitSeconds("I waited 45+ min and it never finished loading"), 2700);
  EXPECT_EQ(ReportedWaitSeconds("It hangs at CUDA graph capture, I waited over an hour"), 3600);
  EXPECT_EQ(ReportedWaitSeconds("TP=4 on 4x H100. TP2 never does. Waited 40 minutes, no more "
                                "output."),
            2400);
  EXPECT_EQ(ReportedWaitSeconds("It has been sitting on this line for over an hour now"), 3600);
  EXPECT_EQ(ReportedWaitSeconds("It stops right after \"Init torch distributed begin.\" on all 4 "
                                "ranks and has been there ~25 min."),
            1500);
  EXPECT_EQ(ReportedWaitSeconds("It stays at capturing cuda graph for more than 30 minutes."),
            1800);
  EXPECT_EQ(ReportedWaitSeconds("after 20 minutes nothing, py-spy says it is in codecache.py"),
            1200);
  EXPECT_EQ(ReportedWaitSeconds("Stuck at capture cuda graph. Waited ~45 min then hit Ctrl-C:"),
            2700);
  EXPECT_EQ(ReportedWaitSeconds("node 1 never prints anything after `Init torch distributed "
                                "begin.` either. Still like this 30 minutes later:"),
            1800);
}

TEST(ReportedWait, OtherLanguagesStopsAndShorthand) {
  // Reports written in other languages.
  EXPECT_EQ(ReportedWaitSeconds("等了30分钟还是卡在这里，没有任何输出"), 1800);
  EXPECT_EQ(ReportedWaitSeconds("40分以上このままです。"), 2400);
  EXPECT_EQ(ReportedWaitSeconds("1시간째 멈춰 있습니다"), 3600);
  EXPECT_EQ(ReportedWaitSeconds("（就停在 2/23 这里了，从 16:40 等到 17:15 都没动。）"), 2100);
  EXPECT_EQ(ReportedWaitSeconds("30分以上待ちましたが 0/4 のままです。"), 1800);
  EXPECT_EQ(ReportedWaitSeconds("Висит уже 20 минут, ничего не происходит"), 1200);
  EXPECT_FALSE(ReportedWaitSeconds("模型加载用了30分钟，然后正常启动了").has_value());
  // A stop after a stated time, a sentence written below a log that sat still.
  EXPECT_EQ(ReportedWaitSeconds("after 10 minutes I pressed ctrl-c. Without the flag it comes up "
                                "in 50 s"),
            600);
  EXPECT_EQ(ReportedWaitSeconds("50 minutes later still here, GPUs idle"), 3000);
  EXPECT_EQ(ReportedWaitSeconds("I gave up after 2 hours and killed it"), 7200);
  EXPECT_EQ(ReportedWaitSeconds("(no further output on either node for 45 minutes, GPUs at 100% "
                                "util in nvidia-smi)"),
            2700);
  // Upper-case settings are a person's shorthand, however many ("TP=8 PP=2"); two times of day
  // give the wait between them; the terminal's "^C" after a stated time is such a stop.
  EXPECT_EQ(ReportedWaitSeconds("vLLM 0.11.2 TP=4 hangs right after NCCL init. Nothing printed for "
                                "35 minutes now. TP=1 works fine."),
            2100);
  EXPECT_EQ(ReportedWaitSeconds("vLLM with TP=8 PP=2 hangs during NCCL init. Pasted at 18:05, the "
                                "last line has been there since 17:22."),
            43 * 60);
  EXPECT_EQ(ReportedWaitSeconds("the last line was printed at 10:04 and at 10:31 there's still "
                                "nothing."),
            27 * 60);
  EXPECT_EQ(ReportedWaitSeconds("^C after 35 min"), 2100);
  // A command quoted in the sentence keeps its own punctuation.
  EXPECT_EQ(ReportedWaitSeconds("logs merged with `kubectl logs -l role=leader,role=worker "
                                "--prefix`. It has sat like this for 50+ minutes."),
            3000);
  const auto forever = ReportedWaitSeconds("It hangs here forever, nothing else is printed.");
  ASSERT_TRUE(forever.has_value());
  EXPECT_TRUE(std::isinf(*forever));
  // Beside "forever", a length the writer states is the wait: a stop after it was a stall.
  EXPECT_EQ(
      ReportedWaitSeconds("With TP=2 it just sits there forever. Waited 45 minutes, no error"),
      2700);
  // A query the sentence quotes in parentheses is no program's line; a bar outside them is.
  EXPECT_TRUE(ReportedWaitSeconds("It sits in capture forever. This is the stream from CloudWatch "
                                  "(fields @timestamp, @message | sort @timestamp asc).")
                  .has_value());
  EXPECT_FALSE(
      ReportedWaitSeconds("stuck for 30 minutes | waiting on rank 1 | (see below)").has_value());
}

// A note that opens its line with an arrow; a size is no duration.
TEST(ReportedWait, LeftItForAStatedTime) {
  EXPECT_EQ(ReportedWaitSeconds("That's the last line. I left it for over an hour (until 11:15). "
                                "No error, no \"Setting max batch total tokens\"."),
            3600);
  EXPECT_EQ(ReportedWaitSeconds("I left it running for 70 minutes"), 4200);
  EXPECT_FALSE(ReportedWaitSeconds("I left it at the default settings").has_value());
}

TEST(ReportedWait, ArrowOpenedNotesAndSizes) {
  const auto korean = ReportedWaitSeconds(
      "==> \xec\x97\xac\xea\xb8\xb0\xec\x84\x9c \xeb\xa9\x88\xec\xb7\x84\xec\x8a\xb5"
      "\xeb\x8b\x88\xeb\x8b\xa4. 50\xeb\xb6\x84 \xea\xb7\xb8\xeb\x8c\x80\xeb\xa1\x9c");
  ASSERT_TRUE(korean.has_value());  // "==> 여기서 멈췄습니다. 50분 그대로"
  EXPECT_DOUBLE_EQ(*korean, 3000);
  EXPECT_TRUE(ReportedWaitSeconds("-> stuck here for 20 minutes, nothing after it").has_value());
  // "/dev/shm says 64M" is a size: only the 10 minutes count.
  const auto shm = ReportedWaitSeconds("It hangs, df shows /dev/shm is 64M. Waited 10 min.");
  ASSERT_TRUE(shm.has_value());
  EXPECT_DOUBLE_EQ(*shm, 600);
}

// A URL that is an environment variable's value leaves the sentence a person's; "over night" is
// "overnight".
TEST(ReportedWait, ASentenceNamingAnEndpointVariable) {
  EXPECT_TRUE(ReportedWaitSeconds("Using HF_ENDPOINT=https://hf-mirror.com the download of shard 3 "
                                  "stops at 41% and never moves. Left it overnight.")
                  .has_value());
  EXPECT_TRUE(ReportedWaitSeconds("It sits there. I left it over night, nothing more is printed.")
                  .has_value());
  // Settings in an aside are the sentence's; a program's own parentheses follow a name.
  EXPECT_TRUE(ReportedWaitSeconds("Nothing after this for 50+ minutes. The NFS server (a single "
                                  "NetApp export, nfsvers=3, rsize=65536) shows ~90 MB/s.")
                  .has_value());
  EXPECT_FALSE(ReportedWaitSeconds("Waited 50 minutes: Config(use_cuda_graph=True, max_bs=64) "
                                   "nothing more printed")
                   .has_value());
  // Two settings far apart in a sentence are the writer's too; side by side they are a list.
  EXPECT_TRUE(ReportedWaitSeconds("vllm hangs on MI300X with tp=8. No error, GPUs at 100% but "
                                  "nothing progresses. Waited 40 min then ctrl-c. tp=1 works.")
                  .has_value());
  EXPECT_FALSE(ReportedWaitSeconds("waited 40 min for rank=0 world_size=8 to finish").has_value());
  // Parentheses nested past what is kept, or closed more often than opened, are read safely.
  EXPECT_FALSE(ReportedWaitSeconds("It hangs for 30 minutes " + std::string(40, '(') + "a=1 b=2" +
                                   std::string(45, ')'))
                   .has_value());
  // A program's line with a URL of its own still claims nothing.
  EXPECT_FALSE(ReportedWaitSeconds("Waiting for the server at http://localhost:8000 for 10 minutes")
                   .has_value());
}

TEST(ReportedWait, OtherSentencesAndProgramLinesClaimNothing) {
  // A duration with no word of a hang, and a hang with no duration.
  EXPECT_FALSE(ReportedWaitSeconds("Loading takes 20 minutes on the other host.").has_value());
  EXPECT_FALSE(ReportedWaitSeconds("It hangs at NCCL init with TP=2 on 2x RTX 4090").has_value());
  // A program's lines.
  EXPECT_FALSE(ReportedWaitSeconds("Waiting for creating a placement group of specs for 10 "
                                   "seconds. specs=[{'GPU': 1.0}]")
                   .has_value());
  EXPECT_FALSE(ReportedWaitSeconds("[W0109 02:26:52 socket.cpp:752] waited 10 s, still connecting")
                   .has_value());
  EXPECT_FALSE(ReportedWaitSeconds("  File \"x.py\", line 3, in wait_for 10 s").has_value());
  EXPECT_FALSE(ReportedWaitSeconds("hung 5 s").has_value());  // too short for a sentence
  // A model's size in its name is no duration ("opt-125m" is not 125 minutes).
  EXPECT_FALSE(ReportedWaitSeconds("Run timeout 300 vllm serve facebook/opt-125m > log; "
                                   "./wait_for_server.sh 8011")
                   .has_value());
  EXPECT_FALSE(ReportedWaitSeconds("torch.distributed.DistStoreError: Timed out after 121 seconds "
                                   "waiting for clients. 1/2 clients joined.")
                   .has_value());
  EXPECT_FALSE(ReportedWaitSeconds("TimeoutError: Timed out waiting for engine core processes to "
                                   "start. Waited 600s")
                   .has_value());
  // A hang the writer denies.
  EXPECT_FALSE(ReportedWaitSeconds("it does NOT hang forever, just curious").has_value());
  // Slow, not stopped: "takes forever" is no stated wait.
  EXPECT_FALSE(ReportedWaitSeconds("Start takes forever, is this a hang? journalctl:").has_value());
  EXPECT_FALSE(ReportedWaitSeconds("After 30 minutes it isn't stuck, only slow.").has_value());
  EXPECT_TRUE(ReportedWaitSeconds("It is not moving, stuck for 30 minutes now").has_value());
  // The writer says the bars move: a long step, not a hang; "nothing is moving" is one.
  EXPECT_FALSE(ReportedWaitSeconds("It has been sitting on the DeepGEMM warmup for ~6 min, bars "
                                   "are moving though.")
                   .has_value());
  EXPECT_TRUE(
      ReportedWaitSeconds("Nothing is moving for 20 minutes, it just sits there.").has_value());
  EXPECT_FALSE(ReportedWaitSeconds("It's been warming up forever. Paste of the tail of the log, it "
                                   "is still printing.")
                   .has_value());
  // One time of day, or a later one first, is no span; a program's key=value list stays one.
  EXPECT_FALSE(ReportedWaitSeconds("It hangs since 10:04, nothing more").has_value());
  EXPECT_FALSE(
      ReportedWaitSeconds("waiting: world_size=4 rank=0 since 10:02 at 10:40").has_value());
  // A number no reader would write is no duration (and no parse error).
  EXPECT_FALSE(
      ReportedWaitSeconds("stuck for 99999999999999999999999999999999999999999 minutes now")
          .has_value());
}

// Kubernetes' output below a log: how long the pod had run when it was taken.
TEST(KubernetesAgeSeconds, PodRowsAndRepeatedProbeFailures) {
  EXPECT_EQ(KubernetesAgeSeconds("vllm-llama-6f8d9c7b5-kz4mn    0/1     Running   0          27m"),
            27 * 60.0);
  EXPECT_EQ(KubernetesAgeSeconds("sglang-0   1/1   Running   0   3h5m"), 3 * 3600.0 + 5 * 60.0);
  EXPECT_EQ(KubernetesAgeSeconds("  Warning  Unhealthy  2m (x160 over 26m)  kubelet  Readiness "
                                 "probe failed: Get \"http://10.1.4.22:8000/health\""),
            26 * 60.0);
  // A restarted container is younger than its pod; a liveness failure is a kill's, not a clock.
  EXPECT_FALSE(KubernetesAgeSeconds("vllm-0   0/1   CrashLoopBackOff   4 (30s ago)   12m"));
  EXPECT_FALSE(
      KubernetesAgeSeconds("  Warning  Unhealthy  1m (x3 over 2m)  kubelet  Liveness "
                           "probe failed: HTTP probe failed with statuscode: 503"));
  EXPECT_FALSE(KubernetesAgeSeconds("NAME   READY   STATUS    RESTARTS   AGE"));
  EXPECT_FALSE(KubernetesAgeSeconds("Loading safetensors checkpoint shards: 3/5 done in 2m"));
  EXPECT_FALSE(KubernetesAgeSeconds("vllm-0   0/1   Running   0   27x"));
}

// A writer's sentence that a flag or setting made the start work.
TEST(SaysItWorksWith, FlagsThatMadeItWork) {
  EXPECT_TRUE(
      SaysItWorksWith("With `--disable-custom-all-reduce` it comes up in 50 s, so it is "
                      "the custom all-reduce kernel"));
  EXPECT_TRUE(SaysItWorksWith("Setting NCCL_P2P_DISABLE=1 fixes it."));
  EXPECT_TRUE(SaysItWorksWith("EDIT: works with --enforce-eager"));
  EXPECT_TRUE(SaysItWorksWith("NCCL_NVLS_ENABLE=0 makes it start."));
  EXPECT_TRUE(SaysItWorksWith("Adding --enforce-eager got it to load."));
  EXPECT_TRUE(
      SaysItWorksWith("With --disable-custom-all-reduce it gets past this point and serves "
                      "fine."));
  EXPECT_FALSE(
      SaysItWorksWith("With --disable-custom-all-reduce it still hangs, never gets past "
                      "this."));
  EXPECT_FALSE(SaysItWorksWith("I tried NCCL_P2P_DISABLE=1 but it still hangs"));
  EXPECT_FALSE(SaysItWorksWith("--enforce-eager didn't help, same hang"));
  EXPECT_FALSE(SaysItWorksWith("It works on the other node without any change"));  // no flag
  EXPECT_FALSE(SaysItWorksWith("Using --tp 4 on 4x A100"));                        // no success
  EXPECT_FALSE(
      SaysItWorksWith("root@gpu-b:/workspace# python3 -m sglang.launch_server "
                      "--trust-remote-code --nnodes 2"));
}

// "N minutes in" is the time since the start, not a wait.
// No subject, and "that's it" for nothing more (rt93).
TEST(ReportedWait, ShorthandClaims) {
  EXPECT_EQ(ReportedWaitSeconds("Been like this for 25 min. With cuda graphs off it gets further"),
            1500);
  EXPECT_EQ(ReportedWaitSeconds("that's it. been 35 min. py-spy dump on TP0 shows it in capture"),
            2100);
  EXPECT_FALSE(ReportedWaitSeconds("that's it, it loads in 25 min on this box").has_value());
}

TEST(ReportedWaitSeconds, TimeSinceTheStartIsNoWait) {
  EXPECT_FALSE(
      ReportedWaitSeconds("Started it with the repo id. 20 minutes in, still this. Hung?"));
  EXPECT_EQ(ReportedWaitSeconds("It has been stuck for 20 minutes in capture, hung?"), 1200);
}

// A clause about another run says nothing of this one's wait.
TEST(ReportedWaitSeconds, OtherOccasionsDoNotCount) {
  EXPECT_FALSE(
      ReportedWaitSeconds("Pasting the log while it's still starting, it's been up ~40 "
                          "seconds; the graph capture part is where it sat for ~20 min "
                          "last week on the other box, so I'm watching it."));
  EXPECT_EQ(ReportedWaitSeconds("Yesterday it came up in 3 min. Today it has been stuck for 25 "
                                "minutes at the same line."),
            1500);
}

// A paragraph of several tries: the one that worked is found beside those that did not help.
TEST(SentencesSayingItWorks, OneTryAmongOthers) {
  const auto said = SentencesSayingItWorks(
      "Proxmox VM, 2x RTX 4090, TP2. --enforce-eager did not help (the log below is with it), "
      "--disable-custom-all-reduce did not help either. NCCL_P2P_DISABLE=1 fixes it: starts in "
      "40 s.");
  ASSERT_EQ(said.size(), 1u);
  EXPECT_EQ(said[0], "NCCL_P2P_DISABLE=1 fixes it: starts in 40 s.");
  EXPECT_EQ(SentencesSayingItWorks("Same hang? no \xe2\x80\x94 it starts fine with "
                                   "--disable-custom-all-reduce (graphs kept on).")
                .size(),
            1u);
  EXPECT_TRUE(SentencesSayingItWorks("I tried NCCL_P2P_DISABLE=1 but it still hangs. Same "
                                     "with --enforce-eager.")
                  .empty());
}

// The shell's `time` report after a command: how long it ran.
TEST(CommandTimeSeconds, ShellsAndGnuTime) {
  EXPECT_EQ(CommandTimeSeconds("real\t187m41.500s"), 187 * 60 + 41.5);
  EXPECT_EQ(CommandTimeSeconds("real 11261.12"), 11261.12);
  EXPECT_EQ(CommandTimeSeconds("python3 -m vllm.entrypoints.openai.api_server  5.21s user 1.10s "
                               "system 0% cpu 3:07:41.12 total"),
            3 * 3600 + 7 * 60 + 41.12);
  EXPECT_EQ(CommandTimeSeconds("12.04user 3.10system 25:02.33elapsed 1%CPU (0avgtext+0avgdata "
                               "912344maxresident)k"),
            25 * 60 + 2.33);
  EXPECT_EQ(CommandTimeSeconds("ERROR: Job failed: execution took longer than 2h0m0s seconds"),
            7200);
  EXPECT_EQ(CommandTimeSeconds("The job running on runner gpu-1 has exceeded the maximum "
                               "execution time of 360 minutes."),
            360 * 60);
  EXPECT_FALSE(CommandTimeSeconds("user\t0m12.345s"));
  EXPECT_FALSE(CommandTimeSeconds("really slow start, 20 minutes"));
  EXPECT_FALSE(CommandTimeSeconds("Capturing batches (bs=8 avail_mem=20.1 GB): 100% 12:01 total"));
}

}  // namespace
}  // namespace spinup

namespace spinup {
namespace {

// The writer's word that the log below is another try of theirs, not a supervisor's restart.
TEST(SaysItRanAgain, AnotherTryByHand) {
  EXPECT_TRUE(SaysItRanAgain("re-ran with NCCL_DEBUG=WARN:"));
  EXPECT_TRUE(SaysItRanAgain("Then I ran it again with --enforce-eager and got this:"));
  EXPECT_TRUE(SaysItRanAgain("Second attempt, after clearing the cache:"));
  EXPECT_FALSE(SaysItRanAgain("Retrying in 10 seconds (attempt 2 of 5)"));
  EXPECT_FALSE(SaysItRanAgain("The server never comes up:"));
}

}  // namespace
}  // namespace spinup

namespace spinup {
namespace {

// A note typed behind a log line on the same line: where it starts, so the line and the note are
// read apart; code's arrows, bars' "<" and a note with nothing before it are no such note.
TEST(NoteBehindTheLine, ArrowsWithWordsAfterALine) {
  const std::string bar =
      "Capturing CUDA graph shapes:  14%|x| 5/35 [00:02<00:14,  2.08it/s]   <-- stuck here for 20 "
      "min";
  EXPECT_EQ(NoteBehindTheLine(bar), bar.find("   <--"));
  const std::string line = "[TP0] Init torch distributed begin.  \xe2\x86\x90 hangs here forever";
  EXPECT_EQ(NoteBehindTheLine(line), line.find("  \xe2\x86\x90"));
  EXPECT_EQ(NoteBehindTheLine("Load weight begin. <--- and it just sits here"), 18u);
  EXPECT_EQ(NoteBehindTheLine("5/35 [00:02<00:14,  2.08it/s]"), std::string_view::npos);
  EXPECT_EQ(NoteBehindTheLine("x <- y"), std::string_view::npos);
  EXPECT_EQ(NoteBehindTheLine("a <-- 20 minutes here"), std::string_view::npos);
  EXPECT_EQ(NoteBehindTheLine("   <-- stuck here for 20 min"), std::string_view::npos);
  EXPECT_EQ(NoteBehindTheLine("File \"x.py\", line 3, in <module>"), std::string_view::npos);
  // A long line of candidates that are no notes is read once (untrusted bytes; before, each
  // candidate searched the rest of the line again).
  std::string many;
  for (int i = 0; i < 100000; ++i) many += " <";
  many += " \xe2\x86\x90";  // the only left arrow, at the end
  EXPECT_EQ(NoteBehindTheLine(many), std::string_view::npos);
  EXPECT_EQ(NoteBehindTheLine(many + "x <-- stuck here now"), many.size() + 1);
}

}  // namespace
}  // namespace spinup
