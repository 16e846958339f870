// `spinup history [--model M] [--json]` and `spinup history show ID [--json] [--html F]`: the
// starts recorded on this host (docs/history.md). Reads only: never creates the database.
#include <CLI/CLI.hpp>
#include <memory>
#include <ostream>

#include "base/safe_write.h"
#include "cli/cli.h"
#include "cli/exit_codes.h"
#include "cli/history_flags.h"
#include "history/history_render.h"
#include "history/predict.h"
#include "history/store.h"
#include "sink/html_report.h"

namespace spinup {

namespace {

struct HistoryArgs {
  HistoryFlags history;
  std::string model;
  std::string host;
  int limit = 20;
  bool json = false;
  // show
  HistoryFlags show_history;
  int64_t id = 0;
  bool show_json = false;
  std::string html;
};

std::unique_ptr<HistoryStore> OpenForReading(const HistoryFlags& flags, CliContext& ctx) {
  HistoryStoreOptions o;
  o.read_only = true;
  auto store = HistoryStore::Open(ResolveHistoryPath(flags, ctx.settings.history_dir), o);
  if (!store.ok()) {
    *ctx.err << "spinup: history: " << store.status().message() << "\n";
    ctx.exit_code = kExitUsage;
    return nullptr;
  }
  return std::move(*store);
}

void ListStarts(const HistoryArgs& a, CliContext& ctx) {
  auto store = OpenForReading(a.history, ctx);
  if (!store) return;
  HistoryQuery q;
  q.model = a.model;
  q.host = a.host;
  q.limit = a.limit;
  auto starts = store->Recent(q);
  if (!starts.ok()) {
    *ctx.err << "spinup: history: " << starts.status().message() << "\n";
    ctx.exit_code = kExitProblem;
    return;
  }
  // The budgets the next start of the newest start's kind would get (with --model: that model).
  BudgetBook book;
  if (!starts->empty()) book = LearnBudgets(*starts, KeyOf(starts->front()));
  if (a.json) {
    nlohmann::json j = HistoryListJson(*starts);
    j["learned_budgets"] = BudgetBookJson(book);
    *ctx.out << j.dump(2) << "\n";
  } else {
    *ctx.out << HistoryListText(*starts);
    if (!a.model.empty()) *ctx.out << "\n" << BudgetBookText(book);
  }
  ctx.exit_code = kExitOk;
}

void ShowStart(const HistoryArgs& a, CliContext& ctx) {
  const HistoryFlags& flags = a.show_history.path.empty() ? a.history : a.show_history;
  auto store = OpenForReading(flags, ctx);
  if (!store) return;
  auto start = store->Get(a.id);
  if (!start.ok() || !*start) {
    *ctx.err << "spinup: history: "
             << (start.ok() ? "no start " + std::to_string(a.id) + " in " + store->path().string()
                            : start.status().message())
             << "\n";
    ctx.exit_code = start.ok() ? kExitUsage : kExitProblem;
    return;
  }
  const StartRecord& r = **start;
  HistoryQuery q;
  q.model = r.model;
  if (r.fingerprint) q.header_hash = r.fingerprint->header_hash;
  q.limit = 200;
  auto past = store->Recent(q);
  RegressionReport reg = past.ok() ? FindRegressions(r, *past) : RegressionReport{};
  if (!a.html.empty()) {
    Status st = WriteFileAtomically(a.html, RenderHtmlReport(StartReportData(r)));
    if (!st.ok()) {
      *ctx.err << "spinup: --html: " << st.message() << "\n";
      ctx.exit_code = kExitUsage;
      return;
    }
  }
  if (a.show_json) {
    *ctx.out << StartDetailJson(r, reg).dump(2) << "\n";
  } else {
    *ctx.out << StartDetailText(r, reg);
  }
  ctx.exit_code = kExitOk;
}

}  // namespace

void AddHistoryCommand(CLI::App& app, CliContext& ctx) {
  auto args = std::make_shared<HistoryArgs>();
  auto* sub = app.add_subcommand(
      "history",
      "The starts recorded on this host (by run, watch and explain --record): per-phase times, "
      "medians and trend. `history show ID` for one start. Exit: 0, 2 no database / no such "
      "start.");
  AddHistoryFlags(*sub, args->history, false);
  sub->add_option("--model", args->model, "only this model (its path, or the folder's name)");
  sub->add_option("--host", args->host, "only starts on this host");
  sub->add_option("--limit", args->limit, "at most this many starts (default 20)")
      ->check(CLI::Range(1, 100000));
  sub->add_flag("--json", args->json, "one JSON object (docs/history.md)");
  auto* show = sub->add_subcommand("show", "one recorded start, with its regressions");
  show->add_option("id", args->id, "the start's ID (from `spinup history`)")->required();
  show->add_flag("--json", args->show_json, "one JSON object");
  show->add_option("--html", args->html, "also write the start's HTML report to this file");
  AddHistoryFlags(*show, args->show_history, false);
  show->footer("Example:\n  spinup history show 3 --html s.html");
  sub->footer(
      "Example:\n  spinup history --model Llama-3.1-70B; spinup history show 3 --html s.html");
  sub->callback([args, &ctx, show] {
    if (show->parsed()) {
      ShowStart(*args, ctx);
    } else {
      ListStarts(*args, ctx);
    }
  });
}

}  // namespace spinup
