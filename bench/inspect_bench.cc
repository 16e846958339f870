// inspect on the sparse 39-shard, 37,203-tensor, ~238 GB checkpoint (generated once into a
// temporary folder; its data is a hole, so it costs no disk). Prints time per inspect.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "format/checkpoint_writer.h"
#include "spinup/checkpoint.h"
#include "spinup/inspect.h"

namespace {

namespace fs = std::filesystem;

const fs::path& SparseCheckpoint() {
  static const fs::path dir = [] {
    const char* tmp = std::getenv("TMPDIR");
    fs::path d =
        fs::path(tmp && *tmp ? tmp : "/tmp") / ("spinup-inspect-bench-" + std::to_string(getpid()));
    spinup::Status st = spinup::gen::WriteCheckpoint(d, spinup::gen::SparseSpec({}));
    if (!st.ok()) {
      std::fprintf(stderr, "inspect_bench: %s\n", st.message().c_str());
      std::exit(1);
    }
    std::atexit([] {
      std::error_code ec;
      fs::remove_all(dir, ec);
    });
    return d;
  }();
  return dir;
}

void BM_InspectSparse39Shards(benchmark::State& state) {
  const fs::path& dir = SparseCheckpoint();
  spinup::InspectSettings settings;
  settings.tp = 8;
  settings.gpu_mem_bytes = 96ULL << 30;
  settings.read_bytes_per_s = 500e6;
  uint64_t tensors = 0, bytes = 0;
  for (auto _ : state) {
    auto ck = spinup::LoadCheckpoint(dir);
    if (!ck.ok()) {
      state.SkipWithError(ck.status().message().c_str());
      return;
    }
    auto report = spinup::BuildInspectReport(*ck, settings);
    std::string json = spinup::InspectReportJson(report);
    benchmark::DoNotOptimize(json);
    tensors = report.tensors;
    bytes = report.file_bytes;
  }
  state.counters["shards"] = 39;
  state.counters["tensors"] = static_cast<double>(tensors);
  state.counters["apparent_GB"] = static_cast<double>(bytes) / 1e9;
}
BENCHMARK(BM_InspectSparse39Shards)->Unit(benchmark::kMillisecond)->MinTime(2.0);

}  // namespace

BENCHMARK_MAIN();
