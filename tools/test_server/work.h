// The real work the imitated phases stand for (time, CPU, idle threads, fds, hangs), shared by
// the main process and the ranks.
#pragma once

namespace test_server {

// Sleeps `seconds` times --time-scale.
void Sleep(double seconds);

// The --jitter factor of one phase (0 imports, 1 distributed_init, 2 weight_load, 3 kv_cache,
// 4 cuda_graph, 5 http_start).
double J(int phase);

// Busy CPU for `seconds` times --time-scale (imports are CPU-bound).
void Spin(double seconds);

// Threads that sit in futex waits forever, like a torch/NCCL thread pool with nothing to do.
void StartIdleThreads(int n);

// Extra open fds (never closed), so fd scans cost what they cost on a real server.
void OpenExtraFds(int n);

// The hang: the calling thread joins the idle threads in a futex wait that nothing ends.
[[noreturn]] void BlockForever();

// Threads each process of the tree runs (--threads spread over the launcher and --tp ranks).
int ThreadsPerProcess();

}  // namespace test_server
