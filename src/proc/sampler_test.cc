#include "proc/sampler.h"

#include <cstdio>
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "test_util.h"

namespace spinup::proc {
namespace {

namespace fs = std::filesystem;
using spinup::testing::TempDir;
using spinup::testing::WriteFile;
using namespace std::string_literals;

struct FakeThread {
  int tid;
  char state;
  std::string wchan;
};

// Writes a fixture /proc/PID directory the way the kernel lays it out.
void AddProcess(const fs::path& proc, int pid, int ppid, const std::string& comm, char state,
                uint64_t utime, uint64_t stime, int64_t rss_pages,
                const std::vector<FakeThread>& threads, const std::string& cmdline = "") {
  fs::path d = proc / std::to_string(pid);
  fs::create_directories(d / "task");
  fs::create_directories(d / "fd");
  fs::create_directories(d / "fdinfo");
  auto stat_line = [&](int id, char st) {
    return std::to_string(id) + " (" + comm + ") " + st + " " + std::to_string(ppid) + " " +
           std::to_string(ppid) + " 1 0 -1 4194560 100 0 7 0 " + std::to_string(utime) + " " +
           std::to_string(stime) + " 0 0 20 0 " + std::to_string(threads.size()) + " 0 5000 " +
           "123456789 " + std::to_string(rss_pages) + " 18446744073709551615 1 1 0 0 0\n";
  };
  WriteFile(d / "stat", stat_line(pid, state));
  WriteFile(d / "io",
            "rchar: 4000000\nwchar: 0\nsyscr: 10\nsyscw: 0\nread_bytes: 3000000\n"
            "write_bytes: 0\ncancelled_write_bytes: 0\n");
  WriteFile(d / "cmdline", cmdline.empty() ? comm + '\0' : cmdline);
  for (const auto& t : threads) {
    fs::path td = d / "task" / std::to_string(t.tid);
    fs::create_directories(td);
    WriteFile(td / "stat", stat_line(t.tid, t.state));
    WriteFile(td / "wchan", t.wchan);
  }
}

constexpr std::string_view kTcpHeader =
    "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout "
    "inode\n";

class SamplerFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    proc_ = tmp_.path() / "proc";
    model_ = tmp_.path() / "models" / "Llama";
    fs::create_directories(model_);
    model_ = fs::canonical(model_);  // /proc fd links are canonical paths
    WriteFile(model_ / "model-00001-of-00002.safetensors", std::string(5000, 'x'));
    WriteFile(model_ / "model-00002-of-00002.safetensors", std::string(7000, 'y'));
    WriteFile(tmp_.path() / "other.bin", "zz");

    // Unrelated processes.
    AddProcess(proc_, 1, 0, "systemd", 'S', 5, 5, 100, {{1, 'S', "ep_poll"}});
    AddProcess(proc_, 50, 1, "sshd", 'S', 1, 1, 100, {{50, 'S', "do_select"}});
    // The server: main (100) -> schedulers (200, 201) -> ptxas (300) under 200.
    AddProcess(proc_, 100, 1, "python3", 'S', 250, 50, 1000,
               {{100, 'S', "poll_schedule_timeout.constprop.0"}, {101, 'S', "futex_wait_queue"}},
               "python3\0-m\0sglang.launch_server\0--model-path\0"s + model_.string() + '\0');
    AddProcess(proc_, 200, 100, "sglang::schedul", 'S', 100, 100, 2000,
               {{200, 'S', "futex_wait_queue"},
                {202, 'S', "futex_wait_queue"},
                {203, 'R', "0"},
                {204, 'D', "folio_wait_bit_common"},
                {205, 'S', "hrtimer_nanosleep"}},
               "sglang::scheduler_TP0\0"s);
    AddProcess(proc_, 201, 100, "sglang::schedul", 'S', 0, 0, 2000,
               {{201, 'S', "futex_wait_queue"}}, "sglang::scheduler_TP1\0"s);
    AddProcess(proc_, 300, 200, "ptxas", 'R', 10, 0, 10, {{300, 'R', "0"}});

