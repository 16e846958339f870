// UTF-8 validity for text that reaches a consumer which rejects invalid UTF-8 (a Prometheus
// scrape fails whole on one bad label value). Folder names and log text are bytes, not UTF-8.
#pragma once

#include <string>
#include <string_view>

namespace spinup {

// The length of the valid UTF-8 sequence at text[i] (1 to 4), or 0 when the bytes there are not
// one: overlong forms, surrogates, code points past U+10FFFF and truncated sequences are invalid.
size_t Utf8SequenceLength(std::string_view text, size_t i);

bool IsValidUtf8(std::string_view text);

// `text` with every byte that does not start a valid sequence replaced by U+FFFD.
std::string ToValidUtf8(std::string_view text);

}  // namespace spinup
