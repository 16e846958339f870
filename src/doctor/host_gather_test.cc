// Gathering from fixture trees, the fake NVML, and real stand-in processes.
#include "doctor/host_view.h"

#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstdlib>

#include "doctor_fixtures.h"
#include "proc/nvml.h"
#include "test_util.h"

namespace spinup::doctor {
namespace {

using testing::TempDir;

TEST(HostParsers, MountsLimitsAndAcs) {
  EXPECT_EQ(
      ShmSizeFromMounts("proc /proc proc rw 0 0\nshm /dev/shm tmpfs rw,nosuid,size=65536k 0 0\n"),
      64ull << 20);
  EXPECT_EQ(ShmSizeFromMounts("tmpfs /dev/shm tmpfs rw,size=16g,mode=1777 0 0"), 16ull << 30);
  EXPECT_FALSE(ShmSizeFromMounts("tmpfs /dev/shm tmpfs rw 0 0"));
  EXPECT_FALSE(ShmSizeFromMounts("x /dev/shm tmpfs size=99999999999999999999999k 0 0"));
  Limits l = ParseLimits(
      "Limit Soft Hard Units\nMax open files            1024                 524288               "
      "files\n"
      "Max locked memory         8388608              unlimited            bytes\n");
  EXPECT_EQ(l.nofile_soft, 1024u);
  EXPECT_EQ(l.nofile_hard, 524288u);
  EXPECT_EQ(l.memlock_soft, 8388608u);
  EXPECT_FALSE(AcsRedirectEnabled(std::string(64, '\0')));  // unprivileged: no extended space
  std::string cfg(4096, '\0');
  // A first capability (AER, id 1) pointing at ACS at 0x148 with Request Redirect on.
  cfg[0x100] = 0x01;
  cfg[0x102] =
      static_cast<char>(0x81);  // version 1, next = 0x148 (0x148 << 20 spread over bytes 2-3)
  cfg[0x103] = 0x14;
  cfg[0x148] = 0x0d;
  cfg[0x14e] = 0x04;
  EXPECT_EQ(AcsRedirectEnabled(cfg), true);
  cfg[0x14e] = 0x02;  // translation blocking only
  EXPECT_EQ(AcsRedirectEnabled(cfg), false);
  cfg[0x103] = 0x10;  // next pointer back to itself: no loop
  cfg[0x102] = 0x01;
  EXPECT_FALSE(AcsRedirectEnabled(cfg));
}

TEST(GatherPlatform, IommuAcsAndSevSnpFromFixtureTrees) {
  TempDir root;
  testing::FixtureHostOptions o;
  o.iommu_translated = true;
  o.acs_redirect = true;
  o.sev_snp_guest = true;
  testing::WriteFixtureHost(root.path(), o);
  HostRoots roots{root / "proc", root / "sys", root / "dev"};
  HostView v;
  GatherPlatform(roots, v);
  EXPECT_EQ(v.iommu_mode, "translated");
  ASSERT_EQ(v.acs_redirect_bridges.size(), 1u);
  EXPECT_EQ(v.acs_redirect_bridges[0], "0000:00:01.0");
  EXPECT_TRUE(v.hypervisor);
  EXPECT_EQ(v.confidential_vm, "SEV-SNP");
  EXPECT_EQ(v.net_interfaces, (std::vector<std::string>{"eth0", "lo"}));
  GatherLimits(roots, v);
  EXPECT_EQ(v.shm_bytes, 16ull << 30);
  EXPECT_EQ(v.nofile_hard, 1048576u);
  EXPECT_EQ(v.mem_available, 1000000000ull * 1024);

  TempDir plain;
  testing::WriteFixtureHost(plain.path(), {});
  HostView p;
  GatherPlatform({plain / "proc", plain / "sys", plain / "dev"}, p);
  EXPECT_EQ(p.iommu_mode, "passthrough");
  EXPECT_TRUE(p.acs_redirect_bridges.empty());
  EXPECT_FALSE(p.hypervisor);
  EXPECT_EQ(p.confidential_vm, "");
}

TEST(GatherProcesses, FixtureListenerAndNvidiaHolderAreNamed) {
  TempDir root;
  testing::FixtureHostOptions o;
  o.listener_pid = 4100;
  o.nvidia_holder_pid = 4200;
  o.port = 30000;
  testing::WriteFixtureHost(root.path(), o);
  HostView v;
  GatherProcesses({root / "proc", root / "sys", root / "dev"}, 30000, v);
  EXPECT_TRUE(v.port_listening);
  ASSERT_EQ(v.port_owners.size(), 1u);
  EXPECT_EQ(v.port_owners[0].pid, 4100);
  EXPECT_EQ(v.port_owners[0].cmdline, "python3 -m http.server 30000");
  ASSERT_EQ(v.gpu_holders.size(), 1u);
  EXPECT_EQ(v.gpu_holders[0].pid, 4200);
  EXPECT_EQ(v.gpu_holders[0].cmdline, "sglang::scheduler_TP0");
  EXPECT_EQ(v.gpu_holders[0].ppid, 1);
}

// Real processes under the real /proc: one listening on a TCP port, one holding a stand-in
// "/dev/nvidia0" (a file in a temporary dev root) open.
TEST(GatherProcesses, RealStandInProcessesAreNamedByPid) {
  TempDir dev;
  testing::Put(dev / "nvidia0", "");
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  pid_t listener = ::fork();
  ASSERT_GE(listener, 0);
  if (listener == 0) {
    int s = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof(a);
    if (s < 0 || ::bind(s, reinterpret_cast<sockaddr*>(&a), len) != 0 || ::listen(s, 1) != 0)
      _exit(1);
    ::getsockname(s, reinterpret_cast<sockaddr*>(&a), &len);
    uint16_t port = ntohs(a.sin_port);
    if (::write(fds[1], &port, sizeof(port)) != sizeof(port)) _exit(1);
    ::pause();
    _exit(0);
  }
  uint16_t port = 0;
  ASSERT_EQ(::read(fds[0], &port, sizeof(port)), static_cast<ssize_t>(sizeof(port)));
  pid_t holder = ::fork();
  ASSERT_GE(holder, 0);
  if (holder == 0) {
    int fd = ::open((dev / "nvidia0").c_str(), O_RDONLY);
    if (fd < 0 || ::write(fds[1], &port, sizeof(port)) != sizeof(port)) _exit(1);
    ::pause();
    _exit(0);
  }
  ASSERT_EQ(::read(fds[0], &port, sizeof(port)), static_cast<ssize_t>(sizeof(port)));
  HostView v;
  HostRoots roots;
  roots.dev = dev.path();
  GatherProcesses(roots, port, v);
  ::kill(listener, SIGKILL);
  ::kill(holder, SIGKILL);
  ::waitpid(listener, nullptr, 0);
  ::waitpid(holder, nullptr, 0);
  ::close(fds[0]);
  ::close(fds[1]);
  EXPECT_TRUE(v.port_listening);
  bool named_listener = false, named_holder = false;
  for (const auto& p : v.port_owners) named_listener = named_listener || p.pid == listener;
  for (const auto& p : v.gpu_holders) named_holder = named_holder || p.pid == holder;
  EXPECT_TRUE(named_listener) << "port " << port;
  EXPECT_TRUE(named_holder);
}

TEST(GatherGpus, FakeNvmlTopologyWithoutNvlink) {
  ::setenv("SPINUP_FAKE_NVML_GPUS", "4", 1);
  ::setenv("SPINUP_FAKE_NVML_IDLE", "1", 1);
  HostView v;
  {
    proc::NvmlGpu nvml(SPINUP_FAKE_NVML);
    GatherGpus(nvml, v);
  }
  ::setenv("SPINUP_FAKE_NVML_NVLINK", "1", 1);
  HostView nv;
  {
    proc::NvmlGpu nvml(SPINUP_FAKE_NVML);
    GatherGpus(nvml, nv);
  }
  ::unsetenv("SPINUP_FAKE_NVML_GPUS");
  ::unsetenv("SPINUP_FAKE_NVML_IDLE");
  ::unsetenv("SPINUP_FAKE_NVML_NVLINK");
  ASSERT_TRUE(v.nvml_available);
  ASSERT_EQ(v.gpus.size(), 4u);
  EXPECT_TRUE(v.gpus[3].pids.empty());
  ASSERT_EQ(v.links.size(), 6u);
  EXPECT_FALSE(v.links[0].nvlink);
  EXPECT_EQ(v.links[0].level, "PHB");
  EXPECT_EQ(v.links[0].p2p_read, false);
  ASSERT_EQ(nv.links.size(), 6u);
  EXPECT_TRUE(nv.links[5].nvlink);
}

}  // namespace
}  // namespace spinup::doctor
