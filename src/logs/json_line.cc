#include "logs/json_line.h"

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <nlohmann/json.hpp>
#include <vector>

#include "logs/text_scan.h"

namespace spinup {
namespace {

using json = nlohmann::json;

// The fields of a log object that spinup reads, as the SAX parser goes by (no document is
// built: that cost about 40,000 instructions a line). Each field keeps the last value its key
// was given, as the document would, and whether that value is a string.
class LogFields : public nlohmann::json_sax<json> {
 public:
  // Top-level keys, in the order each group is tried; then the two read inside "fields".
  enum Slot {
    kMessage,
    kMsg,
    kLog,
    kMESSAGE,
    kTextPayload,  // the message (Google Cloud Logging's export)
    kLine,         // Grafana Loki's `logcli -o jsonl`
    kAtMessage,    // CloudWatch Logs' export
    kAzureLog,     // Azure Container Apps' console log
    kTimestamp,
    kTime,
    kTs,
    kAtTimestamp,
    kAsctime,  // the time (Python logging's asctime, as python-json-logger keeps it)
    kLevel,
    kLevelname,
    kSeverity,   // the level
    kFieldsKey,  // "fields" ("attributes", "_source"): an object holding the message
    kSpanKey,    // "span": tracing's current span (TGI: {"rank":0,"name":"shard-manager"})
    kSpansKey,   // "spans": tracing's span list, outermost first
    kExcInfo,    // python-json-logger's formatted traceback, after the message
    kRealtime,   // `journalctl -o json`'s "__REALTIME_TIMESTAMP" (microseconds since the epoch)
    kSyslogIdentifier,  // and its "SYSLOG_IDENTIFIER" (the program: "systemd" for the unit's lines)
    kTopSlots,
    kFieldsMessage = kTopSlots,
    kFieldsMsg,  // inside "fields"
    kSpanRank,   // inside "span", or an object of "spans" (the last one that has it)
    kSpanName,
    kSlots
  };
  struct Field {
    bool is_string = false;
    std::string value;
  };
  const Field& at(Slot s) const { return fields_[s]; }
  // The span's rank and name: "span" wins over "spans", whose innermost rank counts.
  const std::string& span_rank() const { return span_rank_; }
  const std::string& span_name() const { return span_name_; }
  bool fields_is_object() const { return fields_is_object_; }

  bool null() override { return Value(nullptr); }
  bool boolean(bool) override { return Value(nullptr); }
  bool number_integer(number_integer_t v) override {
    if (v >= 0 && SpanField()) return Number(static_cast<uint64_t>(v));
    return Value(nullptr);
  }
  bool number_unsigned(number_unsigned_t v) override {
    if (SpanField()) return Number(v);
    return Value(nullptr);
  }
  bool number_float(number_float_t, const string_t&) override { return Value(nullptr); }
  bool string(string_t& val) override {
    if (SpanField()) {
      Span(val);
      key_ = -1;
      return true;
    }
    return Value(&val);
  }
  bool binary(binary_t&) override { return Value(nullptr); }
  bool start_object(std::size_t) override {
    const bool fields = stack_.size() == 1 && key_ == kFieldsKey;
    const bool span =
        (stack_.size() == 1 && key_ == kSpanKey) || (stack_.size() == 2 && stack_[1] == 'S');
    Value(nullptr);
    if (fields) fields_is_object_ = true;
    stack_.push_back(fields ? 'f' : span ? 's' : 'o');
    return true;
  }
  bool start_array(std::size_t) override {
    const bool spans = stack_.size() == 1 && key_ == kSpansKey;
    Value(nullptr);
    stack_.push_back(spans ? 'S' : 'a');
    return true;
  }
  bool end_object() override { return Pop(); }
  bool end_array() override { return Pop(); }
  bool key(string_t& val) override {
    key_ = -1;
    if (stack_.size() == 1) {
      // clang-format off
      static constexpr std::string_view kTop[kTopSlots] = {
          "message",   "msg",       "log",    "MESSAGE", "textPayload", "line",    "@message",
          "Log",       "timestamp", "time",   "ts",      "@timestamp",  "asctime", "level",
          "levelname", "severity",  "fields", "span",    "spans",       "exc_info",
          "__REALTIME_TIMESTAMP",   "SYSLOG_IDENTIFIER"};
      // clang-format on
      for (int k = 0; k < kTopSlots; ++k) {
        if (val == kTop[k]) key_ = k;
      }
      // Datadog's API export keeps the event's fields under "attributes", Elasticsearch's hits
      // under "_source": objects holding the message, as tracing's "fields".
      if (val == "attributes" || val == "_source") key_ = kFieldsKey;
    } else if (stack_.size() == 2 && stack_[1] == 'f') {
      if (val == "message") key_ = kFieldsMessage;
      if (val == "msg") key_ = kFieldsMsg;
    } else if (!stack_.empty() && stack_.back() == 's' && stack_.size() <= 3) {
      if (val == "rank") key_ = kSpanRank;
      if (val == "name") key_ = kSpanName;
    }
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
    return false;
  }

