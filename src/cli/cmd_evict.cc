// `spinup evict PATH`: drops a checkpoint's files from the page cache (no root needed).
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

struct EvictFlags {
  std::string path;
  bool json = false;
};

void RunEvict(const EvictFlags& f, CliContext& ctx) {
  auto set = ResolveCheckpointReadSet(f.path);
  if (!set.ok()) return ReportReaderError(ctx, set.status());
  NoteMissingShards(ctx, *set);
  const std::vector<CheckpointFile>* files = &set->files;
  auto r = EvictAndMeasure(*files);
  if (!r.ok()) return ReportReaderError(ctx, r.status());
  if (f.json) {
    *ctx.out << DumpJson(nlohmann::json{{"files", files->size()},
                                        {"bytes", r->before.total_bytes},
                                        {"resident_bytes_before", r->before.resident_bytes},
                                        {"resident_bytes_after", r->after.resident_bytes},
                                        {"resident_fraction_before", r->before.fraction()},
                                        {"resident_fraction_after", r->after.fraction()}})
             << "\n";
  } else {
    *ctx.out << fmt::format(
        "evicted {} file(s), {}: resident before {} ({:.1f}%), after {} ({:.1f}%)\n", files->size(),
        HumanBytes(r->before.total_bytes), HumanBytes(r->before.resident_bytes),
        r->before.fraction() * 100, HumanBytes(r->after.resident_bytes), r->after.fraction() * 100);
    if (r->after.resident_bytes > 0 && r->after.fraction() > 0.01) {
      *ctx.err << "spinup: note: the kernel kept some pages (dirty, mapped by a running process, "
                  "or a file system that ignores the advice, like tmpfs)\n";
    }
  }
  ctx.exit_code = kExitOk;
}

}  // namespace

void AddEvictCommand(CLI::App& app, CliContext& ctx) {
  auto flags = std::make_shared<EvictFlags>();
  auto* sub = app.add_subcommand("evict", "Drop a checkpoint's files from the page cache");
  sub->add_option("path", flags->path,
                  "model folder, one .safetensors file, or HF cache folder models--org--name")
      ->required();
  sub->add_flag("--json", flags->json, "one JSON object on stdout")->group("Output");
  sub->footer("Example:\n  spinup evict /models/Llama-3.1-70B");
  sub->callback([flags, &ctx] { RunEvict(*flags, ctx); });
}

}  // namespace spinup