    // fds: a socket, a model shard, a file outside the model dir.
    fs::create_symlink("socket:[551234]", proc_ / "100" / "fd" / "7");
    fs::create_symlink("socket:[999]", proc_ / "100" / "fd" / "8");
    fs::create_symlink(model_ / "model-00002-of-00002.safetensors", proc_ / "200" / "fd" / "12");
    WriteFile(proc_ / "200" / "fdinfo" / "12", "pos:\t4096\nflags:\t0100000\nmnt_id:\t27\n");
    fs::create_symlink(tmp_.path() / "other.bin", proc_ / "200" / "fd" / "13");
    WriteFile(proc_ / "200" / "fdinfo" / "13", "pos:\t1\n");

    std::string tcp = std::string(kTcpHeader) +
                      "   0: 0100007F:7530 00000000:0000 0A 00000000:00000000 00:00000000 "
                      "00000000  1000        0 551234 1 0000000000000000 100 0 0 10 0\n"
                      "   1: 0100007F:7531 0100007F:A2B4 01 00000000:00000000 00:00000000 "
                      "00000000  1000        0 999 1 0000000000000000 100 0 0 10 0\n";
    fs::create_directories(proc_ / "100" / "net");
    WriteFile(proc_ / "100" / "net" / "tcp", tcp);
    WriteFile(proc_ / "100" / "net" / "tcp6", std::string(kTcpHeader));
  }

  SamplerOptions Options() {
    SamplerOptions o;
    o.proc_root = proc_;
    o.ticks_per_second = 100;
    o.page_size = 4096;
    o.model_dir = model_;
    return o;
  }

  static const ProcessSample* Find(const Sample& s, int pid) {
    for (const auto& p : s.processes) {
      if (p.pid == pid) return &p;
    }
    return nullptr;
  }

  TempDir tmp_;
  fs::path proc_;
  fs::path model_;
};

TEST_F(SamplerFixture, FindsDescendantsOnly) {
  ProcessTreeSampler sampler(Options());
  bool truncated = true;
  auto pids = sampler.FindDescendants({100}, &truncated);
  EXPECT_EQ(pids, (std::vector<int>{100, 200, 201, 300}));
  EXPECT_FALSE(truncated);
  EXPECT_EQ(sampler.FindDescendants({200}), (std::vector<int>{200, 300}));
  EXPECT_TRUE(sampler.FindDescendants({4711}).empty());
}

TEST_F(SamplerFixture, SamplesTree) {
  ProcessTreeSampler sampler(Options());
  Sample s;
  sampler.SampleTree({100}, s);
  ASSERT_EQ(s.processes.size(), 4u);
  EXPECT_FALSE(s.processes_truncated);
  EXPECT_EQ(s.compiler_processes, 1);

  const ProcessSample* main = Find(s, 100);
  ASSERT_NE(main, nullptr);
  EXPECT_EQ(main->comm, "python3");
  EXPECT_EQ(main->ppid, 1);
  EXPECT_DOUBLE_EQ(main->cpu_seconds, 3.0);
  EXPECT_EQ(main->rss_bytes, 1000u * 4096);
  EXPECT_EQ(main->read_bytes, 3000000u);
  EXPECT_EQ(main->rchar, 4000000u);
  EXPECT_EQ(main->major_faults, 7u);
  EXPECT_EQ(main->threads, 2);
  EXPECT_EQ(main->threads_poll_wait, 1);
  EXPECT_EQ(main->threads_futex_wait, 1);
  EXPECT_EQ(main->listening_ports, (std::vector<uint16_t>{30000}));
  EXPECT_NE(main->cmdline.find("--model-path " + model_.string()), std::string::npos);
  EXPECT_FALSE(main->compiler);

  const ProcessSample* tp0 = Find(s, 200);
  ASSERT_NE(tp0, nullptr);
  EXPECT_EQ(tp0->cmdline, "sglang::scheduler_TP0");
  EXPECT_EQ(tp0->threads, 5);
  EXPECT_EQ(tp0->threads_sampled, 5);
  EXPECT_EQ(tp0->threads_futex_wait, 2);
  EXPECT_EQ(tp0->threads_running, 1);
  EXPECT_EQ(tp0->threads_disk_wait, 1);
  EXPECT_EQ(tp0->threads_sleep_wait, 1);
  EXPECT_TRUE(tp0->listening_ports.empty());
  ASSERT_EQ(tp0->model_files.size(), 1u);  // other.bin is outside the model dir
  EXPECT_EQ(tp0->model_files[0].path,
            fs::weakly_canonical(model_ / "model-00002-of-00002.safetensors").string());
  EXPECT_EQ(tp0->model_files[0].offset, 4096u);
  EXPECT_EQ(tp0->model_files[0].size, 7000u);

  const ProcessSample* ptxas = Find(s, 300);
  ASSERT_NE(ptxas, nullptr);
  EXPECT_TRUE(ptxas->compiler);
  EXPECT_EQ(ptxas->state, 'R');
}

