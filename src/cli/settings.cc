#include "cli/settings.h"

// Header-only toml++: this is its only user, and the release binary links nothing shared.
#define TOML_HEADER_ONLY 1
#define TOML_EXCEPTIONS 0
#include <toml++/toml.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "base/duration.h"

namespace spinup {
namespace {

constexpr size_t kMaxConfigBytes = 1 << 20;  // an operator's file; anything bigger is a mistake

std::string Where(std::string_view name, const toml::source_region& r) {
  return std::string(name) + ":" + std::to_string(r.begin.line) + ":" +
         std::to_string(r.begin.column);
}

Status Unknown(std::string_view name, const toml::node& n, std::string_view what) {
  return Status::InvalidArgument(Where(name, n.source()) + ": unknown " + std::string(what));
}

Result<std::string> GetString(std::string_view name, const toml::node& n, std::string_view key) {
  if (auto s = n.value<std::string>()) return *s;
  return Status::InvalidArgument(Where(name, n.source()) + ": " + std::string(key) +
                                 ": expected a string");
}

// One table's keys; `set` returns false for a key the table does not have.
template <typename F>
Status ForKeys(std::string_view name, const toml::node& table_node, std::string_view table, F set) {
  const toml::table* t = table_node.as_table();
  if (t == nullptr) {
    return Status::InvalidArgument(Where(name, table_node.source()) + ": [" + std::string(table) +
                                   "] must be a table");
  }
  for (const auto& [key, value] : *t) {
    const std::string k(key.str());
    Status st;
    bool known = set(k, value, st);
    if (!known) return Unknown(name, value, "key '" + std::string(table) + "." + k + "'");
    if (!st.ok()) return st;
  }
  return Status::Ok();
}

Status ParseMetrics(std::string_view name, const toml::node& n, FileConfig& c) {
  return ForKeys(name, n, "metrics", [&](const std::string& k, const toml::node& v, Status& st) {
    if (k != "address" && k != "model") return false;
    auto s = GetString(name, v, k);
    if (!s.ok()) {
      st = s.status();
    } else {
      (k == "address" ? c.metrics : c.model_label) = *s;
    }
    return true;
  });
}

Status ParseBudgets(std::string_view name, const toml::node& n, FileConfig& c) {
  return ForKeys(name, n, "budgets", [&](const std::string& k, const toml::node& v, Status& st) {
    if (k != "stall_after") return false;
    auto s = GetString(name, v, k);
    if (!s.ok()) {
      st = s.status();
      return true;
    }
    auto d = ParseDuration(*s);
    if (!d.ok()) {
      st = Status::InvalidArgument(Where(name, v.source()) +
                                   ": stall_after: " + d.status().message());
    } else {
      c.stall_after_s = *d;
    }
    return true;
  });
}

Status ParseHistory(std::string_view name, const toml::node& n, FileConfig& c) {
  return ForKeys(name, n, "history", [&](const std::string& k, const toml::node& v, Status& st) {
    if (k != "dir") return false;
    auto s = GetString(name, v, k);
    if (s.ok())
      c.history_dir = *s;
    else
      st = s.status();
    return true;
  });
}

Status ParseRules(std::string_view name, const toml::node& n, FileConfig& c) {
  return ForKeys(name, n, "rules", [&](const std::string& k, const toml::node& v, Status& st) {
    if (k == "dir") {
      auto s = GetString(name, v, k);
      if (s.ok())
        c.rules_dir = *s;
      else
        st = s.status();
      return true;
    }
    if (k != "files") return false;
    const toml::array* a = v.as_array();
    if (a == nullptr) {
      st = Status::InvalidArgument(Where(name, v.source()) + ": files: expected an array");
      return true;
    }
    for (const auto& e : *a) {
      auto s = GetString(name, e, "files");
      if (!s.ok()) {
        st = s.status();
        return true;
      }
      c.rules_files.push_back(*s);
    }
    return true;
  });
}

}  // namespace

Result<FileConfig> ParseConfigToml(std::string_view text, std::string_view name) {
  if (text.size() > kMaxConfigBytes) {
    return Status::InvalidArgument(std::string(name) + ": larger than 1 MiB");
  }
  toml::parse_result parsed = toml::parse(text, std::string(name));
  if (!parsed) {
    const auto& e = parsed.error();
    return Status::InvalidArgument(Where(name, e.source()) + ": " + std::string(e.description()));
  }
  FileConfig c;
  for (const auto& [key, node] : parsed.table()) {
    Status st;
    if (key == "metrics") {
      st = ParseMetrics(name, node, c);
    } else if (key == "budgets") {
      st = ParseBudgets(name, node, c);
    } else if (key == "history") {
      st = ParseHistory(name, node, c);
    } else if (key == "rules") {
      st = ParseRules(name, node, c);
    } else {
      st = Unknown(name, node, "table '" + std::string(key.str()) + "'");
    }
    if (!st.ok()) return st;
  }
  return c;
}

namespace {

Result<std::string> ReadConfigFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::NotFound(path + ": cannot open");
  std::string text(kMaxConfigBytes + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<size_t>(in.gcount()));
  return text;
}

// *.json in `dir`, sorted so the load order is stable; an absent folder holds none.
Result<std::vector<std::string>> ListRulesDir(const std::string& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) return out;
  for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->path().extension() == ".json") out.push_back(it->path().string());
  }
  if (ec) return Status::Io(dir + ": " + ec.message());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

Result<Settings> LoadSettings(const std::string& config_flag, const SettingsPaths& paths) {
  Settings s;
  FileConfig file;
  std::string path = config_flag;
  std::error_code ec;
  if (path.empty() && std::filesystem::exists(paths.default_config, ec)) {
    path = paths.default_config;
  }
  if (!path.empty()) {
    auto text = ReadConfigFile(path);
    if (!text.ok()) return text.status();
    auto parsed = ParseConfigToml(*text, path);
    if (!parsed.ok()) return parsed.status();
    file = std::move(*parsed);
    s.config_file = path;
  }
  s.metrics = file.metrics.value_or("");
  s.model_label = file.model_label.value_or("");
  s.stall_after_s = file.stall_after_s;
  s.history_dir = file.history_dir.value_or("");
  auto listed = ListRulesDir(file.rules_dir.value_or(paths.default_rules_dir));
  if (!listed.ok()) return listed.status();
  s.rules_files = std::move(*listed);
  s.rules_files.insert(s.rules_files.end(), file.rules_files.begin(), file.rules_files.end());
  return s;
}

bool ResolveColor(std::string_view mode, bool is_tty, bool no_color_env) {
  if (mode == "always") return true;
  if (mode == "never" || no_color_env) return false;
  return is_tty;
}

}  // namespace spinup