 private:
  bool SpanField() const {
    return (key_ == kSpanRank || key_ == kSpanName) && !stack_.empty() && stack_.back() == 's';
  }
  bool Number(uint64_t v) {
    if (key_ == kSpanRank && v < 100000) {
      std::string r = std::to_string(v);
      Span(r);
    }
    key_ = -1;
    return true;
  }
  // A rank or name inside a span: one from "span" itself is not replaced by the list's.
  void Span(const std::string& v) {
    const bool current = stack_.size() == 2;
    const int k = key_ == kSpanRank ? 0 : 1;
    if (v.size() > 32 || (!current && from_span_[k])) return;
    (k == 0 ? span_rank_ : span_name_) = v;
    if (current) from_span_[k] = true;
  }

  // A value (null: not a string) given to the key just read, when it is a field we keep.
  bool Value(string_t* val) {
    const bool top = stack_.size() == 1;
    if ((top || (stack_.size() == 2 && stack_[1] == 'f')) && key_ >= 0) {
      if (top && key_ == kFieldsKey) {  // a later "fields" replaces the earlier one
        fields_is_object_ = false;
        fields_[kFieldsMessage] = {};
        fields_[kFieldsMsg] = {};
      } else {
        fields_[key_].is_string = val != nullptr;
        if (val != nullptr) fields_[key_].value = std::move(*val);
      }
    }
    key_ = -1;
    return true;
  }
  bool Pop() {
    if (!stack_.empty()) stack_.pop_back();
    key_ = -1;
    return true;
  }

  std::array<Field, kSlots> fields_;
  std::string span_rank_, span_name_;
  bool from_span_[2] = {false, false};  // rank, name came from "span", not from "spans"
  bool fields_is_object_ = false;
  // open containers: 'o' object, 'a' array, 'f' the "fields" object, 's' a span, 'S' "spans"
  std::vector<char> stack_;
  int key_ = -1;  // the slot of the key whose value comes next, -1 for none
};

// The first of `slots` holding a string, or nullptr.
const std::string* First(const LogFields& f, std::initializer_list<LogFields::Slot> slots) {
  for (auto s : slots) {
    if (f.at(s).is_string) return &f.at(s).value;
  }
  return nullptr;
}

// Rejects deep nesting before parsing: log objects are flat or one level deep ("fields").
bool ShallowEnough(std::string_view line) {
  int depth = 0;
  size_t i = 0;
  while (i < line.size()) {
    const char c = line[i++];
    if (c == '"') {
      // To the string's closing quote, a word at a time (a message is most of the line).
      for (;;) {
        i = scan::FindEither(line, '"', '\\', i);
        if (i == std::string_view::npos) return true;  // unterminated
        if (line[i++] == '"') break;
        ++i;  // the escaped byte
      }
    } else if (c == '{' || c == '[') {
      if (++depth > 4) return false;
    } else if (c == '}' || c == ']') {
      --depth;
    }
  }
  return true;
}

// The index of the first byte of s[i..] that ends a plain run inside a JSON string ('"', '\\', a
// control byte or a byte >= 0x80), else s.size(): 8 bytes a step. Each flag's lowest byte is exact,
// so the lowest of them all is.
size_t PlainRunEnd(std::string_view s, size_t i) {
  constexpr uint64_t kOnes = 0x0101010101010101ull, kHigh = 0x80 * kOnes;
  for (; i + 8 <= s.size(); i += 8) {
    uint64_t w;
    std::memcpy(&w, s.data() + i, 8);
    const uint64_t control = (w - 0x20 * kOnes) & ~w & kHigh;
    const uint64_t hit = scan::FlagByte(w, '"') | scan::FlagByte(w, '\\') | control | (w & kHigh);
    if (hit != 0) return i + static_cast<size_t>(std::countr_zero(hit)) / 8;
  }
  for (; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c == '"' || c == '\\' || c < 0x20 || c >= 0x80) return i;
  }
  return i;
}

// A strict subset of JSON, read in a tenth of the instructions of nlohmann's lexer (which kept
// about 33,000 a line): objects, arrays, ASCII strings with the short escapes, integers and plain
// decimals, true, false, null. It drives the same SAX handler. On anything else (a \u escape, a
// byte >= 0x80, an exponent, any syntax error) Parse returns false and nlohmann's parser reads the
// line instead, so the answer is always nlohmann's: the subset only has to be right on valid JSON.
class SubsetParser {
 public:
  SubsetParser(std::string_view s, LogFields& out) : s_(s), out_(out) {}
  // True when the whole text is one valid JSON value of the subset, every part given to `out`.
  bool Parse() {
    SkipSpace();
    if (!Value(0)) return false;
    SkipSpace();
    return i_ == s_.size();
  }

