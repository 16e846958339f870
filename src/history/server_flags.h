// Pure parsers for what the history keys on but the verdict does not carry: the flags of the
// server's command line that change how long a start takes (SGLang and vLLM spellings), and the
// engine's version from its own log lines.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "history/record.h"

namespace spinup {

// tp: --tp, --tp-size, --tensor-parallel-size, -tp; pp: --pp, --pp-size,
// --pipeline-parallel-size, -pp; dp: --dp, --dp-size, --data-parallel-size, -dp;
// quantization: --quantization, -q; context length: --context-length, --max-model-len;
// speculative: every --speculative-* flag and --num-speculative-tokens. Both `--k v` and `--k=v`.
// Values that do not parse are ignored; strings are capped.
StartupFlags ParseStartupFlags(const std::vector<std::string>& argv);

// "vLLM API server version 0.6.3" -> "0.6.3"; "sglang version: 0.4.1.post3", "version=0.4.1",
// "vllm==0.6.3" -> the version; nullopt when the line names none.
std::optional<std::string> EngineVersionFromLine(std::string_view line);

// What a pasted log says about the start (for `explain --record`): SGLang's
// `server_args=ServerArgs(model_path='X', tp_size=4, ...)` line; nullopt for any other line.
struct LoggedServerArgs {
  std::string model;
  StartupFlags flags;
};
std::optional<LoggedServerArgs> ServerArgsFromLine(std::string_view line);

}  // namespace spinup
