// `spinup inspect PATH`: flags become InspectSettings here; the work is in the library
// (LoadCheckpoint, BuildInspectReport, the renderers).
#include <CLI/CLI.hpp>
#include <memory>
#include <ostream>

#include "base/one_line.h"
#include "base/units.h"
#include "cli/cli.h"
#include "cli/exit_codes.h"
#include "io/reader_tasks.h"
#include "spinup/inspect.h"

namespace spinup {

namespace {
struct InspectFlags {
  std::string path;
  uint32_t tp = 1;
  std::string gpu_mem;
  std::string read_bw;
  bool json = false;
  bool measure_read = false;
};
}  // namespace

void AddInspectCommand(CLI::App& app, CliContext& ctx) {
  auto flags = std::make_shared<InspectFlags>();
  auto* sub = app.add_subcommand(
      "inspect",
      "What a checkpoint holds, what each TP rank holds, whether it fits and how long reading "
      "takes (reads headers only)");
  sub->add_option("PATH", flags->path,
                  "model folder, one .safetensors file, or HF cache folder models--org--name")
      ->required();
  sub->add_option("--tp", flags->tp, "tensor-parallel size (default 1)")
      ->check(CLI::Range(1, 65536))
      ->group("Estimate");
  sub->add_option("--gpu-mem", flags->gpu_mem, "memory per GPU, e.g. 80GB, 96GiB")
      ->group("Estimate");
  sub->add_option("--read-bw", flags->read_bw, "storage read rate, e.g. 500MB/s, 2.2GB/s")
      ->group("Estimate");
  sub->add_flag("--measure-read", flags->measure_read,
                "read a bounded sample (1 GiB at most) cold to measure the read rate "
                "(docs/reader.md)")
      ->group("Estimate");
  sub->add_flag("--json", flags->json, "print one JSON object (docs/inspect.md)")->group("Output");
  sub->footer("Example:\n  spinup inspect /models/Llama-3.1-70B --tp 4 --gpu-mem 80GB");
  sub->callback([flags, &ctx] {
    InspectSettings settings;
    settings.tp = flags->tp;
    if (!flags->gpu_mem.empty()) {
      auto v = ParseByteSize(flags->gpu_mem);
      if (!v.ok()) {
        *ctx.err << "spinup: --gpu-mem: " << v.status().message() << "\n";
        ctx.exit_code = kExitUsage;
        return;
      }
      settings.gpu_mem_bytes = *v;
    }
    if (!flags->read_bw.empty()) {
      auto v = ParseByteRate(flags->read_bw);
      if (!v.ok()) {
        *ctx.err << "spinup: --read-bw: " << v.status().message() << "\n";
        ctx.exit_code = kExitUsage;
        return;
      }
      settings.read_bytes_per_s = *v;
      settings.read_bw_source = "flag";
    }
    auto ck = LoadCheckpoint(flags->path);
    if (!ck.ok()) {
      *ctx.err << "spinup: " << OneLine(ck.status().message()) << "\n";
      ctx.exit_code = ExitCodeFor(ck.status());
      return;
    }
    if (flags->measure_read && !settings.read_bytes_per_s) {
      std::vector<CheckpointFile> files;
      for (const auto& shard : ck->shards) {
        if (shard.present) files.push_back({shard.path.string(), shard.file_size});
      }
      auto measured = MeasureReadRate(files, kMeasureReadSampleBytes, ReaderOptions{});
      if (!measured.ok()) {
        *ctx.err << "spinup: " << measured.status().message() << "\n";
        ctx.exit_code = kExitProblem;
        return;
      }
      if (measured->bytes_per_s > 0) {  // an empty checkpoint has no rate to measure
        settings.read_bytes_per_s = measured->bytes_per_s;
        settings.read_bw_source = "measured";
      }
    }
    InspectReport report = BuildInspectReport(*ck, settings);
    *ctx.out << (flags->json ? InspectReportJson(report) : InspectReportText(report));
    ctx.exit_code = kExitOk;
  });
}

}  // namespace spinup