 private:
  static constexpr int kMaxDepth = 8;  // ShallowEnough has allowed 4 already
  bool Value(int depth) {
    if (i_ >= s_.size() || depth > kMaxDepth) return false;
    switch (s_[i_]) {
      case '{':
        return Object(depth);
      case '[':
        return Array(depth);
      case '"':
        return String() && out_.string(text_);
      case 't':
        return Word("true") && out_.boolean(true);
      case 'f':
        return Word("false") && out_.boolean(false);
      case 'n':
        return Word("null") && out_.null();
      default:
        return Number();
    }
  }
  bool Object(int depth) {
    ++i_;
    out_.start_object(std::string_view::npos);
    SkipSpace();
    if (At('}')) return ++i_, out_.end_object();
    for (;;) {
      if (!At('"') || !String() || !out_.key(text_)) return false;
      SkipSpace();
      if (!At(':')) return false;
      ++i_;
      SkipSpace();
      if (!Value(depth + 1)) return false;
      SkipSpace();
      if (At('}')) return ++i_, out_.end_object();
      if (!At(',')) return false;
      ++i_;
      SkipSpace();
    }
  }
  bool Array(int depth) {
    ++i_;
    out_.start_array(std::string_view::npos);
    SkipSpace();
    if (At(']')) return ++i_, out_.end_array();
    for (;;) {
      if (!Value(depth + 1)) return false;
      SkipSpace();
      if (At(']')) return ++i_, out_.end_array();
      if (!At(',')) return false;
      ++i_;
      SkipSpace();
    }
  }
  // A string at s_[i_] == '"' into text_: plain runs copied at once, the short escapes decoded.
  bool String() {
    text_.clear();
    size_t from = ++i_;
    for (;;) {
      i_ = PlainRunEnd(s_, i_);
      if (i_ >= s_.size()) return false;
      const char c = s_[i_];
      // A control byte (invalid), or UTF-8 nlohmann checks.
      if (c != '"' && c != '\\') return false;
      text_.append(s_.substr(from, i_ - from));
      if (c == '"') return ++i_, true;
      if (++i_ >= s_.size()) return false;
      static constexpr std::string_view kFrom = "\"\\/bfnrt", kTo = "\"\\/\b\f\n\r\t";
      const size_t e = kFrom.find(s_[i_]);
      if (e == std::string_view::npos) return false;  // \u, or not an escape
      text_.push_back(kTo[e]);
      from = ++i_;
    }
  }
  // -?(0|[1-9][0-9]*)(\.[0-9]+)? : always a finite number (an exponent could overflow).
  // Given to the handler as nlohmann would: an integer that fits as such, anything else as a float
  // (the handler keeps only small non-negative integers: a span's rank).
  bool Number() {
    const size_t start = i_;
    const bool negative = At('-');
    if (negative) ++i_;
    if (At('0')) {
      ++i_;
    } else if (!Digits()) {
      return false;
    }
    const size_t int_end = i_;
    if (At('.')) {
      ++i_;
      if (!Digits()) return false;
    }
    if (i_ - start > 100 || At('e') || At('E')) return false;
    const size_t digits = int_end - start - (negative ? 1 : 0);
    if (int_end != i_ || digits > 18) return out_.number_float(0, {});
    uint64_t v = 0;
    for (size_t k = int_end - digits; k < int_end; ++k)
      v = v * 10 + static_cast<uint64_t>(s_[k] - '0');
    if (negative) return out_.number_integer(-static_cast<int64_t>(v));
    return out_.number_unsigned(v);
  }
  bool Digits() {
    const size_t start = i_;
    while (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9') ++i_;
    return i_ > start;
  }
  bool Word(std::string_view w) {
    if (s_.substr(i_, w.size()) != w) return false;
    i_ += w.size();
    return true;
  }
  bool At(char c) const { return i_ < s_.size() && s_[i_] == c; }
  void SkipSpace() {
    while (i_ < s_.size() &&
           (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r')) {
      ++i_;
    }
  }

  std::string_view s_;
  size_t i_ = 0;
  LogFields& out_;
  std::string text_;
};

// journald's "__REALTIME_TIMESTAMP": decimal microseconds since the epoch, as a string.
std::optional<CivilTime> EpochMicros(std::string_view digits) {
  if (digits.size() < 13 || digits.size() > 17) return std::nullopt;  // 1973 to 5138
  int64_t us = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return std::nullopt;
    us = us * 10 + (c - '0');
  }
  return UnixMsToCivil(us / 1000);
}

// The message and the other fields, from what the handler kept.
std::optional<JsonLogLine> Extract(const LogFields& f, std::string* message, bool keep_breaks) {
  using S = LogFields::Slot;
  const std::string* msg = First(f, {S::kMessage, S::kMsg, S::kLog, S::kMESSAGE, S::kTextPayload,
                                     S::kLine, S::kAtMessage, S::kAzureLog});
  if (msg == nullptr && f.fields_is_object()) msg = First(f, {S::kFieldsMessage, S::kFieldsMsg});
  if (msg == nullptr) return std::nullopt;
  std::string with_traceback;
  if (const std::string* exc = First(f, {S::kExcInfo}); exc != nullptr && !exc->empty()) {
    with_traceback.reserve(msg->size() + 1 + exc->size());
    with_traceback.append(*msg).append("\n").append(*exc);
    msg = &with_traceback;
  }
  const std::string_view m = *msg;
  message->clear();
  // Line breaks become " | " (a last one is dropped); the runs between them are copied at once.
  size_t from = 0;
  // (find_first_of with a set calls memchr on the set once per byte of the message.)
  for (size_t i = scan::FindEither(m, '\n', '\r'); i != std::string_view::npos;
       i = scan::FindEither(m, '\n', '\r', from)) {
    message->append(m.substr(from, i - from));
    if (i + 1 < m.size()) message->append(keep_breaks ? "\n" : " | ");
    from = i + 1;
  }
  message->append(m.substr(std::min(from, m.size())));
  JsonLogLine out;
  if (const std::string* t =
          First(f, {S::kTimestamp, S::kTime, S::kTs, S::kAtTimestamp, S::kAsctime})) {
    out.time = ParseRfc3339Time(*t);
  }
  if (const std::string* us = First(f, {S::kRealtime}); !out.time && us != nullptr) {
    out.time = EpochMicros(*us);
  }
  if (const std::string* ident = First(f, {S::kSyslogIdentifier})) out.ident = ident->substr(0, 64);
  if (const std::string* l = First(f, {S::kLevel, S::kLevelname, S::kSeverity})) {
    out.level = l->substr(0, 16);
    for (auto& c : out.level) {
      if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    }
  }
  if (!f.span_rank().empty()) {
    // TGI's shard managers carry the shard's number: named as its plain-text rules name it.
    const bool shard = f.span_name().find("shard") != std::string::npos;
    out.rank = (shard ? "shard" : "rank") + f.span_rank();
  }
  return out;
}

std::optional<JsonLogLine> ParseOne(std::string_view line, std::string* message, bool keep_breaks) {
  while (!line.empty() && (line.back() == ' ' || line.back() == '\t')) line.remove_suffix(1);
  if (line.size() < 2 || line.size() > kMaxJsonLineBytes || line.front() != '{' ||
      line.back() != '}' || !ShallowEnough(line)) {
    return std::nullopt;
  }
  if (LogFields fast; SubsetParser(line, fast).Parse()) return Extract(fast, message, keep_breaks);
  LogFields f;
  if (!json::sax_parse(line.begin(), line.end(), &f)) return std::nullopt;
  return Extract(f, message, keep_breaks);
}

bool SameFields(const std::optional<JsonLogLine>& a, const std::optional<JsonLogLine>& b) {
  if (a.has_value() != b.has_value()) return false;
  return !a ||
         (a->time == b->time && a->level == b->level && a->rank == b->rank && a->ident == b->ident);
}

}  // namespace

bool JsonSubsetAgreesWithFullParser(std::string_view line) {
  if (line.size() > kMaxJsonLineBytes || !ShallowEnough(line)) return true;  // neither runs
  LogFields fast;
  if (!SubsetParser(line, fast).Parse()) return true;  // declined: nlohmann reads it
  LogFields full;
  if (!json::sax_parse(line.begin(), line.end(), &full)) return false;
  std::string fast_message, full_message;
  auto a = Extract(fast, &fast_message, false);
  auto b = Extract(full, &full_message, false);
  return SameFields(a, b) && fast_message == full_message;
}

std::optional<JsonLogLine> ParseJsonLogLine(std::string_view line, std::string* message,
                                            bool keep_breaks) {
  auto out = ParseOne(line, message, keep_breaks);
  if (!out || message->size() < 2 || message->front() != '{') return out;
  // A JSON log inside a JSON log: Docker's json-file driver around TGI's --json-output. The inner
  // object is the engine's line (its message, level and span); the outer time is the wrapper's.
  std::string inner_message;
  auto inner = ParseOne(*message, &inner_message, keep_breaks);
  if (!inner) return out;
  *message = std::move(inner_message);
  if (!inner->level.empty()) out->level = std::move(inner->level);
  if (!inner->rank.empty()) out->rank = std::move(inner->rank);
  if (!out->time) out->time = inner->time;
  return out;
}

}  // namespace spinup
