#include "proc/proc_parse.h"

#include <string>

#include <gtest/gtest.h>

namespace spinup::proc {
namespace {

using namespace std::string_literals;

// A real /proc/PID/stat of an SGLang scheduler (title set by setproctitle).
constexpr std::string_view kSchedulerStat =
    "4242 (sglang::schedul) S 4200 4200 4100 34816 4200 4194560 183421 0 5123 0 1523 377 0 0 "
    "20 0 131 0 918273 98765432101 4538211 18446744073709551615 1 1 0 0 0 0 0 16781312 16386 0 "
    "0 0 17 3 0 0 12 0 0 0 0 0 0 0 0 0 0\n";

TEST(ParseStat, SchedulerLine) {
  auto st = ParseStat(kSchedulerStat);
  ASSERT_TRUE(st);
  EXPECT_EQ(st->pid, 4242);
  EXPECT_EQ(st->comm, "sglang::schedul");
  EXPECT_EQ(st->state, 'S');
  EXPECT_EQ(st->ppid, 4200);
  EXPECT_EQ(st->pgrp, 4200);
  EXPECT_EQ(st->session, 4100);
  EXPECT_EQ(st->minflt, 183421u);
  EXPECT_EQ(st->majflt, 5123u);
  EXPECT_EQ(st->utime_ticks, 1523u);
  EXPECT_EQ(st->stime_ticks, 377u);
  EXPECT_EQ(st->num_threads, 131);
  EXPECT_EQ(st->starttime_ticks, 918273u);
  EXPECT_EQ(st->vsize_bytes, 98765432101u);
  EXPECT_EQ(st->rss_pages, 4538211);
}

TEST(ParseStat, CommWithSpacesAndParens) {
  auto st = ParseStat("77 (a) b (c)) R 1 77 77 0 -1 0 0 0 0 0 5 6 0 0 20 0 1 0 1 0 0");
  ASSERT_TRUE(st);
  EXPECT_EQ(st->comm, "a) b (c)");
  EXPECT_EQ(st->state, 'R');
  EXPECT_EQ(st->ppid, 1);
  EXPECT_EQ(st->utime_ticks, 5u);
  EXPECT_EQ(st->stime_ticks, 6u);
}

TEST(ParseStat, RejectsGarbageWithoutCrashing) {
  EXPECT_FALSE(ParseStat(""));
  EXPECT_FALSE(ParseStat("123"));
  EXPECT_FALSE(ParseStat("123 (x"));
  EXPECT_FALSE(ParseStat(") 123 (x"));
  EXPECT_FALSE(ParseStat("abc (x) S 1"));
  EXPECT_FALSE(ParseStat("12 (x)"));
  EXPECT_FALSE(ParseStat("12 (x) SS 1"));
  // Truncated after ppid: the rest defaults to zero.
  auto st = ParseStat("12 (x) D 3");
  ASSERT_TRUE(st);
  EXPECT_EQ(st->state, 'D');
  EXPECT_EQ(st->ppid, 3);
  EXPECT_EQ(st->num_threads, 0);
}

TEST(ParseStatus, Keys) {
  constexpr std::string_view kStatus =
      "Name:\tsglang::schedul\nUmask:\t0022\nState:\tS (sleeping)\nTgid:\t4242\nNgid:\t0\n"
      "Pid:\t4242\nPPid:\t4200\nTracerPid:\t0\nVmPeak:\t98765432 kB\nVmHWM:\t18200000 kB\n"
      "VmRSS:\t18152844 kB\nThreads:\t131\nSigQ:\t0/2061374\n";
  auto s = ParseStatus(kStatus);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->name, "sglang::schedul");
  EXPECT_EQ(s->state, 'S');
  EXPECT_EQ(s->tgid, 4242);
  EXPECT_EQ(s->pid, 4242);
  EXPECT_EQ(s->ppid, 4200);
  ASSERT_TRUE(s->vm_rss_bytes);
  EXPECT_EQ(*s->vm_rss_bytes, 18152844ull * 1024);
  EXPECT_EQ(*s->vm_hwm_bytes, 18200000ull * 1024);
  EXPECT_EQ(s->threads, 131);
}

TEST(ParseStatus, KernelThreadHasNoRss) {
  auto s = ParseStatus("Name:\tkworker/0:1\nState:\tI (idle)\nPid:\t9\nPPid:\t2\nThreads:\t1\n");
  ASSERT_TRUE(s);
  EXPECT_FALSE(s->vm_rss_bytes);
  EXPECT_EQ(s->state, 'I');
  EXPECT_FALSE(ParseStatus("garbage\n"));
  EXPECT_FALSE(ParseStatus(""));
  auto bad = ParseStatus("Name:\tx\nVmRSS:\t99999999999999999999 kB\n");
  ASSERT_TRUE(bad);
  EXPECT_FALSE(bad->vm_rss_bytes);
}

TEST(ParseIo, AllKeys) {
  auto io = ParseIo(
      "rchar: 161061273600\nwchar: 12345\nsyscr: 40960\nsyscw: 12\nread_bytes: 150323855360\n"
      "write_bytes: 4096\ncancelled_write_bytes: 0\n");
  ASSERT_TRUE(io);
  EXPECT_EQ(io->rchar, 161061273600u);
  EXPECT_EQ(io->wchar, 12345u);
  EXPECT_EQ(io->syscr, 40960u);
  EXPECT_EQ(io->syscw, 12u);
  EXPECT_EQ(io->read_bytes, 150323855360u);
  EXPECT_EQ(io->write_bytes, 4096u);
  EXPECT_FALSE(ParseIo(""));
  EXPECT_FALSE(ParseIo("rchar: x\n"));
}

TEST(ParseCmdline, NulSeparated) {
  auto args = ParseCmdline("python3\0-m\0sglang.launch_server\0--model-path\0/m/L 70B\0"s);
  ASSERT_EQ(args.size(), 5u);
  EXPECT_EQ(args[0], "python3");
  EXPECT_EQ(args[4], "/m/L 70B");
  EXPECT_EQ(JoinCmdline(args), "python3 -m sglang.launch_server --model-path /m/L 70B");
  // No trailing NUL, a title rewritten with spaces.
  auto title = ParseCmdline("sglang::scheduler_TP3 ");
  ASSERT_EQ(title.size(), 1u);
  EXPECT_EQ(JoinCmdline(title), "sglang::scheduler_TP3 ");
  EXPECT_TRUE(ParseCmdline("").empty());
  // Caps.
  std::string many;
  for (int i = 0; i < 1000; ++i) many += "x"s + '\0';
  EXPECT_EQ(ParseCmdline(many, 10).size(), 10u);
  EXPECT_EQ(ParseCmdline(std::string(10000, 'a'), 4, 100)[0].size(), 100u);
  EXPECT_EQ(JoinCmdline({"aaaa", "bbbb", "cccc"}, 6), "aaaa b");
  EXPECT_EQ(JoinCmdline({"a\tb\x01"}), "a b ");
}

TEST(ClassifyWchan, Kinds) {
  EXPECT_EQ(ClassifyWchan("futex_wait_queue"), WaitKind::kFutex);
  EXPECT_EQ(ClassifyWchan("futex_wait_queue_me"), WaitKind::kFutex);
  EXPECT_EQ(ClassifyWchan("futex_wait"), WaitKind::kFutex);
  EXPECT_EQ(ClassifyWchan("do_poll.constprop.0"), WaitKind::kPoll);
  EXPECT_EQ(ClassifyWchan("poll_schedule_timeout.constprop.0"), WaitKind::kPoll);
  EXPECT_EQ(ClassifyWchan("do_sys_poll"), WaitKind::kPoll);
  EXPECT_EQ(ClassifyWchan("ep_poll"), WaitKind::kPoll);
  EXPECT_EQ(ClassifyWchan("do_epoll_wait"), WaitKind::kPoll);
  EXPECT_EQ(ClassifyWchan("do_select"), WaitKind::kPoll);
  EXPECT_EQ(ClassifyWchan("pipe_read"), WaitKind::kPoll);
  EXPECT_EQ(ClassifyWchan("unix_stream_read_generic"), WaitKind::kPoll);
  EXPECT_EQ(ClassifyWchan("inet_csk_accept"), WaitKind::kPoll);
  EXPECT_EQ(ClassifyWchan("hrtimer_nanosleep"), WaitKind::kSleep);
  EXPECT_EQ(ClassifyWchan("do_wait"), WaitKind::kOther);
  EXPECT_EQ(ClassifyWchan("folio_wait_bit_common"), WaitKind::kOther);
  EXPECT_EQ(ClassifyWchan("0"), WaitKind::kNone);
  EXPECT_EQ(ClassifyWchan(""), WaitKind::kNone);
  EXPECT_EQ(ClassifyWchan("futex_wait_queue\n"), WaitKind::kFutex);
  EXPECT_EQ(WaitKindName(WaitKind::kPoll), "poll");
}

TEST(ParseFdinfoPos, Pos) {
  EXPECT_EQ(ParseFdinfoPos("pos:\t4294967296\nflags:\t0100000\nmnt_id:\t27\nino:\t1311\n"),
            std::optional<uint64_t>(4294967296u));
  EXPECT_EQ(ParseFdinfoPos("flags:\t02\npos:\t0\n"), std::optional<uint64_t>(0));
  EXPECT_FALSE(ParseFdinfoPos("flags:\t02\n"));
  EXPECT_FALSE(ParseFdinfoPos("pos:\tabc\n"));
}

constexpr std::string_view kTcp =
    "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout "
    "inode                                                     \n"
    "   0: 0100007F:7530 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 "
    "551234 1 0000000000000000 100 0 0 10 0                     \n"
    "   1: 00000000:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 "
    "551299 1 0000000000000000 100 0 0 10 0                     \n"
    "   2: 0100007F:7530 0100007F:A2B4 01 00000000:00000000 00:00000000 00000000  1000        0 "
    "551300 1 0000000000000000 20 4 30 10 -1                    \n"
    "   3: garbage\n";

TEST(ParseNetTcp, ListenRows) {
  auto rows = ParseNetTcp(kTcp, false);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].local_port, 30000);
  EXPECT_EQ(rows[0].state, kTcpListen);
  EXPECT_EQ(rows[0].inode, 551234u);
  EXPECT_TRUE(rows[0].loopback_only);
  EXPECT_EQ(rows[1].local_port, 8080);
  EXPECT_FALSE(rows[1].loopback_only);
  EXPECT_EQ(rows[2].state, 0x01);  // ESTABLISHED
  EXPECT_EQ(ParseNetTcp(kTcp, false, 1).size(), 1u);
}

