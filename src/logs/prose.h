// A person's sentence pasted with a log (a bug report's "I get CUDA out of memory when ...", a
// markdown heading): it may quote an error, but no server printed it, so it is no evidence.
#pragma once

#include <string_view>

namespace spinup {

// Whether `line` (a whole line with no engine prefix, outside any traceback) reads as a person's
// prose: it opens with a first-person word or a greeting ("I", "We", "My", "Hi", ...) and has at
// least four words, or has a first-person "I" among at least three words, or it is a markdown
// heading, or a remark in brackets ("(20 minutes later, still no ...)"). Engines' bare lines open
// with an identifier ("RuntimeError:"), a path, a number or a bracketed tag.
// ... or it quotes an exception in markdown's inline code ("Error: `RuntimeError: ...`",
// "Getting `ValueError: ...` when I start it").
bool LooksLikeProse(std::string_view line);

// The next line of a person's note, indented under its first ("<--- hangs here. py-spy shows",
// then "     With --disable-custom-all-reduce it serves fine."): prose, or words that open with a
// letter, five or more, and no traceback frame ("File \"x.py\", line 3") or py-spy one ("f
// (x.py:3)").
bool GoesOnANote(std::string_view text);

// "RuntimeError: ...", "torch.OutOfMemoryError: ...", "[TP0] Error: ShardCannotStart": the line
// names its exception by an identifier before ": " (after an optional "[rank] " tag), as a
// traceback's last line does. "Traceback (most recent call last):" and a person's "Got a NCCL
// error" do not.
bool NamesAnException(std::string_view line);

// A markdown code fence ("```", "```text", "~~~"): the log was pasted into a report.
bool IsMarkdownFence(std::string_view line);

}  // namespace spinup
