// The inference server's own command line, understood: which engine, which model, how it is split
// across GPUs and nodes, and the flags `doctor` checks. Pure: argv and environment in, struct out;
// never reads a file or the process environment. Untrusted input (a unit file, a pasted command):
// argument count and sizes are capped, nothing throws.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace spinup::doctor {

enum class Engine { kUnknown, kSglang, kVllm };
std::string_view EngineName(Engine engine);  // "unknown", "sglang", "vllm"

struct ServerCommand {
  Engine engine = Engine::kUnknown;
  std::vector<std::string> argv;           // as given (capped)
  std::map<std::string, std::string> env;  // the server's environment (VAR=x prefixes included)
  // Every --flag seen, dashes normalised ("--tp_size" -> "--tp-size"), aliases resolved to the
  // engine's canonical spelling ("--tp" -> "--tp-size"); a switch maps to "". Last one wins.
  std::map<std::string, std::string> flags;

  std::optional<std::string> model;  // --model-path / --model / vllm serve's positional
  int tp = 1;
  int pp = 1;
  int dp = 1;
  int ep = 1;  // SGLang --ep-size; vLLM --enable-expert-parallel means tp x dp
  std::string host;
  int port = 0;  // the engine's default when not given (SGLang 30000, vLLM 8000)
  std::optional<double> mem_fraction;     // --mem-fraction-static / --gpu-memory-utilization
  std::optional<int64_t> context_length;  // --context-length / --max-model-len
  std::optional<std::string> dtype;
  std::optional<std::string> quantization;
  std::optional<std::string> kv_cache_dtype;
  std::optional<std::string> speculative;  // algorithm (SGLang) or method (vLLM's JSON config)
  std::optional<std::string> attention_backend;
  int nnodes = 1;
  int node_rank = 0;
  std::optional<std::string> dist_init_addr;  // --dist-init-addr / --master-addr[:port]
  std::vector<std::string> problems;          // flag values that did not parse, one line each

  bool has_flag(std::string_view flag) const { return flags.count(std::string(flag)) != 0; }
  const std::string* flag(std::string_view flag) const;
  const std::string* getenv(std::string_view name) const;
};

// argv is the whole server command, wrappers included: `env A=1 python3 -m sglang.launch_server
// ...`, `VAR=x vllm serve MODEL ...`, `/opt/venv/bin/python -m vllm.entrypoints.openai.api_server`,
// `sglang serve`, `uv run ...`. `env` is the environment the server will get (the unit's, or the
// caller's); assignments in argv are added to it.
ServerCommand ParseServerCommand(const std::vector<std::string>& argv,
                                 std::map<std::string, std::string> env = {});

inline constexpr size_t kMaxArgs = 1024;
inline constexpr size_t kMaxArgBytes = 64 * 1024;

}  // namespace spinup::doctor