TEST(ParseNetTcp, Ipv6) {
  constexpr std::string_view kTcp6 =
      "  sl  local_address                         remote_address                        st "
      "tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n"
      "   0: 00000000000000000000000001000000:1F40 00000000000000000000000000000000:0000 0A "
      "00000000:00000000 00:00000000 00000000  1000        0 661001 1 0000000000000000 100 0 0 "
      "10 0\n"
      "   1: 00000000000000000000000000000000:22B8 00000000000000000000000000000000:0000 0A "
      "00000000:00000000 00:00000000 00000000  1000        0 661002 1 0000000000000000 100 0 0 "
      "10 0\n";
  auto rows = ParseNetTcp(kTcp6, true);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].local_port, 8000);
  EXPECT_TRUE(rows[0].loopback_only);
  EXPECT_TRUE(rows[0].ipv6);
  EXPECT_EQ(rows[0].inode, 661001u);
  EXPECT_EQ(rows[1].local_port, 8888);
  EXPECT_FALSE(rows[1].loopback_only);
  // The IPv6 text parsed as IPv4 is malformed, not misread.
  EXPECT_TRUE(ParseNetTcp(kTcp6, false).empty());
}

TEST(ParseSocketLink, Forms) {
  EXPECT_EQ(ParseSocketLink("socket:[551234]"), std::optional<uint64_t>(551234));
  EXPECT_FALSE(ParseSocketLink("pipe:[551234]"));
  EXPECT_FALSE(ParseSocketLink("socket:[]"));
  EXPECT_FALSE(ParseSocketLink("socket:[12"));
  EXPECT_FALSE(ParseSocketLink("/models/x.safetensors"));
  EXPECT_FALSE(ParseSocketLink("anon_inode:[eventpoll]"));
}