TEST_F(SamplerFixture, Caps) {
  SamplerOptions o = Options();
  o.max_processes = 2;
  o.max_threads_per_process = 2;
  ProcessTreeSampler sampler(o);
  Sample s;
  sampler.SampleTree({100}, s);
  EXPECT_EQ(s.processes.size(), 2u);
  EXPECT_TRUE(s.processes_truncated);
  const ProcessSample* tp0 = Find(s, 200);
  ASSERT_NE(tp0, nullptr);
  EXPECT_EQ(tp0->threads, 5);  // the full count from stat
  EXPECT_EQ(tp0->threads_sampled, 2);

  o = Options();
  o.scan_threads = false;
  o.scan_fds = false;
  ProcessTreeSampler light(o);
  light.SampleTree({100}, s);
  ASSERT_EQ(s.processes.size(), 4u);
  EXPECT_EQ(Find(s, 200)->threads_sampled, 0);
  EXPECT_TRUE(Find(s, 200)->model_files.empty());
  EXPECT_TRUE(Find(s, 100)->listening_ports.empty());
}

TEST_F(SamplerFixture, ThreadBudgetCoversTreeRoundRobin) {
  SamplerOptions o = Options();
  o.max_thread_reads_per_sample = 3;  // the tree has 9 threads
  ProcessTreeSampler sampler(o);
  Sample s;
  auto sampled = [&] {
    int n = 0;
    for (const auto& p : s.processes) n += p.threads_sampled;
    return n;
  };
  sampler.SampleTree({100}, s);
  EXPECT_EQ(sampled(), 3);
  sampler.SampleTree({100}, s);
  EXPECT_EQ(sampled(), 6);
  sampler.SampleTree({100}, s);
  EXPECT_EQ(sampled(), 9);
  EXPECT_EQ(Find(s, 200)->threads_futex_wait, 2);
  // A thread changes what it waits on: seen within ceil(9 / 3) samples.
  WriteFile(proc_ / "200" / "task" / "202" / "wchan", "ep_poll");
  for (int i = 0; i < 3; ++i) sampler.SampleTree({100}, s);
  EXPECT_EQ(sampled(), 9);
  EXPECT_EQ(Find(s, 200)->threads_futex_wait, 1);
  EXPECT_EQ(Find(s, 200)->threads_poll_wait, 1);
  // A thread that exits is forgotten.
  fs::remove_all(proc_ / "200" / "task" / "205");
  sampler.SampleTree({100}, s);
  EXPECT_EQ(sampled(), 8);
  EXPECT_EQ(Find(s, 200)->threads_sleep_wait, 0);
}

TEST_F(SamplerFixture, ThreadCacheSurvivesAlternatingCalls) {
  SamplerOptions o = Options();
  o.max_thread_reads_per_sample = 2;
  ProcessTreeSampler sampler(o);
  Sample a, b;
  // Alternate between two sources, as `watch --unit X --pid Y` does; both converge.
  for (int i = 0; i < 4; ++i) {
    sampler.SamplePids({201, 300}, a);
    sampler.SampleTree({200}, b);
  }
  EXPECT_EQ(Find(a, 201)->threads_sampled, 1);
  EXPECT_EQ(Find(b, 200)->threads_sampled, 5);
  EXPECT_EQ(Find(b, 200)->threads_futex_wait, 2);
}

