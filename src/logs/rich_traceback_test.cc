#include "logs/rich_traceback.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace spinup {
namespace {

// The Python-style lines a run of rows gives.
std::vector<std::string> Read(const std::vector<std::string>& rows) {
  RichTraceback rich;
  std::vector<std::string> out;
  std::string line;
  for (const std::string& row : rows) {
    if (rich.Offer(row, &line)) out.push_back(line);
  }
  return out;
}

const std::string kTop =
    "╭───────────────────── Traceback (most recent call last) ──────────────────────╮";
const std::string kBottom =
    "╰──────────────────────────────────────────────────────────────────────────────╯";

TEST(RichTraceback, FrameHeadersJoinedOverTheirRows) {
  const auto lines = Read({
      kTop,
      "│ /opt/conda/lib/python3.10/site-packages/text_generation_server/cli.py:89 in  │",
      "│ serve                                                                        │",
      "│                                                                              │",
      "│    86 │   │   raise RuntimeError(                                            │",
      "│ ❱  89 │   server.serve(                                                      │",
      "│    90 │   │   model_id,                                                      │",
      "│                                                                              │",
      "│ /opt/conda/lib/python3.10/site-packages/text_generation_server/models/flash_ │",
      "│ causal_lm.py:1234 in warmup                                                  │",
      "│                                                                              │",
      "│ /opt/conda/lib/python3.10/site-packages/text_generation_server/server.py:235 │",
      "│ in serve_inner                                                               │",
      kBottom,
      "RuntimeError: boom",
  });
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines[0],
            "  File \"/opt/conda/lib/python3.10/site-packages/text_generation_server/cli.py\", "
            "line 89, in serve");
  EXPECT_EQ(lines[1], "    server.serve(");  // the marked line, without rich's guides
  EXPECT_EQ(lines[2],
            "  File \"/opt/conda/lib/python3.10/site-packages/text_generation_server/models/"
            "flash_causal_lm.py\", line 1234, in warmup");  // a folded path: no space added
  EXPECT_EQ(lines[3],
            "  File \"/opt/conda/lib/python3.10/site-packages/text_generation_server/server.py\", "
            "line 235, in serve_inner");
}

TEST(RichTraceback, OnlyInsideATracebacksPanel) {
  // Rows of another box (k9s frames every line, a banner): no frame, even in their words.
  EXPECT_TRUE(Read({"│ INFO 12:00:01 started │", "│ /models/llama:12 in use │"}).empty());
  EXPECT_TRUE(Read({"╭──── Settings ────╮", "│ ❱ 12 │ x = 1 │", "│ /opt/app │"}).empty());
  // Rows after the panel's end, or after a line outside it, until one is a frame's header.
  EXPECT_TRUE(Read({kTop, kBottom, "│ ❱  89 │   server.serve( │"}).empty());
  EXPECT_TRUE(Read({kTop, "RuntimeError: boom", "│ serve │"}).empty());
  // An excerpt that starts inside the panel (or resumes after a cut) at a frame's header.
  const auto cut = Read({"│ /opt/app/x.py:12 in run │", "│ ❱ 12 │ x = 1 │"});
  ASSERT_EQ(cut.size(), 2u);
  EXPECT_EQ(cut[0], "  File \"/opt/app/x.py\", line 12, in run");
  // A locals box inside the panel is not a frame; a header never completed is dropped.
  EXPECT_TRUE(Read({kTop, "│ ╭──── locals ────╮ │", "│ │ x = 1 │ │", "│ /opt/app/x.py:12 │",
                    "│                  │", "│ in run           │"})
                  .empty());
}

TEST(RichTraceback, WindowsPathsAndTheModuleFrame) {
  const auto lines =
      Read({kTop, "│ C:\\app\\serve.py:7 in <module> │", "│ <string>:1 in <lambda> │", kBottom});
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0], "  File \"C:\\app\\serve.py\", line 7, in <module>");
  EXPECT_EQ(lines[1], "  File \"<string>\", line 1, in <lambda>");
}

// faulthandler's frames read as a traceback's, so the frame rules see them; nothing else is.
TEST(FaulthandlerFrame, ReadAsATracebacksFrame) {
  std::string line;
  ASSERT_TRUE(
      FaulthandlerFrame("  File \"/x/vllm/v1/worker/gpu_model_runner.py\", line 3276 in "
                        "_capture_cudagraphs",
                        &line));
  EXPECT_EQ(line,
            "  File \"/x/vllm/v1/worker/gpu_model_runner.py\", line 3276, in _capture_cudagraphs");
  ASSERT_TRUE(FaulthandlerFrame("File \"<string>\", line 1 in <module>", &line));
  EXPECT_EQ(line, "File \"<string>\", line 1, in <module>");
  EXPECT_FALSE(FaulthandlerFrame("  File \"/x/a.py\", line 12, in load_model", &line));
  EXPECT_FALSE(FaulthandlerFrame("  File \"/x/a.py\", line in f", &line));
  EXPECT_FALSE(FaulthandlerFrame("  File \"/x/a.py\", line 12 in ", &line));
  EXPECT_FALSE(FaulthandlerFrame("File not found: /x/a.py", &line));
  EXPECT_FALSE(FaulthandlerFrame("", &line));
}

TEST(QualifiedException, ModulePathAndClassName) {
  EXPECT_TRUE(QualifiedException("triton.runtime.errors.OutOfResources: out of resource: shared"));
  EXPECT_TRUE(QualifiedException("[EngineCore_DP0] subprocess.TimeoutExpired: Command timed out"));
  EXPECT_TRUE(QualifiedException("concurrent.futures.process.BrokenProcessPool: A process died"));
  EXPECT_FALSE(QualifiedException("OutOfResources: no module path"));
  EXPECT_FALSE(QualifiedException("vllm.config: loading"));            // no class
  EXPECT_FALSE(QualifiedException("torch.OK: two capitals"));          // not a class name
  EXPECT_FALSE(QualifiedException("see https://x.y/Z: for details"));  // not a name
  EXPECT_FALSE(QualifiedException("a.B: "));                           // nothing after it
  EXPECT_FALSE(QualifiedException("[rank0"));
}

}  // namespace
}  // namespace spinup
