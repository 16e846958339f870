#include "logs/json_line.h"

#include <array>
#include <nlohmann/json.hpp>
#include <vector>

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
    kMESSAGE,  // the message
    kTimestamp,
    kTime,
    kTs,
    kAtTimestamp,  // the time
    kLevel,
    kLevelname,
    kSeverity,   // the level
    kFieldsKey,  // "fields": an object holding the message
    kSpanKey,    // "span": tracing's current span (TGI: {"rank":0,"name":"shard-manager"})
    kSpansKey,   // "spans": tracing's span list, outermost first
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
      static constexpr std::string_view kTop[kTopSlots] = {
          "message",    "msg",   "log",       "MESSAGE",  "timestamp", "time", "ts",
          "@timestamp", "level", "levelname", "severity", "fields",    "span", "spans"};
      for (int k = 0; k < kTopSlots; ++k) {
        if (val == kTop[k]) key_ = k;
      }
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
  bool in_string = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      if (++depth > 4) return false;
    } else if (c == '}' || c == ']') {
      --depth;
    }
  }
  return true;
}

}  // namespace

namespace {

std::optional<JsonLogLine> ParseOne(std::string_view line, std::string* message) {
  while (!line.empty() && (line.back() == ' ' || line.back() == '\t')) line.remove_suffix(1);
  if (line.size() < 2 || line.size() > kMaxJsonLineBytes || line.front() != '{' ||
      line.back() != '}' || !ShallowEnough(line)) {
    return std::nullopt;
  }
  LogFields f;
  if (!json::sax_parse(line.begin(), line.end(), &f)) return std::nullopt;
  using S = LogFields::Slot;
  const std::string* msg = First(f, {S::kMessage, S::kMsg, S::kLog, S::kMESSAGE});
  if (msg == nullptr && f.fields_is_object()) msg = First(f, {S::kFieldsMessage, S::kFieldsMsg});
  if (msg == nullptr) return std::nullopt;
  const std::string& m = *msg;
  message->clear();
  for (size_t i = 0; i < m.size(); ++i) {
    if (m[i] == '\n' || m[i] == '\r') {
      if (i + 1 < m.size()) message->append(" | ");
    } else {
      message->push_back(m[i]);
    }
  }
  JsonLogLine out;
  if (const std::string* t = First(f, {S::kTimestamp, S::kTime, S::kTs, S::kAtTimestamp})) {
    out.time = ParseRfc3339Time(*t);
  }
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

}  // namespace

std::optional<JsonLogLine> ParseJsonLogLine(std::string_view line, std::string* message) {
  auto out = ParseOne(line, message);
  if (!out || message->size() < 2 || message->front() != '{') return out;
  // A JSON log inside a JSON log: Docker's json-file driver around TGI's --json-output. The inner
  // object is the engine's line (its message, level and span); the outer time is the wrapper's.
  std::string inner_message;
  auto inner = ParseOne(*message, &inner_message);
  if (!inner) return out;
  *message = std::move(inner_message);
  if (!inner->level.empty()) out->level = std::move(inner->level);
  if (!inner->rank.empty()) out->rank = std::move(inner->rank);
  if (!out->time) out->time = inner->time;
  return out;
}

}  // namespace spinup
