// The test server's flags (docs/test-server.md), parsed once in main() and read everywhere.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace test_server {

struct Options {
  std::string scenario = "healthy";
  std::string model;
  int port = 30000;
  std::string host = "127.0.0.1";
  int tp = 1;
  double time_scale = 1.0;
  std::string loader = "read";  // "read" (read() calls) or "mmap" (map and touch pages)
  std::string read_bw;          // "" = unthrottled; e.g. "4M", "512K", "1G", "1000000"
  int threads = 0;              // total threads in the tree; 0 = 4 per process
  int fds = 0;  // extra open fds per process (/dev/null), like a CUDA process's device fds
  std::string log_file;
  std::string replay;
  double replay_max_gap = 2.0;
  std::string state_file;
  int fail_first = 0;
  std::string first_request = "ok";
  double pre_load = 0;
  std::string generate_model;
  uint64_t model_bytes = 8 << 20;
  int shards = 4;
  double max_lifetime = 600;
  // Each phase's duration is multiplied by a factor drawn around 1 (normal, sd = jitter, clamped
  // to [0.3, 3]) from the seed and the phase: every rank draws the same factors.
  double jitter = 0;
  uint64_t seed = 1;
  // Internal: set when this process is a rank child.
  int rank = -1;
  int status_fd = -1;
};

// A process-wide singleton: the ranks are this same program, re-executed with these flags.
extern Options g_opt;
extern std::vector<std::string> g_argv;  // our own arguments, passed on to the ranks

// Registers every flag on `app`, bound to the fields of `o`.
void AddOptions(CLI::App& app, Options& o);

}  // namespace test_server
