#include "logs/rules_parse.h"

namespace spinup::rules_parse {

// A regex longer than kMaxRuleRegexBytes is refused at load (RE2's compile and the matcher's
// atom analysis grow with it: one 5 MB regex took over a minute).
void CheckRegexLength(const std::string& regex, const std::string& owner, int line) {
  if (regex.size() > RuleSet::kMaxRuleRegexBytes) {
    throw FileError{line, owner + ": regex of " + std::to_string(regex.size()) +
                              " bytes is over the " + std::to_string(RuleSet::kMaxRuleRegexBytes) +
                              "-byte cap"};
  }
}

std::string Str(const json& j, const char* key, int line, bool required) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) {
    if (required) throw FileError{line, std::string("missing \"") + key + "\""};
    return {};
  }
  if (!it->is_string()) throw FileError{line, std::string("\"") + key + "\" must be a string"};
  return it->get<std::string>();
}

int Int(const json& j, const char* key, int line) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return 0;
  if (!it->is_number_integer() || it->get<int64_t>() < 0 || it->get<int64_t>() > 64) {
    throw FileError{line, std::string("\"") + key + "\" must be a capture group number 0-64"};
  }
  return it->get<int>();
}

double Num(const json& j, const char* key, int line, double fallback) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return fallback;
  if (!it->is_number() || it->get<double>() < 0) {
    throw FileError{line, std::string("\"") + key + "\" must be a non-negative number"};
  }
  return it->get<double>();
}

Phase PhaseOf(const std::string& name, int line) {
  auto p = ParsePhase(name);
  if (!p) throw FileError{line, "unknown phase \"" + name + "\""};
  return *p;
}

std::optional<bool> Bool(const json& j, const char* key, int line) {
  auto d = j.find(key);
  if (d == j.end()) return std::nullopt;
  if (!d->is_boolean()) throw FileError{line, "\"" + std::string(key) + "\" must be true or false"};
  return d->get<bool>();
}

std::vector<std::string> StrList(const json& j, const char* key, int line) {
  std::vector<std::string> out;
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return out;
  if (it->is_string()) return {it->get<std::string>()};
  if (!it->is_array()) throw FileError{line, std::string("\"") + key + "\" must be a list"};
  for (const auto& v : *it) {
    if (!v.is_string()) {
      throw FileError{line, std::string("\"") + key + "\" must hold strings"};
    }
    out.push_back(v.get<std::string>());
  }
  return out;
}

}  // namespace spinup::rules_parse
