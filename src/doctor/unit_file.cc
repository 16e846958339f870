#include "doctor/unit_file.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <system_error>

#include "base/readonly_file.h"

namespace spinup::doctor {
namespace fs = std::filesystem;
namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

bool ValidName(std::string_view s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  });
}

std::optional<std::pair<std::string, std::string>> SplitAssignment(std::string_view word) {
  auto eq = word.find('=');
  if (eq == std::string_view::npos || !ValidName(word.substr(0, eq))) return std::nullopt;
  return std::pair{std::string(word.substr(0, eq)), std::string(word.substr(eq + 1))};
}

// Logical lines: a trailing backslash continues a line; comments are dropped.
std::vector<std::string> LogicalLines(std::string_view text) {
  std::vector<std::string> out;
  std::string cur;
  size_t pos = 0;
  while (pos < text.size() && out.size() < 100000) {
    size_t nl = text.find('\n', pos);
    std::string_view line = text.substr(pos, nl == std::string_view::npos ? nl : nl - pos);
    pos = nl == std::string_view::npos ? text.size() : nl + 1;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    std::string_view t = Trim(line);
    if (cur.empty() && (t.empty() || t[0] == '#' || t[0] == ';')) continue;
    if (!t.empty() && t.back() == '\\') {
      cur.append(t.substr(0, t.size() - 1));
      cur.push_back(' ');
      continue;
    }
    cur.append(t);
    out.push_back(std::move(cur));
    cur.clear();
  }
  if (!cur.empty()) out.push_back(std::move(cur));
  return out;
}

}  // namespace

std::vector<std::string> SplitCommandLine(std::string_view line) {
  std::vector<std::string> words;
  std::string cur;
  bool in_word = false;
  char quote = 0;
  for (size_t i = 0; i < line.size() && words.size() < kMaxWords; ++i) {
    char c = line[i];
    if (quote != 0) {
      if (c == quote) {
        quote = 0;
      } else if (c == '\\' && quote == '"' && i + 1 < line.size()) {
        cur.push_back(line[++i]);
      } else {
        cur.push_back(c);
      }
    } else if (c == '"' || c == '\'') {
      quote = c;
      in_word = true;
    } else if (c == '\\' && i + 1 < line.size()) {
      cur.push_back(line[++i]);
      in_word = true;
    } else if (std::isspace(static_cast<unsigned char>(c))) {
      if (in_word) words.push_back(std::move(cur));
      cur.clear();
      in_word = false;
    } else {
      cur.push_back(c);
      in_word = true;
    }
  }
  if (in_word && words.size() < kMaxWords) words.push_back(std::move(cur));
  return words;
}

std::vector<std::pair<std::string, std::string>> ParseEnvironmentAssignments(
    std::string_view value) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& w : SplitCommandLine(value)) {
    if (auto a = SplitAssignment(w)) out.push_back(std::move(*a));
  }
  return out;
}

std::vector<std::pair<std::string, std::string>> ParseEnvironmentFile(std::string_view text) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& line : LogicalLines(text)) {
    std::string_view l = line;
    if (l.rfind("export ", 0) == 0) l = Trim(l.substr(7));
    auto eq = l.find('=');
    if (eq == std::string_view::npos) continue;
    std::string_view name = Trim(l.substr(0, eq));
    if (!ValidName(name)) continue;
    std::string_view v = Trim(l.substr(eq + 1));
    std::string value;
    if (!v.empty() && (v[0] == '"' || v[0] == '\'')) {
      auto words = SplitCommandLine(v);
      value = words.empty() ? "" : words.front();
    } else {
      value = std::string(v);
    }
    out.emplace_back(std::string(name), std::move(value));
  }
  return out;
}

void ApplyUnitText(std::string_view text, ServiceUnit& unit) {
  bool in_service = false;
  for (const auto& line : LogicalLines(text)) {
    std::string_view l = line;
    if (l.front() == '[') {
      in_service = l == "[Service]";
      continue;
    }
    if (!in_service) continue;
    auto eq = l.find('=');
    if (eq == std::string_view::npos) continue;
    std::string_view key = Trim(l.substr(0, eq));
    std::string_view value = Trim(l.substr(eq + 1));
    if (key == "ExecStart") {
      unit.exec_start.clear();
      bool at = false;
      while (!value.empty() && std::string_view("-@:+!").find(value[0]) != std::string_view::npos) {
        at = at || value[0] == '@';
        value.remove_prefix(1);
      }
      unit.exec_start = SplitCommandLine(value);
      // With '@' the second word is argv[0] only, not an argument.
      if (at && unit.exec_start.size() >= 2) unit.exec_start.erase(unit.exec_start.begin() + 1);
    } else if (key == "Environment") {
      for (auto& a : ParseEnvironmentAssignments(value)) unit.environment.push_back(std::move(a));
    } else if (key == "EnvironmentFile") {
      if (value.empty()) {
        unit.environment_files.clear();
      } else {
        unit.environment_files.emplace_back(value);
      }
    }
  }
}

