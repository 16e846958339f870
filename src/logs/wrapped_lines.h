// A terminal's wrap copied as separate lines (a Windows console, a web log viewer, a mail): a
// long record arrives cut into fragments. Records whose own shape says they are unfinished are
// joined again: a Python traceback's frame line (`File "x.py", line 12, in fn`) and a JSON-lines
// object, whose rest a fragment without a record's start must carry; a natural log has neither
// unfinished. Any other line is joined only once the paste has shown its wrap width (LogStream
// learns it) and the line fills it exactly. Pure: text in, a decision out.
#pragma once

#include <cstddef>
#include <string_view>

namespace spinup {

enum class Unfinished {
  kNone,   // a whole record, or text of no known shape
  kFrame,  // a frame line cut before its function's name
  // A whole frame line, whose function's name a wrap may still have cut (`in cre` + `ate_x`):
  // only a bare lower-case word continues it.
  kFrameName,
  kJson,   // a JSON object cut before its closing brace
  kWidth,  // a line exactly as wide as the paste's wrap (the caller knows the width)
};

// Whether the line starts a record of its own rather than carrying a cut line's rest: a log's or
// a wrapper's prefix, a traceback's header or frame, an exception, an indented line, a tqdm bar.
bool StartsRecord(std::string_view line);

// The columns a terminal gives the line: its code points (UTF-8 continuation bytes take none).
size_t Columns(std::string_view line);

// Whether the line is a record of a known shape cut before its end.
Unfinished UnfinishedRecord(std::string_view line);

// Whether `next` can be the rest of `held` (an unfinished record of that kind): a fragment of
// the cut record, not a line of its own (indented, a new object, a new frame).
bool ContinuesRecord(std::string_view held, Unfinished kind, std::string_view next);

}  // namespace spinup
