// A traceback drawn by rich in a box (Typer's pretty exceptions: the CLI of TGI's shard,
// `text-generation-server`, prints one when it dies): each frame's header is `path:line in name`
// inside `│ ... │`, cut over two rows where the panel is narrower than the path, and the failing
// source line is marked `❱`. The rows are read back into the lines Python itself prints
// (`  File "path", line N, in name`, the code line under it), so the frame rules that name a
// phase see them. Pure: rows in, lines out; the state is only which panel row comes next.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace spinup {

// A frame of the stack Python's faulthandler dumps when the process dies of a signal (`Fatal
// Python error: Segmentation fault`): `  File "path", line N in name`, with no comma before `in`.
// True with `*line` set to the same frame as a traceback prints it (`..., line N, in name`), so
// the frame rules read it. faulthandler lists the innermost call first. Pure.
bool FaulthandlerFrame(std::string_view message, std::string* line);

// "triton.runtime.errors.OutOfResources: out of resource ...", "subprocess.TimeoutExpired: ...":
// the line a traceback ends in, for an exception whose class name does not say Error (those that
// do are rules), known by its module path. A leading "[rank] " tag is skipped. Pure.
bool QualifiedException(std::string_view line);

class RichTraceback {
 public:
  // The next row of the log (cleaned of colours). True when `*line` holds a Python-style line
  // the row completes: a frame's header (joined over its rows) or the failing code line.
  bool Offer(std::string_view row, std::string* line);

  bool in_panel() const { return in_panel_; }

 private:
  bool Header(std::string* line);

  bool in_panel_ = false;
  size_t rows_ = 0;         // rows read in the panel (a panel never drawn to its end is left)
  std::string header_;      // a frame header being joined over rows
  size_t header_rows_ = 0;  // how many rows it took so far
};

}  // namespace spinup
