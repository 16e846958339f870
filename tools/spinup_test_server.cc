// spinup_test_server — a TEST FIXTURE, not an inference server.
//
// It stands in for an SGLang server in spinup's tests, benchmarks and `make demo`: it prints
// SGLang-style startup log lines (real current timestamps, rank tags `[YYYY-MM-DD HH:MM:SS TPn]`)
// and does the real work each phase stands for, so that spinup's /proc, port and health signals
// see what they would see on a real start:
//   - spawns --tp rank processes titled "sglang::scheduler_TPn" (argv[0] and comm, via exec and
//     prctl(PR_SET_NAME)), each with --threads worth of idle worker threads;
//   - weight_load: every rank read()s every *.safetensors file of --model (throttled to
//     --read-bw bytes/s per rank), so /proc/PID/io, fdinfo offsets and page cache move;
//   - hangs block every thread of every rank in real futex waits (condition variables) and print
//     nothing more, while the main process waits in poll() like SGLang's launcher;
//   - crashes print SGLang's traceback and exit 1; the main process then exits 1 as well;
//   - ready binds --port on 127.0.0.1 (cpp-httplib) and answers /health 200 after the warm-up;
//   - killed-ranks-survive SIGKILLs the main process while its ranks live on (orphans).
// Scenarios: healthy, slow, hang-distributed-init, hang-cuda-graph, crash-kv-cache, crash-loop,
// killed-ranks-survive. Timings are scaled by --time-scale; at 1.0 each scenario reaches its end
// state within a few seconds. Every process exits after --max-lifetime seconds (default 600) so
// a test that forgets to kill it leaves nothing behind for long. See docs/test-server.md.
//
// This file is main() only; the parts live in tools/test_server/ (options, output, work, rank,
// main_process, replay, generate_model).
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>

#include <CLI/CLI.hpp>

#include "test_server/modes.h"
#include "test_server/options.h"
#include "test_server/output.h"

int main(int argc, char** argv) {
  using namespace test_server;
  g_argv.assign(argv, argv + argc);
  CLI::App app{
      "spinup_test_server: a TEST FIXTURE that imitates an SGLang server's startup "
      "(see docs/test-server.md)"};
  Options& o = g_opt;
  AddOptions(app, o);
  CLI11_PARSE(app, argc, argv);

  if (o.max_lifetime > 0) ::alarm(static_cast<unsigned>(std::max(1.0, o.max_lifetime)));
  if (!o.log_file.empty()) {
    g_log_fd = ::open(o.log_file.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  }
  if (!o.generate_model.empty()) return GenerateModel();
  if (!o.replay.empty()) return Replay();
  if (o.rank >= 0) RankMain();
  // _exit: idle threads still wait on the global condition variable, whose destructor (run by
  // exit()) would block on them.
  ::_exit(RunMain());
}
