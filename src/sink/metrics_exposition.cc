#include "sink/metrics_exposition.h"

#include "base/utf8.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <set>

namespace spinup {

namespace {

bool NameChar(char c, bool first, bool allow_colon) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_') return true;
  if (allow_colon && c == ':') return true;
  return !first && c >= '0' && c <= '9';
}

bool ValidName(std::string_view name, bool allow_colon) {
  if (name.empty()) return false;
  for (size_t i = 0; i < name.size(); ++i) {
    if (!NameChar(name[i], i == 0, allow_colon)) return false;
  }
  return true;
}

std::string_view TypeName(MetricType t) { return t == MetricType::kCounter ? "counter" : "gauge"; }

}  // namespace

bool IsValidMetricName(std::string_view name) { return ValidName(name, true); }
bool IsValidLabelName(std::string_view name) {
  return ValidName(name, false) && !name.starts_with("__");
}

std::string EscapeLabelValue(std::string_view raw) {
  // Prometheus rejects a whole scrape over one invalid UTF-8 label value (a folder name, say).
  const std::string value = ToValidUtf8(raw);
  std::string out;
  out.reserve(value.size());
  for (char c : value) {
    switch (c) {
      case '\\':
        out += "\\\\";
        break;
      case '"':
        out += "\\\"";
        break;
      case '\n':
        out += "\\n";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string EscapeHelp(std::string_view help) {
  std::string out;
  out.reserve(help.size());
  for (char c : help) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

std::string FormatMetricValue(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "+Inf" : "-Inf";
  // Shortest representation that reads back to the same double; integers stay integers.
  return fmt::format("{}", value);
}

std::string WriteExposition(const std::vector<MetricFamily>& families) {
  std::string out;
  for (const auto& f : families) {
    if (f.samples.empty()) continue;
    out += fmt::format("# HELP {} {}\n# TYPE {} {}\n", f.name, EscapeHelp(f.help), f.name,
                       TypeName(f.type));
    for (const auto& s : f.samples) {
      out += f.name;
      if (!s.labels.empty()) {
        out += '{';
        bool first = true;
        for (const auto& [k, v] : s.labels) {
          if (!first) out += ',';
          first = false;
          out += k;
          out += "=\"";
          out += EscapeLabelValue(v);
          out += '"';
        }
        out += '}';
      }
      out += ' ';
      out += FormatMetricValue(s.value);
      out += '\n';
    }
  }
  return out;
}

const ParsedSample* ParsedExposition::Find(std::string_view name,
                                           const std::map<std::string, std::string>& match) const {
  for (const auto& s : samples) {
    if (s.name != name) continue;
    bool all = true;
    for (const auto& [k, v] : match) {
      auto it = s.labels.find(k);
      if (it == s.labels.end() || it->second != v) {
        all = false;
        break;
      }
    }
    if (all) return &s;
  }
  return nullptr;
}

namespace {

Result<double> ParseValue(std::string_view v) {
  if (v == "NaN") return std::nan("");
  if (v == "+Inf" || v == "Inf") return INFINITY;
  if (v == "-Inf") return -INFINITY;
  double d = 0;
  auto [ptr, ec] = std::from_chars(v.data(), v.data() + v.size(), d);
  if (ec != std::errc() || ptr != v.data() + v.size()) {
    return Status::Corrupt("bad sample value '" + std::string(v) + "'");
  }
  return d;
}

std::string Unescape(std::string_view s, bool allow_quote) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 1 < s.size()) {
      char n = s[++i];
      if (n == 'n') {
        out += '\n';
      } else if (n == '\\' || (allow_quote && n == '"')) {
        out += n;
      } else {
        out += '\\';
        out += n;
      }
    } else {
      out += s[i];
    }
  }
  return out;
}

Status ParseSampleLine(std::string_view line, size_t line_no, ParsedSample& out) {
  auto err = [&](const std::string& what) {
    return Status::Corrupt(fmt::format("exposition line {}: {}", line_no, what));
  };
  size_t i = 0;
  while (i < line.size() && line[i] != '{' && line[i] != ' ') ++i;
  out.name = std::string(line.substr(0, i));
  if (!IsValidMetricName(out.name)) return err("bad metric name '" + out.name + "'");
  if (i < line.size() && line[i] == '{') {
    ++i;
    while (true) {
      if (i >= line.size()) return err("unterminated label set");
      if (line[i] == '}') {
        ++i;
        break;
      }
      size_t eq = line.find('=', i);
      if (eq == std::string_view::npos) return err("label without '='");
      std::string key(line.substr(i, eq - i));
      if (!IsValidLabelName(key)) return err("bad label name '" + key + "'");
      i = eq + 1;
      if (i >= line.size() || line[i] != '"') return err("label value not quoted");
      ++i;
      std::string raw;
      bool closed = false;
      while (i < line.size()) {
        char c = line[i];
        if (c == '\\') {
          if (i + 1 >= line.size()) return err("dangling escape");
          char n = line[i + 1];
          if (n != '\\' && n != '"' && n != 'n') return err("bad escape in label value");
          raw += c;
          raw += n;
          i += 2;
          continue;
        }
        if (c == '"') {
          closed = true;
          ++i;
          break;
        }
        if (c == '\n') return err("raw newline in label value");
        raw += c;
        ++i;
      }
      if (!closed) return err("unterminated label value");
      if (out.labels.count(key)) return err("duplicate label '" + key + "'");
      out.labels[key] = Unescape(raw, true);
      if (i < line.size() && line[i] == ',') ++i;
    }
  }
  if (i >= line.size() || line[i] != ' ') return err("missing value");
  std::string_view rest = line.substr(i + 1);
  size_t sp = rest.find(' ');  // an optional timestamp follows
  auto value = ParseValue(rest.substr(0, sp));
  if (!value.ok()) return err(value.status().message());
  out.value = *value;
  return Status::Ok();
}

}  // namespace

Result<ParsedExposition> ParseExposition(std::string_view text) {
  ParsedExposition out;
  std::set<std::string> seen_samples;  // families that already had samples
  size_t line_no = 0;
  while (!text.empty()) {
    size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    ++line_no;
    if (line.empty()) continue;
    if (line.starts_with("# HELP ") || line.starts_with("# TYPE ")) {
      bool is_help = line[2] == 'H';
      std::string_view rest = line.substr(7);
      size_t sp = rest.find(' ');
      if (sp == std::string_view::npos) {
        return Status::Corrupt(fmt::format("exposition line {}: HELP/TYPE without text", line_no));
      }
      std::string name(rest.substr(0, sp));
      if (!IsValidMetricName(name)) {
        return Status::Corrupt(fmt::format("exposition line {}: bad name '{}'", line_no, name));
      }
      std::string_view arg = rest.substr(sp + 1);
      if (is_help) {
        if (out.help.count(name)) {
          return Status::Corrupt(
              fmt::format("exposition line {}: second HELP for {}", line_no, name));
        }
        out.help[name] = Unescape(arg, false);
      } else {
        if (out.type.count(name) || seen_samples.count(name)) {
          return Status::Corrupt(fmt::format(
              "exposition line {}: TYPE for {} repeated or after samples", line_no, name));
        }
        static const std::set<std::string_view> kTypes = {"counter", "gauge", "histogram",
                                                          "summary", "untyped"};
        if (!kTypes.count(arg)) {
          return Status::Corrupt(fmt::format("exposition line {}: bad type '{}'", line_no, arg));
        }
        out.type[name] = std::string(arg);
      }
      continue;
    }
    if (line[0] == '#') continue;  // a comment
    ParsedSample s;
    if (Status st = ParseSampleLine(line, line_no, s); !st.ok()) return st;
    seen_samples.insert(s.name);
    out.samples.push_back(std::move(s));
  }
  return out;
}

}  // namespace spinup
