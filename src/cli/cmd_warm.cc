// `spinup warm PATH`: brings a checkpoint into the page cache before the server's own load;
// `spinup warm --check PATH` only reports residency.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <memory>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "base/json_dump.h"
#include "base/one_line.h"
#include "cli/cli.h"
#include "cli/exit_codes.h"
#include "cli/reader_cli.h"
#include "format/read_set.h"
#include "io/reader_tasks.h"

namespace spinup {
namespace {

struct WarmFlags {
  std::string path;
  ReaderFlags reader;
  bool check = false;
  bool json = false;
};

void RunCheck(const WarmFlags& f, const std::vector<CheckpointFile>& files, CliContext& ctx) {
  auto res = MeasureResidency(Paths(files));
  if (!res.ok()) return ReportReaderError(ctx, res.status());
  if (f.json) {
    nlohmann::json shards = nlohmann::json::array();
    for (const auto& s : res->files) {
      shards.push_back({{"path", s.path},
                        {"bytes", s.size},
                        {"resident_bytes", s.resident_bytes},
                        {"resident_fraction", s.fraction()}});
    }
    *ctx.out << DumpJson(nlohmann::json{{"files", shards},
                                        {"bytes", res->total_bytes},
                                        {"resident_bytes", res->resident_bytes},
                                        {"resident_fraction", res->fraction()}})
             << "\n";
  } else {
    for (const auto& s : res->files) {
      *ctx.out << fmt::format("{:6.1f}%  {:>12} / {:<12} {}\n", s.fraction() * 100,
                              HumanBytes(s.resident_bytes), HumanBytes(s.size), OneLine(s.path));
    }
    *ctx.out << fmt::format("{:6.1f}%  {:>12} / {:<12} total ({} files)\n", res->fraction() * 100,
                            HumanBytes(res->resident_bytes), HumanBytes(res->total_bytes),
                            res->files.size());
  }
  ctx.exit_code = kExitOk;
}

void RunWarm(const WarmFlags& f, CliContext& ctx) {
  auto resolved = ResolveReaderFlags(f.reader);
  if (!resolved.ok()) return ReportReaderError(ctx, resolved.status());
  ReaderOptions opt = *resolved;
  auto set = ResolveCheckpointReadSet(f.path);
  if (!set.ok()) return ReportReaderError(ctx, set.status());
  NoteMissingShards(ctx, *set);
  const std::vector<CheckpointFile>* files = &set->files;
  if (f.check) return RunCheck(f, *files, ctx);
  ReadControl control;
  Result<WarmResult> r = Status::Internal("not run");
  {
    ProgressBar bar(*ctx.err, control, ctx.err_is_tty && !f.json);
    r = WarmFiles(*files, opt, &control);
  }
  if (!r.ok()) return ReportReaderError(ctx, r.status());
  if (f.json) {
    *ctx.out << DumpJson(nlohmann::json{{"bytes", r->bytes},
                                        {"already_resident_bytes", r->already_resident_bytes},
                                        {"read_bytes", r->read_bytes},
                                        {"seconds", r->seconds},
                                        {"bytes_per_s", r->bytes_per_s},
                                        {"resident_fraction", r->resident_fraction},
                                        {"files", files->size()},
                                        {"backend", ReadBackendName(r->read.backend)},
                                        {"threads", r->read.threads},
                                        {"block_bytes", r->read.block_bytes},
                                        {"notes", r->read.notes}})
             << "\n";
  } else {
    for (const auto& n : r->read.notes) *ctx.err << "spinup: note: " << n << "\n";
    *ctx.out << fmt::format(
        "warmed {} in {} file(s) in {:.3f} s: read {} at {}, {} was already resident; now "
        "{:.1f}% resident\n",
        HumanBytes(r->bytes), files->size(), r->seconds, HumanBytes(r->read_bytes),
        HumanRate(r->bytes_per_s), HumanBytes(r->already_resident_bytes),
        r->resident_fraction * 100);
    if (r->resident_fraction < 0.99 && r->bytes > 0) {
      *ctx.err << "spinup: note: the page cache did not keep the whole checkpoint (too little "
                  "free memory?); the server will read the rest from storage\n";
    }
  }
  ctx.exit_code = kExitOk;
}

}  // namespace

void AddWarmCommand(CLI::App& app, CliContext& ctx) {
  auto flags = std::make_shared<WarmFlags>();
  auto* sub = app.add_subcommand(
      "warm",
      "Bring a checkpoint into the page cache at full storage speed (--check: report only)");
  sub->add_option("path", flags->path,
                  "model folder, one .safetensors file, or HF cache folder models--org--name")
      ->required();
  AddReaderFlags(*sub, flags->reader);
  sub->add_flag("--check", flags->check, "only report residency per shard and overall");
  sub->add_flag("--json", flags->json, "one JSON object on stdout")->group("Output");
  sub->footer("Example:\n  spinup warm /models/Llama-3.1-70B && systemctl start sglang");
  sub->callback([flags, &ctx] { RunWarm(*flags, ctx); });
}

}  // namespace spinup
