// ---- main process ----------------------------------------------------------------------------
// The launcher, as SGLang's: spawns --tp scheduler ranks, waits on their status pipes (poll every
// 5 s), dies with the first rank that dies, and once every rank is ready serves HTTP (uvicorn).
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <fstream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>
#include <httplib.h>

#include "test_server/modes.h"
#include "test_server/options.h"
#include "test_server/output.h"
#include "test_server/work.h"

namespace test_server {

namespace {

pid_t SpawnRank(int rank, int* read_fd) {
  int p[2];
  if (::pipe2(p, O_CLOEXEC) != 0) return -1;
  pid_t pid = ::fork();
  if (pid == 0) {
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    int fd = p[1];
    if (fd == 3) {
      ::fcntl(3, F_SETFD, 0);
    } else {
      ::dup2(fd, 3);
    }
    std::vector<std::string> args;
    args.push_back(fmt::format("sglang::scheduler_TP{}", rank));
    for (size_t i = 1; i < g_argv.size(); ++i) args.push_back(g_argv[i]);
    args.push_back("--rank-child");
    args.push_back(std::to_string(rank));
    args.push_back("--status-fd");
    args.push_back("3");
    std::vector<char*> cargs;
    for (auto& a : args) cargs.push_back(a.data());
    cargs.push_back(nullptr);
    ::execv("/proc/self/exe", cargs.data());
    ::_exit(127);
  }
  ::close(p[1]);
  *read_fd = p[0];
  return pid;
}

// Counts runs in --state-file; true when this run should crash (crash-loop scenario).
bool CrashThisRun() {
  if (g_opt.state_file.empty()) return true;
  int count = 0;
  {
    std::ifstream in(g_opt.state_file);
    in >> count;
  }
  ++count;
  {
    std::ofstream out(g_opt.state_file, std::ios::trunc);
    out << count << "\n";
  }
  return g_opt.fail_first <= 0 || count <= g_opt.fail_first;
}

// crash-loop becomes crash-kv-cache or healthy for this run; the ranks must inherit the result.
void ResolveScenario() {
  std::string& sc = g_opt.scenario;
  if (sc == "crash-loop") sc = CrashThisRun() ? "crash-kv-cache" : "healthy";
  for (size_t i = 0; i + 1 < g_argv.size(); ++i) {
    if (g_argv[i] == "--scenario") g_argv[i + 1] = sc;
  }
  for (auto& a : g_argv) {
    if (a.starts_with("--scenario=")) a = "--scenario=" + sc;
  }
}

// SIGTERM, SIGINT and SIGHUP arrive on the returned signalfd; `mask` holds them.
int BlockSignals(sigset_t* mask) {
  sigemptyset(mask);
  sigaddset(mask, SIGTERM);
  sigaddset(mask, SIGINT);
  sigaddset(mask, SIGHUP);
  ::sigprocmask(SIG_BLOCK, mask, nullptr);
  int sfd = ::signalfd(-1, mask, SFD_CLOEXEC);
  ::signal(SIGPIPE, SIG_IGN);
  return sfd;
}

// The launcher's first line, its own threads and fds.
void StartLauncher() {
  Log(
      fmt::format("server_args=ServerArgs(model_path='{}', tokenizer_path='{}', tp_size={}, "
                  "host='{}', port={}, mem_fraction_static=0.88, dist_init_addr=None, "
                  "load_format='auto')",
                  g_opt.model, g_opt.model, g_opt.tp, g_opt.host, g_opt.port));
  // The launcher takes the remainder so the tree has exactly --threads threads.
  int per_proc = ThreadsPerProcess();
  if (g_opt.threads > 0) per_proc += std::max(0, g_opt.threads - per_proc * (g_opt.tp + 1));
  StartIdleThreads(per_proc - 1);
  OpenExtraFds(g_opt.fds);
}

// The rank children and their status pipes (-1 once a rank is gone).
struct Ranks {
  std::vector<pid_t> pids;
  std::vector<int> fds;
  std::vector<std::string> partial;  // unfinished status lines
  int ready = 0;