TEST_F(SamplerFixture, FdLinksAreCachedAndRechecked) {
  ProcessTreeSampler sampler(Options());  // fd_recheck_period 4
  Sample s;
  sampler.SampleTree({100}, s);
  EXPECT_EQ(Find(s, 100)->listening_ports, (std::vector<uint16_t>{30000}));
  ASSERT_EQ(Find(s, 200)->model_files.size(), 1u);
  // fd 12 moves to the other shard: model-file fds are read every sample.
  fs::remove(proc_ / "200" / "fd" / "12");
  fs::create_symlink(model_ / "model-00001-of-00002.safetensors", proc_ / "200" / "fd" / "12");
  sampler.SampleTree({100}, s);
  ASSERT_EQ(Find(s, 200)->model_files.size(), 1u);
  EXPECT_EQ(Find(s, 200)->model_files[0].size, 5000u);
  // fd 13 (outside the model dir) becomes a shard: seen within fd_recheck_period samples.
  fs::remove(proc_ / "200" / "fd" / "13");
  fs::create_symlink(model_ / "model-00002-of-00002.safetensors", proc_ / "200" / "fd" / "13");
  for (int i = 0; i < 4; ++i) sampler.SampleTree({100}, s);
  EXPECT_EQ(Find(s, 200)->model_files.size(), 2u);
  // A closed fd is gone at once; a new fd is read at once.
  fs::remove(proc_ / "200" / "fd" / "13");
  fs::create_symlink(model_ / "model-00002-of-00002.safetensors", proc_ / "200" / "fd" / "14");
  WriteFile(proc_ / "200" / "fdinfo" / "14", "pos:\t7000\n");
  sampler.SampleTree({100}, s);
  ASSERT_EQ(Find(s, 200)->model_files.size(), 2u);
  EXPECT_EQ(Find(s, 200)->model_files[1].offset, 7000u);
}

TEST_F(SamplerFixture, NoModelDirMeansNoModelFiles) {
  SamplerOptions o = Options();
  o.model_dir.reset();
  ProcessTreeSampler sampler(o);
  auto ps = sampler.SampleProcess(200);
  ASSERT_TRUE(ps);
  EXPECT_TRUE(ps->model_files.empty());
  EXPECT_FALSE(sampler.SampleProcess(4711));
}

TEST_F(SamplerFixture, GoneOrDamagedProcessesAreSkipped) {
  WriteFile(proc_ / "201" / "stat", "201 (trunc");  // a process caught mid-exit
  fs::remove_all(proc_ / "300");
  ProcessTreeSampler sampler(Options());
  Sample s;
  sampler.SampleTree({100}, s);
  EXPECT_NE(Find(s, 100), nullptr);
  EXPECT_NE(Find(s, 200), nullptr);
  EXPECT_EQ(Find(s, 201), nullptr);
  EXPECT_EQ(Find(s, 300), nullptr);
}

TEST_F(SamplerFixture, PortsAndModelPath) {
  ProcessTreeSampler sampler(Options());
  EXPECT_TRUE(sampler.PortListening(30000, 100));
  EXPECT_FALSE(sampler.PortListening(30001, 100));  // that row is ESTABLISHED, not LISTEN
  EXPECT_FALSE(sampler.PortListening(30000, 0));    // no proc/net/tcp in the fixture root
  EXPECT_EQ(sampler.ModelPathOf({200, 100}), model_.string());
  EXPECT_FALSE(sampler.ModelPathOf({200}));
}

