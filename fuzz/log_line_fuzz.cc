// Fuzzes the line parser and the whole log path (LogStream → tracker → judge → sinks) with
// arbitrary bytes, fed in chunks whose sizes come from the input itself; checks that the rule
// matcher's fast path agrees with running every rule.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "diagnose/startup_session.h"
#include "logs/csv_export.h"
#include "logs/export_rows.h"
#include "logs/gpu_oom_figures.h"
#include "logs/line_parser.h"
#include "logs/reported_wait.h"
#include "logs/rich_traceback.h"
#include "logs/rules.h"
#include "logs/smi_row.h"
#include "logs/wrapped_lines.h"
#include "sink/explain_json.h"
#include "sink/explain_text.h"

namespace {

const spinup::RuleSet& Rules() {
  static spinup::RuleSet* rules =
      new spinup::RuleSet(std::move(spinup::RuleSet::LoadEmbedded()).value());
  return *rules;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view in(reinterpret_cast<const char*>(data), size);

  // The pure functions on the raw input.
  std::string scratch;
  std::string_view clean = spinup::CleanLine(in, &scratch);
  spinup::ParsedLine p = spinup::ParseLine(clean);
  if (p.message.size() > clean.size()) __builtin_trap();
  (void)spinup::ParseTqdm(p.message);
  (void)spinup::ReportedWaitSeconds(in);
  if (auto csv = spinup::ReadCsvHeader(in); csv && (csv->time < 0 || csv->message < 0)) {
    __builtin_trap();
  }
  spinup::CivilTime portal;
  if (spinup::ParseUsPortalTime(in, portal) && (portal.month < 1 || portal.month > 12)) {
    __builtin_trap();
  }
  std::string exported;
  if (auto row = spinup::ExportedLine(in, &exported); row && row->size() > size) __builtin_trap();
  if (auto oom = spinup::ParseGpuOomFigures(in);
      oom && (oom->free_bytes > oom->total_bytes || oom->HeldElsewhereBytes() < 0)) {
    __builtin_trap();
  }
  if (auto smi = spinup::ParseSmiDeviceRow(in); smi && smi->utilization_percent < 0)
    __builtin_trap();
  if (auto last = spinup::ParseLastTqdm(p.message); last && last->end > p.message.size()) {
    __builtin_trap();
  }
  // A rich traceback's rows (rich_traceback.h): every line of the input one row.
  spinup::RichTraceback rich;
  std::string frame;
  for (size_t at = 0; at < size;) {
    const size_t nl = std::min(in.find('\n', at), size);
    if (rich.Offer(in.substr(at, nl - at), &frame) && frame.size() > size + 64) __builtin_trap();
    at = nl + 1;
  }
  // The rule matcher's fast path must agree with running every rule's regex.
  std::vector<int> fast, every;
  Rules().Match(p.message, &fast);
  Rules().MatchEveryRule(p.message, &every);
  if (fast != every) __builtin_trap();
  // Each engine's subset: the same answer less the other engines' rules.
  for (std::string_view engine : {"sglang", "vllm", "no.such.engine"}) {
    std::vector<int> want;
    for (int i : every) {
      const auto& r = Rules().rules()[static_cast<size_t>(i)];
      if (r.engine == "generic" || r.engine == engine) want.push_back(i);
    }
    Rules().Match(p.message, &fast, Rules().EngineSubset(engine));
    if (fast != want) __builtin_trap();
  }
  Rules().Match(in.substr(0, 4096), &fast);
  Rules().MatchEveryRule(in.substr(0, 4096), &every);
  if (fast != every) __builtin_trap();
  // A terminal's wrap (wrapped_lines.h): the input's halves as a record and its next line.
  const std::string_view head = in.substr(0, size / 2), rest = in.substr(size / 2);
  const spinup::Unfinished kind = spinup::UnfinishedRecord(head);
  (void)spinup::ContinuesRecord(head, kind, rest);
  (void)spinup::ContinuesRecord(head, spinup::Unfinished::kWidth, rest);
  (void)spinup::ContinuesRecord(head, spinup::Unfinished::kFrameName, rest);
  if (spinup::Columns(in) > size) __builtin_trap();
  (void)spinup::ParseTimeArg(in.substr(0, 64));
  (void)spinup::CanonicalRank(in.substr(0, 128));

  // The stream, chunked by the first byte; small line cap so truncation is exercised.
  spinup::SessionOptions opt;
  opt.reference_year = 2026;
  size_t chunk = size ? (data[0] % 61) + 1 : 1;
  spinup::StartupSession session(Rules(), opt);
  for (size_t i = 0; i < size; i += chunk) session.OnLogText(0, in.substr(i, chunk), std::nullopt);
  session.OnSourceEnd(0, std::nullopt);
  std::optional<int64_t> now;
  if (size > 1 && data[1] & 1) now = int64_t{1773057713000};
  spinup::Verdict v = session.Evaluate(now);
  std::ostringstream out;
  spinup::WriteExplainText(v, {}, out);
  (void)spinup::ExplainJson(v).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  return 0;
}