TEST(ParsePidList, Lines) {
  EXPECT_EQ(ParsePidList("4200\n4242\n\nx\n-3\n4243"), (std::vector<int>{4200, 4242, 4243}));
  EXPECT_EQ(ParsePidList("1\n2\n3\n", 2), (std::vector<int>{1, 2}));
  EXPECT_EQ(ParseChildren("4242 4243 4244 \n"), (std::vector<int>{4242, 4243, 4244}));
  EXPECT_TRUE(ParseChildren("").empty());
}

TEST(ModelPathFromCmdline, Forms) {
  using V = std::vector<std::string>;
  EXPECT_EQ(ModelPathFromCmdline(V{"python3", "-m", "sglang.launch_server", "--model-path",
                                   "/models/Llama-3-70B", "--tp", "8"}),
            "/models/Llama-3-70B");
  EXPECT_EQ(ModelPathFromCmdline(V{"sglang", "serve", "--model-path", "/m/q"}), "/m/q");
  EXPECT_EQ(ModelPathFromCmdline(
                V{"/usr/bin/python", "-m", "vllm.entrypoints.openai.api_server", "--model=/m/v"}),
            "/m/v");
  EXPECT_EQ(ModelPathFromCmdline(V{"server", "--model", "/m/w"}), "/m/w");
  EXPECT_EQ(ModelPathFromCmdline(V{"server", "--model-path=/m/x"}), "/m/x");
  EXPECT_EQ(ModelPathFromCmdline(V{"vllm", "serve", "/m/y", "--tensor-parallel-size", "4"}),
            "/m/y");
  EXPECT_EQ(ModelPathFromCmdline(V{"/opt/venv/bin/vllm", "serve", "Qwen/Qwen3-8B"}),
            "Qwen/Qwen3-8B");
  EXPECT_FALSE(ModelPathFromCmdline(V{"vllm", "serve", "--port", "8000"}));
  EXPECT_FALSE(ModelPathFromCmdline(V{"other", "serve", "/m/z"}));
  EXPECT_FALSE(ModelPathFromCmdline(V{"python", "--model"}));
  EXPECT_FALSE(ModelPathFromCmdline(V{"python", "--modelx=/a"}));
  EXPECT_FALSE(ModelPathFromCmdline(V{}));
}

TEST(IsCompilerComm, Names) {
  for (const char* c : {"nvcc", "cicc", "ptxas", "ninja", "cc1plus", "gcc", "g++", "clang",
                        "/usr/bin/clang++", "gcc-12", "clang-14"}) {
    EXPECT_TRUE(IsCompilerComm(c)) << c;
  }
  for (const char* c : {"python3", "sglang::schedul", "ccache-x", "bash", ""}) {
    EXPECT_FALSE(IsCompilerComm(c)) << c;
  }
}

}  // namespace
}  // namespace spinup::proc
