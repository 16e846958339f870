// UTF-8 validation, written once: the log cleaner, the terminal cleaner and the Prometheus label
// escaper all take their idea of "valid" from here.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace spinup {

// Length of the valid UTF-8 sequence at s[i] (1 for ASCII), 0 when it is not one (a stray
// continuation byte, overlong, a surrogate, above U+10FFFF, cut short). `cp` gets the code point.
size_t Utf8Length(std::string_view s, size_t i, uint32_t* cp);

// `s` with every byte that does not start a valid sequence replaced by U+FFFD.
std::string ToValidUtf8(std::string_view s);

}  // namespace spinup