  void Kill(int sig) {
    for (pid_t p : pids) {
      if (p > 0) ::kill(p, sig);
    }
    for (pid_t p : pids) {
      if (p > 0) ::waitpid(p, nullptr, 0);
    }
  }
};

Ranks SpawnRanks() {
  Ranks ranks;
  ranks.pids.resize(static_cast<size_t>(g_opt.tp));
  ranks.fds.assign(ranks.pids.size(), -1);
  ranks.partial.resize(ranks.pids.size());
  for (int r = 0; r < g_opt.tp; ++r) {
    ranks.pids[static_cast<size_t>(r)] = SpawnRank(r, &ranks.fds[static_cast<size_t>(r)]);
  }
  return ranks;
}

struct Http {
  httplib::Server server;
  std::thread thread;
  std::atomic<bool> healthy{false};
  int port = 0;

  void Stop() {
    if (port > 0) {
      server.stop();
      if (thread.joinable()) thread.join();
    }
  }
};

// A termination signal: before uvicorn runs, Python has no handler and the process dies of it; a
// running uvicorn shuts down gracefully and exits 0.
int OnSignal(const signalfd_siginfo& si, const sigset_t& mask, bool ready, Ranks& ranks,
             Http& http) {
  ranks.Kill(SIGKILL);
  if (!ready) {
    ::signal(static_cast<int>(si.ssi_signo), SIG_DFL);
    ::sigprocmask(SIG_UNBLOCK, &mask, nullptr);
    ::raise(static_cast<int>(si.ssi_signo));
  }
  Log("INFO:     Shutting down");
  Log("INFO:     Finished server process [" + std::to_string(::getpid()) + "]");
  http.Stop();
  return 0;
}

// Reads the rank pipes that polled readable: counts "ready" lines; on a rank's EOF (it died) says
// so as SGLang does, stops everything and returns the exit code 1.
std::optional<int> RelayRanks(const std::vector<pollfd>& pfds, Ranks& ranks, Http& http) {
  for (size_t i = 0; i < ranks.fds.size(); ++i) {
    if (ranks.fds[i] < 0 || !(pfds[i + 1].revents & (POLLIN | POLLHUP | POLLERR))) continue;
    char buf[256];
    ssize_t n = ::read(ranks.fds[i], buf, sizeof(buf));
    if (n > 0) {
      ranks.partial[i].append(buf, static_cast<size_t>(n));
      if (ranks.partial[i].find("ready\n") != std::string::npos) {
        ranks.partial[i].clear();
        ++ranks.ready;
      }
      continue;
    }
    // EOF: the rank died.
    ::close(ranks.fds[i]);
    ranks.fds[i] = -1;
    int status = 0;
    ::waitpid(ranks.pids[i], &status, 0);
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
    ranks.pids[i] = -1;
    Log(
        fmt::format("Rank {} scheduler died during initialization (exit code: {}). If exit code "
                    "is -9 (SIGKILL), a common cause is the OS OOM killer. Run `dmesg` to check "
                    "for OOM errors.",
                    i, code));
    Log("Received sigquit from a child process. It usually means the child failed.");
    ranks.Kill(SIGKILL);
    http.Stop();
    return 1;
  }
  return std::nullopt;
}

// The first request: a one-token generation on SGLang's native endpoint and the OpenAI one.
// --first-request fail answers 500, as a server whose first real forward pass fails.
httplib::Server::Handler Generate(bool openai) {
  return [openai](const httplib::Request& req, httplib::Response& res) {
    if (g_opt.first_request == "fail") {
      res.status = 500;
      res.set_content(
          R"({"error":{"message":"CUDA error: an illegal memory access was encountered","code":500}})",
          "application/json");
      Log("ERROR:    Exception in ASGI application: RuntimeError: CUDA error: an illegal "
          "memory access was encountered");
      return;
    }
    if (req.body.find("max_") == std::string::npos) {
      res.status = 400;
      res.set_content(R"({"error":"no max tokens"})", "application/json");
      return;
    }
    res.set_content(
        openai
            ? R"({"id":"cmpl-1","object":"text_completion","model":"test-model","choices":[{"index":0,"text":"!","finish_reason":"length"}]})"
            : R"({"text":"!","meta_info":{"prompt_tokens":1,"completion_tokens":1}})",
        "application/json");
  };
}

void AddRoutes(Http& http) {
  http.server.Get("/health", [&http](const httplib::Request&, httplib::Response& res) {
    res.status = http.healthy ? 200 : 503;
    res.set_content(http.healthy ? "" : "starting", "text/plain");
  });
  http.server.Get("/v1/models", [](const httplib::Request&, httplib::Response& res) {
    res.set_content(
        R"({"object":"list","data":[{"id":"test-model","object":"model","owned_by":"sglang"}]})",
        "application/json");
  });
  http.server.Post("/generate", Generate(false));
  http.server.Post("/v1/completions", Generate(true));
  http.server.Get("/get_model_info", [](const httplib::Request&, httplib::Response& res) {
    res.set_content(R"({"model_path":"test-model","is_generation":true})", "application/json");
  });
}

// Binds --host:--port (0: any free port) and starts serving; false (after SGLang's bind error
// line) when the port is taken.
bool ServeHttp(Http& http) {
  AddRoutes(http);
  http.port = g_opt.port > 0 ? (http.server.bind_to_port(g_opt.host, g_opt.port) ? g_opt.port : -1)
                             : http.server.bind_to_any_port(g_opt.host);
  if (http.port <= 0) {
    Log(
        fmt::format("ERROR:    [Errno 98] error while attempting to bind on address ('{}', "
                    "{}): address already in use",
                    g_opt.host, g_opt.port));
    return false;
  }
  http.thread = std::thread([&http] { http.server.listen_after_bind(); });
  // stop() before the loop runs would be lost; wait until it runs.
  while (!http.server.is_running()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return true;
}

// uvicorn's start lines, the warm-up request, then /health turns 200.
void AnnounceReady(Http& http) {
  Log(fmt::format("INFO:     Started server process [{}]", ::getpid()));
  Log("INFO:     Waiting for application startup.");
  Log("INFO:     Application startup complete.");
  Log(fmt::format("INFO:     Uvicorn running on http://{}:{} (Press CTRL+C to quit)", g_opt.host,
                  http.port));
  Sleep(0.1 * J(5));
  Log("INFO:     127.0.0.1:40312 - \"GET /get_model_info HTTP/1.1\" 200 OK");
  Log("Prefill batch. #new-seq: 1, #new-token: 6, #cached-token: 0, token usage: 0.00, "
      "#running-req: 0, #queue-req: 0");
  Sleep(0.1);
  Log("INFO:     127.0.0.1:40326 - \"POST /generate HTTP/1.1\" 200 OK");
  http.healthy = true;
  Log("The server is fired up and ready to roll!");
}

// killed-ranks-survive: the launcher is SIGKILLed and its ranks live on (orphans).
[[noreturn]] void DieLeavingRanks() {
  Sleep(0.8);
  Log("Received sigquit from a child process. It usually means the child failed.");
  ::raise(SIGKILL);
  ::_exit(137);  // not reached: SIGKILL cannot be blocked
}

}  // namespace

int RunMain() {
  ResolveScenario();
  sigset_t mask;
  int sfd = BlockSignals(&mask);
  StartLauncher();
  Ranks ranks = SpawnRanks();
  if (g_opt.scenario == "killed-ranks-survive") DieLeavingRanks();

  Http http;
  bool ready = false;
  for (;;) {
    std::vector<pollfd> pfds;
    pfds.push_back({sfd, POLLIN, 0});
    for (int fd : ranks.fds) pfds.push_back({fd, POLLIN, 0});
    // SGLang's launcher polls its scheduler pipes every 5 s.
    int rc = ::poll(pfds.data(), pfds.size(), 5000);
    if (rc < 0 && errno != EINTR) break;
    if (rc <= 0) continue;
    if (pfds[0].revents & POLLIN) {
      signalfd_siginfo si{};
      if (::read(sfd, &si, sizeof(si)) > 0) return OnSignal(si, mask, ready, ranks, http);
    }
    if (auto code = RelayRanks(pfds, ranks, http)) return *code;
    if (!ready && ranks.ready == g_opt.tp) {
      ready = true;
      if (!ServeHttp(http)) {
        ranks.Kill(SIGKILL);
        return 1;
      }
      AnnounceReady(http);
    }
  }
  http.Stop();
  ranks.Kill(SIGKILL);
  return 1;
}

}  // namespace test_server