TEST_F(SamplerFixture, ManyConnectionsAfterTheListeners) {
  // Listening rows first (as the kernel writes them), then thousands of connections, across
  // several read chunks.
  std::string tcp(kTcpHeader);
  auto row = [](int sl, int port, const char* st, int inode) {
    char line[200];
    std::snprintf(line, sizeof(line),
                  "%4d: 0100007F:%04X 0100007F:A2B4 %s 00000000:00000000 00:00000000 00000000  "
                  "1000        0 %d 1 0000000000000000 100 0 0 10 0\n",
                  sl, port, st, inode);
    return std::string(line);
  };
  for (int i = 0; i < 300; ++i) tcp += row(i, 20000 + i, "0A", 700000 + i);
  for (int i = 0; i < 3000; ++i) tcp += row(300 + i, 40000 + (i % 1000), "01", 800000 + i);
  WriteFile(proc_ / "100" / "net" / "tcp", tcp);
  ProcessTreeSampler sampler(Options());
  auto socks = sampler.ListeningSockets(100);
  ASSERT_EQ(socks.size(), 300u);
  EXPECT_EQ(socks.front().local_port, 20000);
  EXPECT_EQ(socks.back().local_port, 20299);
  EXPECT_EQ(socks.back().inode, 700299u);
  EXPECT_TRUE(sampler.PortListening(20299, 100));
  EXPECT_FALSE(sampler.PortListening(40000, 100));  // connected, not listening
}

TEST_F(SamplerFixture, SamplePidsWithoutDescendants) {
  ProcessTreeSampler sampler(Options());
  Sample s;
  sampler.SamplePids({201, 100, 4711}, s);
  ASSERT_EQ(s.processes.size(), 2u);
  EXPECT_EQ(s.processes[0].pid, 201);
  EXPECT_EQ(s.processes[1].pid, 100);
}

TEST(FindCgroupPids, V2AndV1Layouts) {
  TempDir tmp;
  fs::path v2 = tmp.path() / "fs/cgroup/system.slice/sglang.service";
  fs::create_directories(v2);
  WriteFile(v2 / "cgroup.procs", "4200\n4242\n4243\n");
  auto pids = FindCgroupPids(tmp.path(), "sglang");
  ASSERT_TRUE(pids.ok()) << pids.status().ToString();
  EXPECT_EQ(*pids, (std::vector<int>{4200, 4242, 4243}));
  EXPECT_TRUE(FindCgroupPids(tmp.path(), "sglang.service").ok());

  fs::path v1 = tmp.path() / "fs/cgroup/systemd/system.slice/vllm.service";
  fs::create_directories(v1);
  WriteFile(v1 / "cgroup.procs", "77\n");
  auto v1pids = FindCgroupPids(tmp.path(), "vllm");
  ASSERT_TRUE(v1pids.ok());
  EXPECT_EQ(*v1pids, (std::vector<int>{77}));

  auto missing = FindCgroupPids(tmp.path(), "nope");
  EXPECT_EQ(missing.status().kind(), ErrorKind::kNotFound);
  EXPECT_NE(missing.status().message().find("nope.service"), std::string::npos);
  EXPECT_EQ(FindCgroupPids(tmp.path(), "../x").status().kind(), ErrorKind::kInvalidArgument);
}

TEST(ProcReader, CapsAndMissing) {
  TempDir tmp;
  WriteFile(tmp.path() / "big", std::string(100000, 'a'));
  ProcReader r(tmp.path());
  EXPECT_EQ(r.Read("big", 10)->size(), 10u);
  EXPECT_EQ(r.Read("big")->size(), 65536u);
  EXPECT_FALSE(r.Read("missing"));
  EXPECT_FALSE(r.ReadLink("big"));
  fs::create_directories(tmp.path() / "d" / "12");
  fs::create_directories(tmp.path() / "d" / "x1");
  fs::create_directories(tmp.path() / "d" / "7");
  auto n = r.ListNumeric("d", 100);
  std::sort(n.begin(), n.end());
  EXPECT_EQ(n, (std::vector<int>{7, 12}));
  EXPECT_EQ(r.ListNumeric("d", 1).size(), 1u);
}

}  // namespace
}  // namespace spinup::proc
