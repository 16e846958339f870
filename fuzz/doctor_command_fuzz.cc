// Fuzzes doctor's command-line and unit-file parsers with the same bytes: a unit text, an
// environment file, a command line split into words and parsed as a server command, and a
// config.json for the KV arithmetic. None may crash, hang or read out of bounds.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "doctor/model_shape.h"
#include "doctor/server_command.h"
#include "doctor/unit_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  using namespace spinup::doctor;
  ServiceUnit unit;
  ApplyUnitText(text, unit);
  auto env = ParseEnvironmentFile(text);
  std::map<std::string, std::string> env_map(env.begin(), env.end());
  auto words = ExpandVariables(SplitCommandLine(text), env_map);
  auto cmd = ParseServerCommand(words, env_map);
  (void)ParseServerCommand(unit.exec_start, env_map);
  if (auto shape = ParseModelShape(text)) {
    (void)KvBytesPerToken(*shape, cmd.tp, cmd.pp, KvDtypeBytes(cmd.kv_cache_dtype, cmd.dtype));
  }
  return 0;
}
