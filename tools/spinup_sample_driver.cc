// spinup_sample_driver: samples a process tree the way `spinup watch --pid` does (the /proc
// sampler, NVML, the port check and the health probe), at a fixed interval for a fixed time, and
// then reports what that cost this process: CPU time (getrusage), CPU as a percentage of one core,
// peak RSS, and per-sample wall time. Used by bench/sample_cost; also handy to look at the raw
// signals of a live server (--print writes one JSON sample per interval to stdout).
#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <thread>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "proc/health.h"
#include "proc/nvml.h"
#include "proc/sampler.h"
#include "sink/json_codec.h"

namespace {

double CpuSeconds(const rusage& r) {
  return static_cast<double>(r.ru_utime.tv_sec + r.ru_stime.tv_sec) +
         static_cast<double>(r.ru_utime.tv_usec + r.ru_stime.tv_usec) / 1e6;
}

struct Args {
  int pid = 0;
  double interval = 1.0;
  double duration = 30.0;
  std::string model;
  int port = 0;
  bool print = false;
  size_t max_threads = spinup::proc::SamplerOptions{}.max_threads_per_process;
  size_t thread_budget = spinup::proc::SamplerOptions{}.max_thread_reads_per_sample;
};

void AddOptions(CLI::App& app, Args& a) {
  app.add_option("--pid", a.pid, "root of the tree")->required();
  app.add_option("--interval", a.interval, "seconds between samples");
  app.add_option("--duration", a.duration, "seconds to run");
  app.add_option("--model", a.model, "model directory (open model files)");
  app.add_option("--port", a.port, "port to check and probe");
  app.add_option("--max-threads", a.max_threads, "threads considered per process");
  app.add_option("--thread-reads", a.thread_budget, "thread reads per sample (0: all)");
  app.add_flag("--print", a.print, "print each sample as JSON");
}

spinup::proc::SamplerOptions SamplerOptionsFor(const Args& a) {
  spinup::proc::SamplerOptions opt;
  opt.ticks_per_second = ::sysconf(_SC_CLK_TCK);
  opt.page_size = static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
  opt.max_threads_per_process = a.max_threads;
  opt.max_thread_reads_per_sample = a.thread_budget;
  if (!a.model.empty()) opt.model_dir = a.model;
  return opt;
}

// One sample as `watch --pid` takes it: the tree, NVML, and with --port the port and /health.
spinup::Sample TakeSample(const Args& a, spinup::proc::ProcessTreeSampler& sampler,
                          spinup::proc::NvmlGpu& gpu) {
  spinup::Sample s;
  s.time_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                  std::chrono::system_clock::now().time_since_epoch())
                  .count();
  sampler.SampleTree({a.pid}, s);
  gpu.SampleInto(s);
  if (a.port > 0) {
    s.port_listening = sampler.PortListening(static_cast<uint16_t>(a.port), a.pid);
    if (s.port_listening) {
      spinup::proc::HealthProbeOptions probe;
      probe.port = static_cast<uint16_t>(a.port);
      s.health_http_status = spinup::proc::ProbeHealth(probe);
    }
  }
  return s;
}

// What the samples cost and what the last one saw.
struct Tally {
  int samples = 0;
  double sample_wall_max = 0, sample_wall_sum = 0;
  size_t procs = 0;
  int threads = 0, sampled = 0, futex = 0, poll = 0;

  void Add(const spinup::Sample& s, double wall) {
    sample_wall_max = std::max(sample_wall_max, wall);
    sample_wall_sum += wall;
    ++samples;
    procs = s.processes.size();
    threads = sampled = futex = poll = 0;
    for (const auto& p : s.processes) {
      threads += p.threads;
      sampled += p.threads_sampled;
      futex += p.threads_futex_wait;
      poll += p.threads_poll_wait;
    }
  }
};

void Report(const Tally& t, double wall, double cpu, const rusage& end,
            const spinup::proc::NvmlGpu& gpu) {
  std::fprintf(
      stderr, "%s\n",
      fmt::format("samples={} wall_s={:.1f} processes={} threads={} threads_read={} "
                  "futex_wait={} poll_wait={} cpu_s={:.3f} cpu_pct_of_one_core={:.3f} "
                  "peak_rss_mb={:.1f} sample_ms_avg={:.2f} sample_ms_max={:.2f} {}",
                  t.samples, wall, t.procs, t.threads, t.sampled, t.futex, t.poll, cpu,
                  wall > 0 ? 100.0 * cpu / wall : 0.0, static_cast<double>(end.ru_maxrss) / 1024.0,
                  t.samples ? 1000.0 * t.sample_wall_sum / t.samples : 0.0,
                  1000.0 * t.sample_wall_max, gpu.available() ? "gpu=nvml" : gpu.message())
          .c_str());
}

}  // namespace

int main(int argc, char** argv) {
  Args a;
  CLI::App app{"spinup_sample_driver: sample a process tree and report the sampler's own cost"};
  AddOptions(app, a);
  CLI11_PARSE(app, argc, argv);

  spinup::proc::ProcessTreeSampler sampler(SamplerOptionsFor(a));
  spinup::proc::NvmlGpu gpu;
  rusage start{};
  ::getrusage(RUSAGE_SELF, &start);
  auto t0 = std::chrono::steady_clock::now();
  auto next = t0;
  Tally tally;
  while (std::chrono::steady_clock::now() - t0 < std::chrono::duration<double>(a.duration)) {
    auto s0 = std::chrono::steady_clock::now();
    spinup::Sample s = TakeSample(a, sampler, gpu);
    tally.Add(s, std::chrono::duration<double>(std::chrono::steady_clock::now() - s0).count());
    if (a.print) std::printf("%s\n", spinup::ToJson(s).dump().c_str());
    if (tally.procs == 0) break;  // the tree is gone
    next += std::chrono::duration_cast<std::chrono::steady_clock::duration>(
        std::chrono::duration<double>(a.interval));
    std::this_thread::sleep_until(next);
  }
  double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  rusage end{};
  ::getrusage(RUSAGE_SELF, &end);
  Report(tally, wall, CpuSeconds(end) - CpuSeconds(start), end, gpu);
  return tally.samples > 0 && tally.procs > 0 ? 0 : 1;
}
