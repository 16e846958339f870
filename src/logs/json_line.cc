#include "logs/json_line.h"

#include <nlohmann/json.hpp>

namespace spinup {
namespace {

using json = nlohmann::json;

const json* Field(const json& obj, std::initializer_list<const char*> names) {
  for (const char* n : names) {
    auto it = obj.find(n);
    if (it != obj.end() && it->is_string()) return &*it;
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

std::optional<JsonLogLine> ParseJsonLogLine(std::string_view line, std::string* message) {
  while (!line.empty() && (line.back() == ' ' || line.back() == '\t')) line.remove_suffix(1);
  if (line.size() < 2 || line.size() > kMaxJsonLineBytes || line.front() != '{' ||
      line.back() != '}' || !ShallowEnough(line)) {
    return std::nullopt;
  }
  json obj = json::parse(line.begin(), line.end(), nullptr, /*allow_exceptions=*/false);
  if (!obj.is_object()) return std::nullopt;
  const json* msg = Field(obj, {"message", "msg", "log", "MESSAGE"});
  if (msg == nullptr) {
    auto f = obj.find("fields");
    if (f != obj.end() && f->is_object()) msg = Field(*f, {"message", "msg"});
  }
  if (msg == nullptr) return std::nullopt;
  const std::string& m = msg->get_ref<const std::string&>();
  message->clear();
  for (size_t i = 0; i < m.size(); ++i) {
    if (m[i] == '\n' || m[i] == '\r') {
      if (i + 1 < m.size()) message->append(" | ");
    } else {
      message->push_back(m[i]);
    }
  }
  JsonLogLine out;
  if (const json* t = Field(obj, {"timestamp", "time", "ts", "@timestamp"})) {
    out.time = ParseRfc3339Time(t->get_ref<const std::string&>());
  }
  if (const json* l = Field(obj, {"level", "levelname", "severity"})) {
    out.level = l->get<std::string>().substr(0, 16);
    for (auto& c : out.level) {
      if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    }
  }
  return out;
}

}  // namespace spinup
