// Per-backend throughput of the reader on page-cached data (the warm case: no device in the way),
// into caller memory and into the sink. Cold-cache figures come from bench/read-throughput.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "spinup/reader.h"

namespace {

constexpr uint64_t kFileBytes = 256ull << 20;

const std::string& DataFile() {
  static const std::string path = [] {
    std::string p = (std::filesystem::temp_directory_path() /
                     ("spinup-reader-bench-" + std::to_string(::getpid()) + ".bin"))
                        .string();
    std::ofstream out(p, std::ios::binary);
    std::vector<char> block(1 << 20);
    for (size_t i = 0; i < block.size(); ++i) block[i] = static_cast<char>(i * 31 + 7);
    for (uint64_t done = 0; done < kFileBytes; done += block.size()) {
      out.write(block.data(), static_cast<std::streamsize>(block.size()));
    }
    std::atexit([] { std::remove(DataFile().c_str()); });
    return p;
  }();
  return path;
}

void BM_Read(benchmark::State& state, spinup::ReadBackend backend, int threads, bool sink) {
  auto plan = spinup::PlanWholeFiles({DataFile()});
  if (!plan.ok()) {
    state.SkipWithError(plan.status().message().c_str());
    return;
  }
  std::vector<std::byte> dest(sink ? 0 : plan->DestBytes());
  spinup::ReaderOptions opt;
  opt.backend = backend;
  opt.threads = threads;
  for (auto _ : state) {
    auto r = sink ? spinup::ReadToSink(*plan, opt) : spinup::ReadInto(*plan, dest, opt);
    if (!r.ok()) {
      state.SkipWithError(r.status().message().c_str());
      return;
    }
    benchmark::DoNotOptimize(dest.data());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * kFileBytes));
}

BENCHMARK_CAPTURE(BM_Read, uring_into, spinup::ReadBackend::kUring, 0, false)->UseRealTime();
BENCHMARK_CAPTURE(BM_Read, uring_sink, spinup::ReadBackend::kUring, 0, true)->UseRealTime();
BENCHMARK_CAPTURE(BM_Read, pread_into, spinup::ReadBackend::kPread, 0, false)->UseRealTime();
BENCHMARK_CAPTURE(BM_Read, pread_sink, spinup::ReadBackend::kPread, 0, true)->UseRealTime();
BENCHMARK_CAPTURE(BM_Read, mmap_into_1thread, spinup::ReadBackend::kMmap, 1, false)->UseRealTime();
BENCHMARK_CAPTURE(BM_Read, mmap_into_2threads, spinup::ReadBackend::kMmap, 2, false)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
