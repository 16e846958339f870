#include "sink/event_replay.h"

#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <type_traits>

#include "base/json_bounded.h"
#include "sink/json_codec.h"

namespace spinup {

using nlohmann::json;

namespace {

// A number from an untrusted stream as T, or nothing when it is not a number or does not fit
// (a float cast out of range would be undefined behaviour).
template <typename T>
std::optional<T> Num(const json& v) {
  if (v.is_number_integer()) return static_cast<T>(v.get<int64_t>());
  if (v.is_number_float()) {
    double d = v.get<double>();
    if (std::is_floating_point_v<T>) return static_cast<T>(d);
    if (std::isfinite(d) && d >= static_cast<double>(std::numeric_limits<T>::min()) &&
        d < static_cast<double>(std::numeric_limits<T>::max())) {
      return static_cast<T>(d);
    }
  }
  return std::nullopt;
}

// One line of at most `max` bytes into `line`; a longer line is skipped to its end without being
// kept (std::getline would hold a 2 GiB line without a newline in memory). False at end of input.
bool ReadBoundedLine(std::istream& in, std::string& line, size_t max, bool* too_long) {
  line.clear();
  *too_long = false;
  std::streambuf* buf = in.rdbuf();
  bool any = false;
  for (int c; (c = buf->sbumpc()) != std::char_traits<char>::eof();) {
    any = true;
    if (c == '\n') return true;
    if (line.size() < max) {
      line.push_back(static_cast<char>(c));
    } else {
      *too_long = true;
    }
  }
  in.setstate(std::ios::eofbit);
  return any;
}

// Every line is untrusted: its JSON tree is bounded by structure, not only by the line cap
// (base/json_bounded.h). A verdict nests 4 deep; 4 million values cover a 16 MB line of real
// events while "[[],[],...]" of the same size is refused after one counting pass.
constexpr JsonLimits kEventLimits{32, 4'000'000};

}  // namespace

// A "progress" event measured by the sampler (bytes read) rather than an engine's bar. Read with a
// type check: `json::value` throws when an untrusted stream puts a number where a string belongs.
static bool IsMeasured(const json& j) {
  auto it = j.find("source");
  return it != j.end() && it->is_string() && it->get<std::string>() == "measured";
}

namespace {

struct ReplayState {
  ReplayStats stats;
  std::optional<Verdict> last;
  std::optional<Verdict> final_verdict;
  std::optional<int64_t> final_time;
};

// The line as a JSON object with a known "type" (into `type`); nothing, with `why`, when the line
// is to be skipped.
std::optional<BoundedJson> ParseEvent(const std::string& line, std::string* type,
                                      std::string* why) {
  auto parsed = ParseJsonBounded(line, kEventLimits);
  if (!parsed.ok() || !parsed->value.is_object()) {
    *why = parsed.ok() ? "not a JSON object" : "not a JSON object: " + parsed.status().message();
    return std::nullopt;
  }
  const json& j = parsed->value;
  auto type_it = j.find("type");
  if (type_it == j.end() || !type_it->is_string()) {
    *why = "no \"type\"";
    return std::nullopt;
  }
  *type = type_it->get<std::string>();
  static const std::set<std::string> kTypes = {"verdict", "signal", "progress", "phase", "log"};
  if (!kTypes.count(*type)) {
    *why = "unknown event type '" + *type + "'";
    return std::nullopt;
  }
  return std::move(*parsed);
}

// A verdict: kept as the last one; the final one is held back for Finish.
std::optional<std::string> ReplayVerdict(const json& j, std::optional<int64_t> time,
                                         ReplayState& st, const std::vector<Sink*>& sinks) {
  auto v = VerdictFromJson(j);
  if (!v.ok()) return "bad verdict: " + v.status().message();
  ++st.stats.verdicts;
  st.last = *v;
  if (auto fin = j.find("final"); fin != j.end() && fin->is_boolean() && fin->get<bool>()) {
    st.final_verdict = *v;
    st.final_time = time;
    st.stats.saw_final = true;
  } else {
    for (Sink* s : sinks) s->OnVerdict(*v);
  }
  return std::nullopt;
}

// Measured checkpoint progress between verdicts: the latest verdict with new numbers.
void ReplayMeasured(const json& j, ReplayState& st, const std::vector<Sink*>& sinks) {
  Verdict v = st.last.value_or(Verdict{});
  auto read = [&](const char* key, auto& out) {
    using T = typename std::remove_reference_t<decltype(out)>::value_type;
    if (auto it = j.find(key); it != j.end()) {
      if (auto n = Num<T>(*it)) out = n;
    }
  };
  read("bytes_done", v.progress.bytes_done);
  read("bytes_total", v.progress.bytes_total);
  read("bytes_per_s", v.progress.bytes_per_second);
  read("eta_seconds", v.progress.eta_seconds);
  st.last = v;
  for (Sink* sink : sinks) sink->OnVerdict(v);
}

// One event of a known type to the sinks; why it was skipped when it does not decode.
std::optional<std::string> ReplayEvent(const std::string& type, const json& j,
                                       std::optional<int64_t> time, ReplayState& st,
                                       const std::vector<Sink*>& sinks) {
  if (type == "verdict") return ReplayVerdict(j, time, st, sinks);
  if (type == "signal") {
    auto s = SampleFromJson(j);
    if (!s.ok()) return "bad signal: " + s.status().message();
    for (Sink* sink : sinks) sink->OnSample(*s);
  } else if (type == "progress" && IsMeasured(j)) {
    ReplayMeasured(j, st, sinks);
  } else if (type == "phase" || type == "progress" || type == "log") {
    auto e = LogEventFromJson(j);
    if (!e.ok()) return "bad " + type + " event: " + e.status().message();
    for (Sink* sink : sinks) sink->OnLogEvent(*e);
  }
  return std::nullopt;
}

}  // namespace

Result<ReplayStats> ReplayEventStream(std::istream& in, const std::string& name,
                                      const std::vector<Sink*>& sinks,
                                      const std::function<void(int64_t)>& set_time,
                                      std::ostream& warnings, size_t max_line_bytes) {
  ReplayState st;
  auto warn = [&](const std::string& what) {
    ++st.stats.skipped;
    warnings << fmt::format("spinup: {}:{}: {} (skipped)\n", name, st.stats.lines, what);
  };
  std::string line, type, why;
  bool too_long = false;
  while (ReadBoundedLine(in, line, max_line_bytes, &too_long)) {
    ++st.stats.lines;
    if (too_long) {
      warn("line too long");
      continue;
    }
    if (line.empty() || line.find_first_not_of(" \t\r") == std::string::npos) continue;
    std::optional<BoundedJson> event = ParseEvent(line, &type, &why);
    if (!event) {
      warn(why);
      continue;
    }
    const json& j = event->value;
    std::optional<int64_t> time;
    if (auto t = j.find("time"); t != j.end()) time = Num<int64_t>(*t);
    if (time) set_time(*time);
    if (auto bad = ReplayEvent(type, j, time, st, sinks)) {
      warn(*bad);
      continue;
    }
    ++st.stats.events;
  }
  if (!st.final_verdict) st.final_verdict = st.last;
  if (!st.final_verdict) return Status::Corrupt(name + ": no verdict in the event stream");
  if (st.final_time)
    set_time(*st.final_time);  // lines after the final verdict do not move its time
  for (Sink* s : sinks) s->Finish(*st.final_verdict);
  return st.stats;
}

}  // namespace spinup
