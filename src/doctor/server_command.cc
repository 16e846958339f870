#include "doctor/server_command.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <utility>

#include "doctor/unit_file.h"

namespace spinup::doctor {
namespace {

using Aliases = std::vector<std::pair<std::string_view, std::string_view>>;

// Alternative spellings each engine's argparse accepts, mapped to one canonical flag per engine.
const Aliases& SglangAliases() {
  static const Aliases a = {
      {"--model", "--model-path"},
      {"--tp", "--tp-size"},
      {"--tensor-parallel-size", "--tp-size"},
      {"--pp", "--pp-size"},
      {"--pipeline-parallel-size", "--pp-size"},
      {"--dp", "--dp-size"},
      {"--data-parallel-size", "--dp-size"},
      {"--ep", "--ep-size"},
      {"--expert-parallel-size", "--ep-size"},
      {"--speculative-algo", "--speculative-algorithm"},
  };
  return a;
}
const Aliases& VllmAliases() {
  static const Aliases a = {
      {"-tp", "--tensor-parallel-size"},   {"--tp", "--tensor-parallel-size"},
      {"-pp", "--pipeline-parallel-size"}, {"--pp", "--pipeline-parallel-size"},
      {"-dp", "--data-parallel-size"},     {"--dp", "--data-parallel-size"},
      {"-ep", "--enable-expert-parallel"}, {"-q", "--quantization"},
      {"--model-path", "--model"},
  };
  return a;
}

// Switches that take no value; anything else followed by a non-flag token takes it as its value.
bool IsSwitch(std::string_view flag) {
  static constexpr std::string_view kPrefixes[] = {"--enable-", "--disable-", "--no-", "--skip-"};
  for (auto p : kPrefixes) {
    if (flag.substr(0, p.size()) == p) return true;
  }
  static constexpr std::string_view kExact[] = {"--trust-remote-code",
                                                "--enforce-eager",
                                                "--is-embedding",
                                                "--log-requests",
                                                "--headless",
                                                "--show-time-cost",
                                                "--weight-loader-disable-mmap",
                                                "--help",
                                                "-ep"};
  return std::find(std::begin(kExact), std::end(kExact), flag) != std::end(kExact);
}

bool IsAssignment(std::string_view s) {
  auto eq = s.find('=');
  if (eq == 0 || eq == std::string_view::npos) return false;
  if (!(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  return std::all_of(s.begin(), s.begin() + static_cast<ptrdiff_t>(eq), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  });
}

bool IsFlag(std::string_view s) {
  return s.size() >= 2 && s[0] == '-' && !std::isdigit(static_cast<unsigned char>(s[1])) &&
         s[1] != '.';
}

std::string_view Basename(std::string_view s) {
  auto slash = s.rfind('/');
  return slash == std::string_view::npos ? s : s.substr(slash + 1);
}

// Where the engine's own arguments start, and which engine; npos when no engine is recognised.
std::pair<size_t, Engine> FindEngine(const std::vector<std::string>& argv) {
  for (size_t i = 0; i < argv.size(); ++i) {
    std::string_view t = argv[i];
    std::string_view next = i + 1 < argv.size() ? std::string_view(argv[i + 1]) : "";
    if (t == "-m" && (next == "sglang.launch_server" || next == "sglang.launch_server.py")) {
      return {i + 2, Engine::kSglang};
    }
    if (t == "-m" && next.substr(0, 17) == "vllm.entrypoints.") {
      size_t start = i + 2;
      if (start < argv.size() && argv[start] == "serve") ++start;  // vllm.entrypoints.cli.main
      return {start, Engine::kVllm};
    }
    if (Basename(t) == "launch_server.py") return {i + 1, Engine::kSglang};
    if (Basename(t) == "sglang" && next == "serve") return {i + 2, Engine::kSglang};
    if (Basename(t) == "vllm" && next == "serve") return {i + 2, Engine::kVllm};
  }
  return {std::string::npos, Engine::kUnknown};
}

std::string Canonical(std::string flag, Engine engine) {
  if (flag.size() > 2 && flag[0] == '-' && flag[1] == '-') {
    std::replace(flag.begin() + 2, flag.end(), '_', '-');
  }
  const Aliases& aliases = engine == Engine::kVllm ? VllmAliases() : SglangAliases();
  for (const auto& [from, to] : aliases) {
    if (flag == from) return std::string(to);
  }
  return flag;
}

std::optional<int64_t> ParseInt(std::string_view s) {
  int64_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

// "32768", "32k" (x1000), "32K" (x1024), as vLLM's --max-model-len accepts.
std::optional<int64_t> ParseTokens(std::string_view s) {
  int64_t mult = 1;
  if (!s.empty()) {
    char last = s.back();
    if (last == 'k' || last == 'm') mult = last == 'k' ? 1000 : 1000000;
    if (last == 'K' || last == 'M') mult = last == 'K' ? 1024 : 1024 * 1024;
    if (mult != 1) s.remove_suffix(1);
  }
  auto v = ParseInt(s);
  if (!v || *v <= 0 || *v > (int64_t{1} << 40)) return std::nullopt;
  return *v * mult;
}

std::optional<double> ParseDouble(std::string_view s) {
  double v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

void SetSize(ServerCommand& c, const std::string& flag, int* out) {
  const std::string* v = c.flag(flag);
  if (v == nullptr) return;
  auto n = ParseInt(*v);
  if (!n || *n < 1 || *n > 65536) {
    c.problems.push_back(flag + " " + *v + ": not a size between 1 and 65536");
    return;
  }
  *out = static_cast<int>(*n);
}

std::optional<std::string> Opt(const ServerCommand& c, const std::string& flag) {
  const std::string* v = c.flag(flag);
  if (v == nullptr || v->empty()) return std::nullopt;
  return *v;
}

void FillSglang(ServerCommand& c) {
  c.model = Opt(c, "--model-path");
  SetSize(c, "--tp-size", &c.tp);
  SetSize(c, "--pp-size", &c.pp);
  SetSize(c, "--dp-size", &c.dp);
  SetSize(c, "--ep-size", &c.ep);
  SetSize(c, "--nnodes", &c.nnodes);
  c.port = 30000;
  c.host = "127.0.0.1";
  if (auto f = Opt(c, "--mem-fraction-static")) c.mem_fraction = ParseDouble(*f);
  if (auto f = Opt(c, "--context-length")) c.context_length = ParseTokens(*f);
  c.speculative = Opt(c, "--speculative-algorithm");
  c.attention_backend = Opt(c, "--attention-backend");
  c.dist_init_addr = Opt(c, "--dist-init-addr");
}

void FillVllm(ServerCommand& c, const std::vector<std::string>& positionals) {
  c.model = Opt(c, "--model");
  if (!positionals.empty()) c.model = positionals.front();
  SetSize(c, "--tensor-parallel-size", &c.tp);
  SetSize(c, "--pipeline-parallel-size", &c.pp);
  SetSize(c, "--data-parallel-size", &c.dp);
  SetSize(c, "--nnodes", &c.nnodes);
  if (c.has_flag("--enable-expert-parallel")) c.ep = c.tp * c.dp;
  c.port = 8000;
  c.host = "0.0.0.0";
  if (auto f = Opt(c, "--gpu-memory-utilization")) c.mem_fraction = ParseDouble(*f);
  if (auto f = Opt(c, "--max-model-len")) c.context_length = ParseTokens(*f);
  if (auto s = Opt(c, "--speculative-config")) {
    auto j = nlohmann::json::parse(*s, nullptr, false);
    if (j.is_object()) {
      for (const char* key : {"method", "model"}) {
        auto it = j.find(key);
        if (it != j.end() && it->is_string()) {
          c.speculative = it->get<std::string>();
          break;
        }
      }
    } else {
      c.problems.push_back("--speculative-config: not a JSON object");
    }
  }
  c.attention_backend = Opt(c, "--attention-backend");
  if (!c.attention_backend) {
    if (const std::string* e = c.getenv("VLLM_ATTENTION_BACKEND")) c.attention_backend = *e;
  }
  c.dist_init_addr = Opt(c, "--master-addr");
  if (!c.dist_init_addr) c.dist_init_addr = Opt(c, "--data-parallel-address");
  if (c.dist_init_addr) {
    if (auto p = Opt(c, "--master-port")) *c.dist_init_addr += ":" + *p;
  }
}

// `bash -c "STRING"`, `sh -c ...`: the string is the command.
std::vector<std::string> UnwrapShell(const std::vector<std::string>& argv) {
  if (argv.size() >= 3) {
    auto b = Basename(argv[0]);
    if ((b == "sh" || b == "bash" || b == "dash") && argv[1] == "-c") {
      std::string s = argv[2];
      // A leading "exec " changes nothing about the command itself.
      if (s.rfind("exec ", 0) == 0) s.erase(0, 5);
      return SplitCommandLine(s);
    }
  }
  return argv;
}

}  // namespace

std::string_view EngineName(Engine engine) {
  switch (engine) {
    case Engine::kSglang:
      return "sglang";
    case Engine::kVllm:
      return "vllm";
    case Engine::kUnknown:
      break;
  }
  return "unknown";
}

const std::string* ServerCommand::flag(std::string_view name) const {
  auto it = flags.find(std::string(name));
  return it == flags.end() ? nullptr : &it->second;
}

const std::string* ServerCommand::getenv(std::string_view name) const {
  auto it = env.find(std::string(name));
  return it == env.end() ? nullptr : &it->second;
}

ServerCommand ParseServerCommand(const std::vector<std::string>& raw,
                                 std::map<std::string, std::string> env) {
  ServerCommand c;
  c.env = std::move(env);
  for (size_t i = 0; i < raw.size() && i < kMaxArgs; ++i) {
    c.argv.push_back(raw[i].substr(0, kMaxArgBytes));
  }
  std::vector<std::string> argv = UnwrapShell(c.argv);
  auto [start, engine] = FindEngine(argv);
  c.engine = engine;
  // Assignments before the engine (`env A=1 ...`, `A=1 vllm serve`) belong to its environment.
  size_t prefix_end = start == std::string::npos ? argv.size() : start;
  for (size_t i = 0; i < prefix_end; ++i) {
    if (!IsAssignment(argv[i])) continue;
    auto eq = argv[i].find('=');
    c.env[argv[i].substr(0, eq)] = argv[i].substr(eq + 1);
  }
  if (start == std::string::npos) start = 0;
  std::vector<std::string> positionals;
  for (size_t i = start; i < argv.size(); ++i) {
    const std::string& t = argv[i];
    if (!IsFlag(t)) {
      if (!IsAssignment(t) || engine != Engine::kUnknown) positionals.push_back(t);
      continue;
    }
    std::string name = t;
    std::optional<std::string> value;
    if (auto eq = t.find('='); eq != std::string::npos) {
      name = t.substr(0, eq);
      value = t.substr(eq + 1);
    }
    name = Canonical(name, engine);
    if (!value && !IsSwitch(name) && i + 1 < argv.size() && !IsFlag(argv[i + 1])) {
      value = argv[++i];
    }
    c.flags[name] = value.value_or("");
  }
  if (engine == Engine::kVllm) {
    FillVllm(c, positionals);
  } else {
    FillSglang(c);                     // also the best guess for an unrecognised launcher
    if (engine == Engine::kUnknown) {  // no default port or host to assume
      c.port = 0;
      c.host.clear();
    }
  }
  c.dtype = Opt(c, "--dtype");
  c.quantization = Opt(c, "--quantization");
  c.kv_cache_dtype = Opt(c, "--kv-cache-dtype");
  if (auto h = Opt(c, "--host")) c.host = *h;
  if (auto p = Opt(c, "--port")) {
    auto n = ParseInt(*p);
    if (n && *n > 0 && *n < 65536) {
      c.port = static_cast<int>(*n);
    } else {
      c.problems.push_back("--port " + *p + ": not a TCP port");
    }
  }
  if (auto r = Opt(c, "--node-rank")) c.node_rank = static_cast<int>(ParseInt(*r).value_or(0));
  return c;
}

}  // namespace spinup::doctor
