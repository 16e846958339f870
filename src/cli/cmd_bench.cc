// `spinup bench PATH`: measures how fast the checkpoint files under PATH can be read.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <memory>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "base/json_dump.h"
#include "cli/cli.h"
#include "cli/exit_codes.h"
#include "cli/reader_cli.h"
#include "format/read_set.h"
#include "io/reader_tasks.h"

namespace spinup {
namespace {

struct BenchFlags {
  std::string path;
  bool direct = false;
  bool buffered = false;
  ReaderFlags reader;
  bool cold = false;
  bool json = false;
};

void RunBench(const BenchFlags& f, CliContext& ctx) {
  auto resolved = ResolveReaderFlags(f.reader);
  if (!resolved.ok()) return ReportReaderError(ctx, resolved.status());
  ReaderOptions opt = *resolved;
  opt.direct = !f.buffered;  // O_DIRECT unless --buffered: bench measures the storage
  auto set = ResolveCheckpointReadSet(f.path);
  if (!set.ok()) return ReportReaderError(ctx, set.status());
  NoteMissingShards(ctx, *set);
  const std::vector<CheckpointFile>* files = &set->files;
  ReadControl control;
  Result<BenchResult> r = Status::Internal("not run");
  {
    ProgressBar bar(*ctx.err, control, ctx.err_is_tty && !f.json);
    r = BenchRead(*files, opt, f.cold, &control);
  }
  if (!r.ok()) return ReportReaderError(ctx, r.status());
  const ReadReport& rep = r->read;
  const double rate = rep.seconds > 0 ? double(rep.bytes) / rep.seconds : 0;
  if (f.json) {
    nlohmann::json j = {{"bytes", rep.bytes},
                        {"seconds", rep.seconds},
                        {"bytes_per_s", rate},
                        {"backend", ReadBackendName(rep.backend)},
                        {"direct", rep.direct},
                        {"threads", rep.threads},
                        {"queue_depth", rep.queue_depth},
                        {"block_bytes", rep.block_bytes},
                        {"files", files->size()},
                        {"cold", r->cold},
                        {"notes", rep.notes}};
    if (r->cold) j["resident_fraction_before"] = r->resident_fraction_before;
    *ctx.out << DumpJson(j) << "\n";
  } else {
    for (const auto& n : rep.notes) *ctx.err << "spinup: note: " << n << "\n";
    *ctx.out << fmt::format(
        "read {} ({} bytes) from {} file(s) in {:.3f} s: {}\n"
        "backend {}, {}, {} thread(s), queue depth {}, block {}{}\n",
        HumanBytes(rep.bytes), rep.bytes, files->size(), rep.seconds, HumanRate(rate),
        ReadBackendName(rep.backend), rep.direct ? "O_DIRECT" : "buffered", rep.threads,
        rep.queue_depth, HumanBytes(rep.block_bytes),
        r->cold
            ? fmt::format(", cold (resident before: {:.1f}%)", r->resident_fraction_before * 100)
            : "");
  }
  ctx.exit_code = kExitOk;
}

}  // namespace

void AddBenchCommand(CLI::App& app, CliContext& ctx) {
  auto flags = std::make_shared<BenchFlags>();
  auto* sub = app.add_subcommand("bench", "Measure the read bandwidth of a checkpoint's files");
  sub->add_option("path", flags->path,
                  "model folder, one .safetensors file, or HF cache folder models--org--name")
      ->required();
  auto* direct = sub->add_flag("--direct", flags->direct, "read with O_DIRECT (default)");
  sub->add_flag("--buffered", flags->buffered, "read through the page cache")->excludes(direct);
  AddReaderFlags(*sub, flags->reader);
  sub->add_flag("--cold", flags->cold, "drop the files from the page cache first");
  sub->add_flag("--json", flags->json, "one JSON object on stdout")->group("Output");
  sub->footer("Example:\n  spinup bench --cold /models/Llama-3.1-70B");
  sub->callback([flags, &ctx] { RunBench(*flags, ctx); });
}

}  // namespace spinup
