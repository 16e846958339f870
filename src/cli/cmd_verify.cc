// `spinup verify PATH`: runs VerifyCheckpoint; draws a progress bar only when stderr is a terminal.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <memory>
#include <ostream>

#include "base/one_line.h"
#include "base/units.h"
#include "cli/cli.h"
#include "cli/exit_codes.h"
#include "spinup/checkpoint.h"

namespace spinup {

namespace {
struct VerifyFlags {
  std::string path;
  bool hash = false;
  bool json = false;
};
}  // namespace

void AddVerifyCommand(CLI::App& app, CliContext& ctx) {
  auto flags = std::make_shared<VerifyFlags>();
  auto* sub = app.add_subcommand(
      "verify",
      "Check that a checkpoint is whole, without modifying it (exit 0 whole, 1 problems)");
  sub->add_option("PATH", flags->path,
                  "model folder, one .safetensors file, or HF cache folder models--org--name")
      ->required();
  sub->add_flag("--hash", flags->hash, "SHA-256 every shard (in parallel), compare with HF blobs");
  sub->add_flag("--json", flags->json, "print one JSON object (docs/verify.md)")->group("Output");
  sub->footer("Example:\n  spinup verify --hash ~/.cache/huggingface/hub/models--Qwen--Qwen2.5-7B");
  sub->callback([flags, &ctx] {
    auto ck = LoadCheckpoint(flags->path);
    if (!ck.ok()) {
      *ctx.err << "spinup: " << OneLine(ck.status().message()) << "\n";
      ctx.exit_code = ExitCodeFor(ck.status());
      return;
    }
    VerifyOptions options;
    options.hash = flags->hash;
    bool drew = false;
    if (flags->hash && ctx.err_is_tty) {
      options.progress = [&ctx, &drew](uint64_t done, uint64_t total) {
        constexpr int kWidth = 30;
        int filled = total ? static_cast<int>(done * kWidth / total) : kWidth;
        *ctx.err << fmt::format("\rhashing [{:<{}}] {} / {}   ", std::string(filled, '#'), kWidth,
                                FormatBytes(done), FormatBytes(total))
                 << std::flush;
        drew = true;
      };
    }
    VerifyReport report = VerifyCheckpoint(*ck, options);
    if (drew) *ctx.err << "\r\033[K" << std::flush;
    *ctx.out << (flags->json ? VerifyReportJson(report) : VerifyReportText(report));
    ctx.exit_code = report.ok ? kExitOk : kExitProblem;
  });
}

}  // namespace spinup
