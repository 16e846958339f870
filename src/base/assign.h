#pragma once
// Copying bytes into a reused string on a per-line path: std::string::assign goes through the
// general _M_replace, which costs more than the copy itself for a log line. `bytes` must not view
// `out`'s own buffer.
#include <cstring>
#include <string>
#include <string_view>

namespace spinup {

inline void AssignBytes(std::string& out, std::string_view bytes) {
  out.resize(bytes.size());
  if (!bytes.empty()) std::memcpy(out.data(), bytes.data(), bytes.size());
}

}  // namespace spinup
