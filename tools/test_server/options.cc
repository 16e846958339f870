#include "test_server/options.h"

namespace test_server {

Options g_opt;
std::vector<std::string> g_argv;

void AddOptions(CLI::App& app, Options& o) {
  app.add_option("--scenario", o.scenario, "scenario")
      ->check(CLI::IsMember({"healthy", "slow", "hang-distributed-init",
                             "hang-rank1-distributed-init", "hang-cuda-graph", "crash-kv-cache",
                             "crash-loop", "killed-ranks-survive"}));
  app.add_option("--model,--model-path", o.model,
                 "checkpoint directory whose *.safetensors "
                 "every rank reads");
  app.add_option("--port", o.port, "HTTP port on 127.0.0.1 (0: any free port)");
  app.add_option("--host", o.host, "HTTP address");
  app.add_option("--tp", o.tp, "rank processes")->check(CLI::Range(1, 64));
  app.add_option("--time-scale", o.time_scale, "multiply every phase duration")
      ->check(CLI::Range(0.0, 1000.0));
  app.add_option("--loader", o.loader, "weight_load: read (read() calls) or mmap")
      ->check(CLI::IsMember({"read", "mmap"}));
  app.add_option("--read-bw", o.read_bw,
                 "per-rank read rate, e.g. 4M (default: unthrottled; "
                 "2M for --scenario slow)");
  app.add_option("--threads", o.threads, "threads in the whole tree (0: 4 per process)")
      ->check(CLI::Range(0, 100000));
  app.add_option("--fds", o.fds, "extra open fds per process (/dev/null)")
      ->check(CLI::Range(0, 10000));
  app.add_option("--log-file", o.log_file, "also append every line to this file");
  app.add_option("--replay", o.replay, "print this log's lines with their timing scaled, exit");
  app.add_option("--replay-max-gap", o.replay_max_gap, "longest pause in --replay (s)");
  app.add_option("--state-file", o.state_file, "crash-loop: run counter file");
  app.add_option("--fail-first", o.fail_first, "crash-loop: crash the first N runs (0: all)");
  app.add_option("--generate-model", o.generate_model, "write a small checkpoint here and exit");
  app.add_option("--model-bytes", o.model_bytes, "--generate-model: total tensor bytes");
  app.add_option("--shards", o.shards, "--generate-model: shard count")->check(CLI::Range(1, 999));
  app.add_option("--first-request", o.first_request,
                 "ok: POST /generate and /v1/completions serve one token; fail: they answer 500")
      ->check(CLI::IsMember({"ok", "fail"}));
  app.add_option("--pre-load", o.pre_load,
                 "seconds every rank waits in distributed_init before reading (imports, NCCL)")
      ->check(CLI::Range(0.0, 600.0));
  app.add_option("--max-lifetime", o.max_lifetime, "every process exits after this many s");
  app.add_option("--jitter", o.jitter,
                 "vary each phase's duration around its mean (normal, this relative sd)")
      ->check(CLI::Range(0.0, 2.0));
  app.add_option("--seed", o.seed, "--jitter: the seed of this run's draws");
  app.add_option("--rank-child", o.rank)->group("");  // internal
  app.add_option("--status-fd", o.status_fd)->group("");
}

}  // namespace test_server
