// The one cleaning function for untrusted text printed to a terminal (tensor names, dtypes, shard
// and folder names, refs/main, log lines, error messages that quote any of these): C0 controls,
// DEL, C1 controls (U+0080..U+009F, and the raw bytes 0x80..0x9F an 8-bit terminal would take as
// CSI), bidirectional overrides, line separators and invalid UTF-8 each become '?', so one
// problem stays one line and nothing reaches the terminal as an escape sequence. Valid UTF-8
// text passes unchanged; tabs become spaces.
#pragma once

#include <string>
#include <string_view>

namespace spinup {

std::string OneLine(std::string_view s);

}  // namespace spinup
