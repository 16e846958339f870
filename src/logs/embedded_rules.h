// The rules files shipped in rules/, compiled into the binary (see cmake/embed_rules.cmake).
#pragma once

#include <string_view>
#include <vector>

namespace spinup {

struct EmbeddedRulesFile {
  std::string_view name;      // e.g. "sglang.json"
  std::string_view contents;  // the file's bytes
};

const std::vector<EmbeddedRulesFile>& EmbeddedRulesFiles();

}  // namespace spinup