std::vector<std::string> ExpandVariables(const std::vector<std::string>& words,
                                         const std::map<std::string, std::string>& env) {
  std::vector<std::string> out;
  auto lookup = [&](std::string_view name) {
    auto it = env.find(std::string(name));
    return it == env.end() ? std::string() : it->second;
  };
  for (const auto& w : words) {
    if (w.size() > 1 && w[0] == '$' && w[1] != '{' && ValidName(std::string_view(w).substr(1))) {
      for (auto& part : SplitCommandLine(lookup(std::string_view(w).substr(1)))) {
        out.push_back(std::move(part));
      }
      continue;
    }
    std::string r;
    for (size_t i = 0; i < w.size(); ++i) {
      size_t close = w.find('}', i + 2);
      if (w.compare(i, 2, "${") == 0 && close != std::string::npos) {
        r += lookup(std::string_view(w).substr(i + 2, close - i - 2));
        i = close;
      } else {
        r.push_back(w[i]);
      }
    }
    out.push_back(std::move(r));
    if (out.size() >= kMaxWords) break;
  }
  return out;
}

Result<UnitCommand> ReadServiceUnit(const fs::path& root, std::string name) {
  if (name.find('/') != std::string::npos || name.empty()) {
    return Status::InvalidArgument("--unit " + name + ": not a unit name");
  }
  if (name.find('.') == std::string::npos) name += ".service";
  // systemd's precedence, highest first.
  const char* kDirs[] = {"etc/systemd/system", "run/systemd/system", "usr/lib/systemd/system",
                         "lib/systemd/system"};
  std::error_code ec;
  std::optional<fs::path> main;
  std::map<std::string, fs::path> dropins;  // file name -> highest-precedence path
  for (const char* d : kDirs) {
    fs::path dir = root / d;
    if (!main && fs::is_regular_file(dir / name, ec)) main = dir / name;
    fs::path dd = dir / (name + ".d");
    if (!fs::is_directory(dd, ec)) continue;
    for (auto it = fs::directory_iterator(dd, ec); !ec && it != fs::directory_iterator();
         it.increment(ec)) {
      std::string f = it->path().filename().string();
      if (f.size() > 5 && f.ends_with(".conf")) dropins.emplace(f, it->path());
    }
  }
  if (!main) return Status::NotFound("--unit " + name + ": no unit file under " + root.string());
  ServiceUnit unit;
  UnitCommand out;
  std::vector<fs::path> files = {*main};
  for (const auto& [f, p] : dropins) files.push_back(p);
  for (const auto& p : files) {
    auto text = ReadSmallFile(p, kMaxUnitBytes);
    if (!text.ok()) {
      out.problems.push_back(text.status().message());
      continue;
    }
    ApplyUnitText(*text, unit);
    out.sources.push_back(p.string());
  }
  for (const auto& [k, v] : unit.environment) out.env[k] = v;
  // systemd reads environment files after Environment=, so they win on conflicts.
  for (std::string f : unit.environment_files) {
    bool optional = !f.empty() && f[0] == '-';
    if (optional) f.erase(0, 1);
    fs::path p = root / fs::path(f).relative_path();
    auto text = ReadSmallFile(p, kMaxUnitBytes);
    if (!text.ok()) {
      if (!optional) out.problems.push_back("EnvironmentFile " + f + ": cannot be read");
      continue;
    }
    for (auto& [k, v] : ParseEnvironmentFile(*text)) out.env[k] = v;
    out.sources.push_back(p.string());
  }
  out.argv = ExpandVariables(unit.exec_start, out.env);
  if (out.argv.empty()) return Status::NotFound("--unit " + name + ": no ExecStart=");
  return out;
}

}  // namespace spinup::doctor
