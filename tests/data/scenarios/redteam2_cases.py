# Red-team round (twenty-second): fresh logs written from the engines' sources; each class found.

# vLLM's own word that its engine died while serving (V1's busy loop: "EngineCore encountered a
# fatal error", EngineDeadError; V0's MQLLMEngine): ready, then died while serving, however soon
# after the server's start line ("serving" rules).
RT2_V1_UP = '''(EngineCore_DP0 pid=212) INFO 09-12 10:01:20 [gpu_model_runner.py:2338] Starting to load model Qwen/Qwen2.5-7B-Instruct...
(EngineCore_DP0 pid=212) INFO 09-12 10:01:26 [gpu_model_runner.py:2392] Model loading took 14.2488 GiB and 4.512 seconds
(EngineCore_DP0 pid=212) INFO 09-12 10:02:07 [kv_cache_utils.py:868] Maximum concurrency for 32,768 tokens per request: 61.40x
(EngineCore_DP0 pid=212) INFO 09-12 10:02:15 [core.py:218] init engine (profile, create kv cache, warmup model) took 48.72 seconds
(APIServer pid=1) INFO 09-12 10:02:16 [api_server.py:1971] Starting vLLM API server 0 on http://0.0.0.0:8000
(APIServer pid=1) INFO:     Started server process [1]
(APIServer pid=1) INFO:     Waiting for application startup.
(APIServer pid=1) INFO:     Application startup complete.
'''
RT2_V1_DIED = '''(EngineCore_DP0 pid=212) ERROR 09-12 10:02:21 [core.py:710] EngineCore encountered a fatal error.
(EngineCore_DP0 pid=212) ERROR 09-12 10:02:21 [core.py:710] Traceback (most recent call last):
(EngineCore_DP0 pid=212) ERROR 09-12 10:02:21 [core.py:710]   File "/usr/local/lib/python3.12/dist-packages/vllm/v1/engine/core.py", line 701, in run_engine_core
(EngineCore_DP0 pid=212) ERROR 09-12 10:02:21 [core.py:710]     engine_core.run_busy_loop()
(EngineCore_DP0 pid=212) ERROR 09-12 10:02:21 [core.py:710] torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 4.00 GiB.
(APIServer pid=1) ERROR 09-12 10:02:21 [async_llm.py:480] AsyncLLM output_handler failed.
(APIServer pid=1) ERROR 09-12 10:02:21 [async_llm.py:480] vllm.v1.engine.exceptions.EngineDeadError: EngineCore encountered an issue. See stack trace (above) for the root cause.
'''
case('rt2_v1_engine_died_after_request', 'ready', 'ready', 'gpu_oom', RT2_V1_UP +
     '(APIServer pid=1) INFO:     10.0.0.5:51234 - "POST /v1/chat/completions HTTP/1.1" 200 OK\n' + RT2_V1_DIED +
     '(APIServer pid=1) INFO:     10.0.0.5:51240 - "POST /v1/chat/completions HTTP/1.1" 500 Internal Server Error\n'
     '(APIServer pid=1) INFO:     Shutting down\n')
case('rt2_v1_engine_died_no_request_seen', 'ready', 'ready', 'gpu_oom', RT2_V1_UP + RT2_V1_DIED)
case('rt2_v0_mq_engine_dead_while_serving', 'ready', 'ready', '*', '''INFO 10-02 09:00:01 api_server.py:528] vLLM API server version 0.6.2
INFO 10-02 09:00:20 model_runner.py:1025] Loading model weights took 14.9888 GB
INFO 10-02 09:00:25 gpu_executor.py:122] # GPU blocks: 27887, # CPU blocks: 2048
INFO 10-02 09:00:40 model_runner.py:1456] Graph capturing finished in 15 secs.
INFO 10-02 09:00:41 launcher.py:19] Available routes are:
INFO:     Started server process [7]
INFO:     Waiting for application startup.
INFO:     Application startup complete.
INFO:     Uvicorn running on http://0.0.0.0:8000 (Press CTRL+C to quit)
INFO:     10.0.0.5:40000 - "POST /v1/completions HTTP/1.1" 200 OK
ERROR 10-02 09:30:02 client.py:282] RuntimeError('Engine loop has died')
CRITICAL 10-02 09:30:02 launcher.py:99] MQLLMEngine is already dead, terminating server process
INFO:     10.0.0.5:40010 - "POST /v1/completions HTTP/1.1" 500 Internal Server Error
''')
# A start that came up and died while serving, then a restart that crashed: one failed start, no
# loop.
case('rt2_v1_died_serving_then_restart_crashed', 'crashed', 'launch', '*', RT2_V1_UP +
     '(APIServer pid=1) INFO:     10.0.0.5:51234 - "POST /v1/chat/completions HTTP/1.1" 200 OK\n' + RT2_V1_DIED + '''(APIServer pid=1) INFO 09-12 10:21:05 [api_server.py:1896] vLLM API server version 0.10.2
(EngineCore_DP0 pid=212) INFO 09-12 10:21:18 [core.py:76] Initializing a V1 LLM engine (v0.10.2) with config: model='Qwen/Qwen2.5-7B-Instruct'
(EngineCore_DP0 pid=212) ERROR 09-12 10:21:20 [core.py:718] EngineCore failed to start.
(EngineCore_DP0 pid=212) ERROR 09-12 10:21:20 [core.py:718] Traceback (most recent call last):
(EngineCore_DP0 pid=212) ERROR 09-12 10:21:20 [core.py:718]   File "/usr/local/lib/python3.12/dist-packages/vllm/v1/worker/gpu_worker.py", line 178, in init_device
(EngineCore_DP0 pid=212) ERROR 09-12 10:21:20 [core.py:718] ValueError: Free memory on device (5.12/79.19 GiB) on startup is less than desired GPU memory utilization (0.9, 71.27 GiB).
(APIServer pid=1) RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}
''')

# A kill after a stop was asked for is the stop's (SGLang kills its own tree; docker compose's
# forced stop): no host-RAM OOM.
case('rt2_sglang_killed_after_ctrl_c', 'ready', 'ready', None, '''[2025-03-10 10:00:00] server_args=ServerArgs(model_path='Qwen/Qwen2.5-7B-Instruct', tp_size=1)
[2025-03-10 10:00:05 TP0] Load weight begin. avail mem=78.00 GB
[2025-03-10 10:00:12 TP0] Load weight end. type=Qwen2ForCausalLM, dtype=torch.bfloat16, avail mem=63.10 GB, mem usage=14.90 GB.
[2025-03-10 10:00:14 TP0] Capture cuda graph begin. This can take up to several minutes. avail mem=8.10 GB
[2025-03-10 10:00:19 TP0] Capture cuda graph end. Time elapsed: 5.50 s. mem usage=0.50 GB. avail mem=7.60 GB.
[2025-03-10 10:00:20] INFO:     Uvicorn running on http://0.0.0.0:30000 (Press CTRL+C to quit)
[2025-03-10 10:00:20] The server is fired up and ready to roll!
[2025-03-10 10:01:03 TP0] Decode batch. #running-req: 1, #token: 552, token usage: 0.00, cuda graph: True, gen throughput (token/s): 48.21, #queue-req: 0
^C[2025-03-10 10:05:00] INFO:     Shutting down
[2025-03-10 10:05:00] INFO:     Finished server process [1]
Killed
''')
case('rt2_compose_forced_stop_137', 'ready', 'ready', None, '\n'.join('vllm-1  | ' + l for l in RT2_V1_UP.strip('\n').split('\n')) + '''
vllm-1  | (APIServer pid=1) INFO:     10.0.0.5:51234 - "POST /v1/chat/completions HTTP/1.1" 200 OK
^CGracefully stopping... (press Ctrl+C again to force)
^CERRO[0012] got 3 SIGTERM/SIGINTs, forcefully exiting
vllm-1 exited with code 137
''')

# systemd's start limit refuses the restart it had just scheduled: that start never ran (two
# attempts, not three).
RT2_KV = "ValueError: To serve at least one request with the models's max seq len (131072), (24.00 GiB KV cache is needed, which is larger than the available KV cache memory (9.50 GiB)."
def rt2_journal_run(m, pid):
    return f'''Sep 12 10:{m:02d}:05 n3 vllm[{pid}]: (APIServer pid=1) INFO 09-12 10:{m:02d}:05 [api_server.py:1896] vLLM API server version 0.10.2
Sep 12 10:{m:02d}:30 n3 vllm[{pid}]: (EngineCore_DP0 pid=212) INFO 09-12 10:{m:02d}:30 [gpu_model_runner.py:2392] Model loading took 14.2488 GiB and 4.512 seconds
Sep 12 10:{m:02d}:59 n3 vllm[{pid}]: (EngineCore_DP0 pid=212) ERROR 09-12 10:{m:02d}:59 [core.py:718] {RT2_KV}
Sep 12 10:{m+1:02d}:01 n3 systemd[1]: vllm.service: Main process exited, code=exited, status=1/FAILURE
'''
case('rt2_journal_start_limit_refuses_third', 'crash_loop', 'kv_cache', 'kv_memory',
     rt2_journal_run(1, 48211) + '''Sep 12 10:02:11 n3 systemd[1]: vllm.service: Scheduled restart job, restart counter is at 1.
Sep 12 10:02:11 n3 systemd[1]: Started vLLM OpenAI server.
''' + rt2_journal_run(3, 49002) + '''Sep 12 10:04:11 n3 systemd[1]: vllm.service: Scheduled restart job, restart counter is at 2.
Sep 12 10:04:11 n3 systemd[1]: vllm.service: Start request repeated too quickly.
Sep 12 10:04:11 n3 systemd[1]: vllm.service: Failed with result 'exit-code'.
Sep 12 10:04:11 n3 systemd[1]: Failed to start vLLM OpenAI server.
''')

# A person re-running the command at a shell prompt is no supervisor's restart loop.
RT2_SG_GRAPH_OOM = '''[2025-03-10 10:{m:02d}:00] server_args=ServerArgs(model_path='Qwen/Qwen2.5-7B-Instruct', tp_size=1, mem_fraction_static=0.88)
[2025-03-10 10:{m:02d}:11 TP0] Capture cuda graph begin. This can take up to several minutes. avail mem=1.10 GB
[2025-03-10 10:{m:02d}:14 TP0] Scheduler hit an exception: Traceback (most recent call last):
  File "/sgl-workspace/sglang/python/sglang/srt/model_executor/cuda_graph_runner.py", line 390, in capture
    ) = self.capture_one_batch_size(bs, forward)
Exception: Capture cuda graph failed: CUDA out of memory. Tried to allocate 160.00 MiB.
[2025-03-10 10:{m:02d}:14] Received sigquit from a child process. It usually means the child failed.
'''
case('rt2_manual_rerun_is_no_restart_loop', 'crashed', 'cuda_graph', 'gpu_oom', RT2_SG_GRAPH_OOM.format(m=0) +
     'root@h100:/sgl# python -m sglang.launch_server --model-path Qwen/Qwen2.5-7B-Instruct\n' + RT2_SG_GRAPH_OOM.format(m=3))

# Python's faulthandler dump (a segfault): `File "...", line N in fn`, innermost call first.
RT2_FH = '''(EngineCore_DP0 pid=298) INFO 09-12 10:00:18 [core.py:76] Initializing a V1 LLM engine (v0.10.2) with config: model='Qwen/Qwen2.5-7B-Instruct'
(EngineCore_DP0 pid=298) Fatal Python error: Segmentation fault
(EngineCore_DP0 pid=298) 
(EngineCore_DP0 pid=298) Current thread 0x00007f1f3c2a5740 (most recent call first):
'''
def rt2_fh(frames):
    return RT2_FH + ''.join(f'(EngineCore_DP0 pid=298)   File "/usr/local/lib/python3.12/dist-packages/{p}", line {n} in {fn}\n' for p, n, fn in frames) + '''(EngineCore_DP0 pid=298) 
(EngineCore_DP0 pid=298) Extension modules: numpy._core._multiarray_umath, torch._C (total: 95)
(APIServer pid=1) RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {'EngineCore_DP0': -11}
'''
case('rt2_v1_segfault_dump_in_capture', 'crashed', 'cuda_graph', None, rt2_fh([
    ('torch/cuda/graphs.py', 84, 'capture_end'), ('vllm/v1/worker/gpu_model_runner.py', 2812, '_dummy_run'),
    ('vllm/v1/worker/gpu_model_runner.py', 3276, '_capture_cudagraphs'), ('vllm/v1/worker/gpu_model_runner.py', 3206, 'capture_model'),
    ('vllm/v1/worker/gpu_worker.py', 380, 'compile_or_warm_up_model'), ('vllm/v1/engine/core.py', 216, '_initialize_kv_caches'),
    ('vllm/v1/engine/core.py', 709, 'run_engine_core')]))
case('rt2_v1_segfault_dump_in_load', 'crashed', 'weight_load', None, rt2_fh([
    ('safetensors/torch.py', 313, 'load_file'), ('vllm/model_executor/model_loader/weight_utils.py', 470, 'safetensors_weights_iterator'),
    ('vllm/model_executor/models/qwen2.py', 480, 'load_weights'), ('vllm/model_executor/model_loader/default_loader.py', 269, 'load_weights'),
    ('vllm/v1/worker/gpu_model_runner.py', 2345, 'load_model'), ('vllm/v1/engine/core.py', 80, '__init__')]))

# Triton starts gRPC, then HTTP: a service that fails to start after another started ends the
# start (gRPC's line alone is not ready while HTTP is still to come).
TRITON_LOADED = '''I0901 12:00:00.100000 1 pinned_memory_manager.cc:277] "Pinned memory pool is created at '0x7fa000000000' with size 268435456"
I0901 12:00:00.200000 1 model_lifecycle.cc:472] "loading: tensorrt_llm:1"
[TensorRT-LLM][INFO] Loaded engine size: 15330 MiB
I0901 12:00:31.442011 1 model_lifecycle.cc:839] "successfully loaded 'tensorrt_llm'"
'''
case('rt2_triton_http_port_taken_after_grpc', 'crashed', 'http_start', 'port_in_use', TRITON_LOADED + '''I0901 12:00:31.520001 1 grpc_server.cc:2466] "Started GRPCInferenceService at 0.0.0.0:8001"
E0901 12:00:31.520301 1 main.cc:245] "failed to start HTTP service: Unavailable - Socket '0.0.0.0:8000' already in use "
I0901 12:00:31.520401 1 server.cc:1261] "Waiting for in-flight requests to complete."
I0901 12:00:31.520501 1 server.cc:1291] "All models are stopped, unloading models"
''')
case('rt2_triton_grpc_and_http_up', 'ready', 'ready', None, TRITON_LOADED + '''I0901 12:00:31.520001 1 grpc_server.cc:2466] "Started GRPCInferenceService at 0.0.0.0:8001"
I0901 12:00:31.530001 1 http_server.cc:4638] "Started HTTPService at 0.0.0.0:8000"
I0901 12:00:31.570001 1 http_server.cc:320] "Started Metrics Service at 0.0.0.0:8002"
''')
# --log-format ISO8601: "2025-09-01T12:00:31Z I 1 file.cc:NN] msg".
case('rt2_triton_iso8601_grpc_port_taken', 'crashed', 'http_start', 'port_in_use', '''2025-09-01T12:00:00Z I 1 pinned_memory_manager.cc:277] "Pinned memory pool is created at '0x7fa000000000' with size 268435456"
2025-09-01T12:00:00Z I 1 model_lifecycle.cc:472] "loading: tensorrt_llm:1"
2025-09-01T12:00:00Z I 1 libtensorrtllm.cc:91] "TRITONBACKEND_ModelInitialize: tensorrt_llm (version 1)"
[TensorRT-LLM][INFO] Loaded engine size: 15330 MiB
[TensorRT-LLM][INFO] [MemUsageChange] Allocated 36.12 GiB for max tokens in paged KV cache (295936).
2025-09-01T12:00:31Z I 1 model_lifecycle.cc:839] "successfully loaded 'tensorrt_llm'"
2025-09-01T12:00:31Z E 1 main.cc:245] "failed to start GRPC service: Unavailable - Socket '0.0.0.0:8001' already in use "
2025-09-01T12:00:31Z I 1 server.cc:1291] "All models are stopped, unloading models"
''')

# TensorRT-LLM's NCCL check: "Failed, NCCL error <file>:<line> 'unhandled cuda error ...'".
case('rt2_trt_nccl_unhandled_cuda_error', 'crashed', 'distributed_init', 'nccl_p2p', '''[TensorRT-LLM][INFO] MPI size: 2, MPI local size: 2, rank: 1
[TensorRT-LLM][INFO] Rank 1 is using GPU 1
[TensorRT-LLM][INFO] Loaded engine size: 34210 MiB
[TensorRT-LLM][ERROR] tensorrt_llm::common::TllmException: [TensorRT-LLM][ERROR] Failed, NCCL error /workspace/tensorrt_llm/cpp/tensorrt_llm/plugins/common/plugin.cpp:92 'unhandled cuda error (run with NCCL_DEBUG=INFO for details)'
1       0x7f64f2a1b6c2 void tensorrt_llm::common::check<ncclResult_t>(ncclResult_t, char const*, char const*, int) + 130
2       0x7f64f2a3c1d0 tensorrt_llm::plugins::getComm(std::set<int, std::less<int>, std::allocator<int> > const&) + 1696
MPI_ABORT was invoked on rank 1 in communicator MPI_COMM_WORLD
''')

# TGI's first all-reduce is in the warm-up: a watchdog timeout there is the classic P2P hang.
case('rt2_tgi_nccl_watchdog_in_warmup', 'crashed', 'kv_cache', 'nccl_p2p', '''2024-10-21T22:00:00.100000Z  INFO text_generation_launcher: Sharding model on 2 processes
2024-10-21T22:00:00.300000Z  INFO shard-manager: text_generation_launcher: Starting shard rank=0
2024-10-21T22:00:00.300100Z  INFO shard-manager: text_generation_launcher: Starting shard rank=1
2024-10-21T22:00:42.000000Z  INFO shard-manager: text_generation_launcher: Shard ready in 41.7s rank=0
2024-10-21T22:00:42.000100Z  INFO shard-manager: text_generation_launcher: Shard ready in 41.7s rank=1
2024-10-21T22:00:42.100000Z  INFO text_generation_launcher: Starting Webserver
2024-10-21T22:00:42.200000Z  INFO text_generation_router_v3: backends/v3/src/lib.rs:90: Warming up model
2024-10-21T22:10:43.501000Z ERROR shard-manager: text_generation_launcher: Shard complete standard error output:

[rank1]:[E1021 22:10:42.911423 ProcessGroupNCCL.cpp:607] [Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=3, OpType=ALLREDUCE, NumelIn=33554432, NumelOut=33554432, Timeout(ms)=600000) ran for 600066 milliseconds before timing out.
 rank=1
2024-10-21T22:10:43.501100Z ERROR shard-manager: text_generation_launcher: Shard process was signaled to shutdown with signal 6 rank=1
2024-10-21T22:10:43.600000Z ERROR text_generation_launcher: Shard 1 crashed
''')

# TGI's own capture of a decode CUDA graph failing is logged and skipped: no warm-up request failed.
case('rt2_tgi_graph_warmup_oom_not_fatal', 'ready', 'ready', None, '''2024-12-12T10:00:04.400300Z  INFO shard-manager: text_generation_launcher: Starting shard rank=0
2024-12-12T10:00:22.910000Z  INFO shard-manager: text_generation_launcher: Shard ready in 18.509922831s rank=0
2024-12-12T10:00:23.000000Z  INFO text_generation_launcher: Starting Webserver
2024-12-12T10:00:23.080000Z  INFO text_generation_router_v3: backends/v3/src/lib.rs:125: Warming up model
2024-12-12T10:00:24.330000Z  INFO text_generation_launcher: Cuda Graphs are enabled for sizes [32, 16, 8, 4, 2, 1]
2024-12-12T10:00:25.901000Z ERROR text_generation_launcher: Decode cuda graph warmup failed
Traceback (most recent call last):
  File "/opt/conda/lib/python3.11/site-packages/text_generation_server/models/flash_causal_lm.py", line 1453, in cuda_graph_warmup
    with torch.cuda.graph(graph, pool=MEM_POOL):
torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total capacity of 79.44 GiB of which 11.06 MiB is free.
2024-12-12T10:00:26.010000Z  INFO text_generation_router_v3: backends/v3/src/lib.rs:137: Setting max batch total tokens to 3212
2024-12-12T10:00:26.010200Z  INFO text_generation_router::server: router/src/server.rs:2273: Connected
''')

# Second wave.
# SGLang 0.5's scheduler watchdog also runs while the scheduler initialises: its timeout says
# nothing of the phase (0.4's "Watchdog timeout (...)" ran only in the event loop: warmup).
case('rt2_sglang_watchdog_during_load', 'crashed', 'weight_load', '*', '''[2025-10-02 08:00:01] server_args=ServerArgs(model_path='/data/models/Kimi-K2-Instruct', tp_size=8, watchdog_timeout=300)
[2025-10-02 08:00:12 TP0] Init torch distributed begin.
[2025-10-02 08:00:14 TP0] Init torch distributed ends. mem usage=1.12 GB
[2025-10-02 08:00:15 TP0] Load weight begin. avail mem=137.40 GB
Loading safetensors checkpoint shards:   0% Completed | 0/62 [00:00<?, ?it/s]
Loading safetensors checkpoint shards:  10% Completed | 6/62 [04:11<39:05, 41.88s/it]
[2025-10-02 08:05:21 TP3] Scheduler watchdog timeout (self.watchdog_timeout=300, self.soft=False)
[2025-10-02 08:05:26] Received sigquit from a child process. It usually means the child failed.
''')
# uvicorn logs "Application startup complete." before it binds: a bind error after it is the
# HTTP start's.
case('rt2_sglang_bind_after_app_startup', 'crashed', 'http_start', 'port_in_use', '''[2025-01-22 13:43:40] server_args=ServerArgs(model_path='Qwen/Qwen2.5-7B-Instruct', tp_size=1, port=30000)
[2025-01-22 13:43:45 TP0] Load weight begin. avail mem=78.00 GB
[2025-01-22 13:43:55 TP0] Load weight end. type=Qwen2ForCausalLM, dtype=torch.bfloat16, avail mem=63.00 GB
[2025-01-22 13:43:56 TP0] Capture cuda graph begin. This can take up to several minutes.
[2025-01-22 13:44:09 TP0] Capture cuda graph end. Time elapsed: 12.04 s
[2025-01-22 13:44:10 TP0] max_total_num_tokens=1190112, chunked_prefill_size=8192, max_prefill_tokens=16384
[2025-01-22 13:44:10] INFO:     Started server process [3021]
[2025-01-22 13:44:10] INFO:     Waiting for application startup.
[2025-01-22 13:44:10] INFO:     Application startup complete.
[2025-01-22 13:44:10] ERROR:    [Errno 98] error while attempting to bind on address ('0.0.0.0', 30000): address already in use
[2025-01-22 13:44:10] INFO:     Waiting for application shutdown.
''')
# The first rank to fail failed where it was; a peer failing after it (its NCCL peer gone) in a
# later phase names neither the phase nor the error.
case('rt2_sglang_first_failing_rank_wins', 'crashed', 'kv_cache', '*', '''[2025-05-12 09:00:00] server_args=ServerArgs(model_path='Qwen/Qwen3-30B-A3B', tp_size=2)
[2025-05-12 09:00:01 TP0] Load weight begin. avail mem=78.00 GB
[2025-05-12 09:00:01 TP1] Load weight begin. avail mem=78.00 GB
[2025-05-12 09:00:41 TP1] Load weight end. type=Qwen3MoeForCausalLM, dtype=torch.bfloat16, avail mem=12.33 GB, mem usage=58.40 GB.
[2025-05-12 09:00:41 TP0] Load weight end. type=Qwen3MoeForCausalLM, dtype=torch.bfloat16, avail mem=12.33 GB, mem usage=58.40 GB.
[2025-05-12 09:00:42 TP1] Memory pool end. avail mem=8.55 GB
[2025-05-12 09:00:42 TP0] Scheduler hit an exception: Traceback (most recent call last):
  File "/sgl-workspace/sglang/python/sglang/srt/model_executor/model_runner.py", line 1020, in init_memory_pool
    self.token_to_kv_pool = MHATokenToKVPool(
torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 5.21 GiB. GPU 0 has a total capacity of 79.10 GiB of which 3.02 GiB is free.

[2025-05-12 09:00:43 TP1] Capture cuda graph begin. This can take up to several minutes. avail mem=8.20 GB
[2025-05-12 09:00:43 TP1] Scheduler hit an exception: Traceback (most recent call last):
  File "/sgl-workspace/sglang/python/sglang/srt/model_executor/cuda_graph_runner.py", line 390, in capture
    ) = self.capture_one_batch_size(bs, forward)
  File "/sgl-workspace/sglang/python/sglang/srt/distributed/device_communicators/pynccl_wrapper.py", line 374, in NCCL_CHECK
    raise RuntimeError(f"NCCL error: {error_str}")
RuntimeError: NCCL error: remote process exited or there was a network error
[2025-05-12 09:00:43] Received sigquit from a child process. It usually means the child failed.
''')
# vLLM 0.4 prints no line when it starts loading a local checkpoint: the phase a line inside it
# only showed (distributed init, "Found nccl from library") ran until that line, the load after.
case('rt2_v04_local_load_after_nccl_line', 'ready', 'ready', 'slow_weight_reads', '''INFO 05-20 10:11:02 api_server.py:149] vLLM API server version 0.4.2
INFO 05-20 10:11:04 llm_engine.py:100] Initializing an LLM engine (v0.4.2) with config: model='/mnt/nfs/llama3-8b', tokenizer='/mnt/nfs/llama3-8b', tensor_parallel_size=1, seed=0
INFO 05-20 10:11:06 utils.py:660] Found nccl from library /root/.config/vllm/nccl/cu12/libnccl.so.2.18.1
INFO 05-20 10:11:07 selector.py:27] Using FlashAttention-2 backend.
INFO 05-20 10:36:51 model_runner.py:175] Loading model weights took 14.9595 GB
INFO 05-20 10:36:53 gpu_executor.py:114] # GPU blocks: 27914, # CPU blocks: 2048
INFO 05-20 10:36:55 model_runner.py:1017] Capturing the model for CUDA graphs. This may lead to unexpected consequences if the model is not static.
INFO 05-20 10:37:01 model_runner.py:1097] Graph capturing finished in 6 secs.
INFO:     Started server process [1]
INFO:     Waiting for application startup.
INFO:     Application startup complete.
INFO:     Uvicorn running on http://0.0.0.0:8000 (Press CTRL+C to quit)
''')
# A terminal wrap that cut "torch.OutOf|MemoryError": a CUDA OOM, not the host's MemoryError.
case('rt2_wrap_cut_inside_oom_name', 'crashed', '*', 'gpu_oom', '''(VllmWorker TP0 pid=294) INFO 09-03 02:12:42 [gpu_worker.py:276] Available KV cache m
emory: 71.02 GiB
(VllmWorker TP0 pid=294) ERROR 09-03 02:12:55 [multiproc_executor.py:596] WorkerProc 
hit an exception.
(VllmWorker TP0 pid=294) ERROR 09-03 02:12:55 [multiproc_executor.py:596] Traceback (
most recent call last):
(VllmWorker TP0 pid=294) ERROR 09-03 02:12:55 [multiproc_executor.py:596] torch.OutOf
MemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capaci
ty of 79.19 GiB of which 1.12 GiB is free. Process 41876 has 78.06 GiB memory in use.
''')
# vLLM's JSON logging (python-json-logger): times in "asctime", the traceback in "exc_info".
def rt2_pyjson(tag, t, level, msg, exc=None):
    o = {"asctime": f"2025-09-03 {t},123", "levelname": level, "name": "vllm", "message": msg}
    if exc: o["exc_info"] = exc
    return f'({tag}) ' + json.dumps(o) + '\n'
case('rt2_vllm_json_logger_capture_oom', 'crashed', 'cuda_graph', 'gpu_oom',
     rt2_pyjson('EngineCore_0 pid=160', '02:11:55', 'INFO', "Initializing a V1 LLM engine (v0.10.1.1) with config: model='Qwen/Qwen3-32B', tensor_parallel_size=2") +
     rt2_pyjson('VllmWorker TP0 pid=294', '02:12:10', 'INFO', 'Starting to load model Qwen/Qwen3-32B...') +
     rt2_pyjson('VllmWorker TP0 pid=294', '02:12:28', 'INFO', 'Model loading took 30.55 GiB and 17.9 seconds') +
     rt2_pyjson('VllmWorker TP0 pid=294', '02:12:42', 'INFO', 'Available KV cache memory: 71.02 GiB') +
     rt2_pyjson('VllmWorker TP0 pid=294', '02:12:55', 'ERROR', 'WorkerProc hit an exception.',
                'Traceback (most recent call last):\n'
                '  File "/usr/local/lib/python3.12/dist-packages/vllm/v1/worker/gpu_worker.py", line 327, in compile_or_warm_up_model\n'
                '    self.model_runner.capture_model()\n'
                '  File "/usr/local/lib/python3.12/dist-packages/vllm/v1/worker/gpu_model_runner.py", line 2619, in capture_model\n'
                '    self._capture_cudagraphs(\n'
                'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.'))
case('rt2_vllm_json_logger_compile_stall', 'stalled', 'compile', '*',
     rt2_pyjson('EngineCore_0 pid=160', '02:11:55', 'INFO', "Initializing a V1 LLM engine (v0.10.1.1) with config: model='Qwen/Qwen3-32B', tensor_parallel_size=2") +
     rt2_pyjson('VllmWorker TP0 pid=294', '02:12:28', 'INFO', 'Model loading took 30.55 GiB and 17.9 seconds') +
     rt2_pyjson('VllmWorker TP0 pid=294', '02:12:35', 'INFO', "Using cache directory: /root/.cache/vllm/torch_compile_cache/1c5e9a/rank_0_0/backbone for vLLM's torch.compile") +
     rt2_pyjson('VllmWorker TP0 pid=294', '02:12:41', 'INFO', 'Dynamo bytecode transform time: 6.52 s') +
     ''.join(rt2_pyjson('EngineCore_0 pid=160', f'02:{13+i:02d}:41', 'WARNING', 'No available shared memory broadcast block found in 60 second. This typically happens when some processes are hanging or doing some time-consuming work (e.g. compilation).') for i in range(0, 47, 6)))

# Third wave.
# vLLM V1's worker creates its one-reader response queue ("local_reader_ranks=[0]") right before
# it initialises torch.distributed: a start that ends there waits in distributed init (the engine
# core's broadcast queue, "[0, 1]", is still its launch).
case('rt2_v1_worker_response_queue_is_dist_init', 'in_progress', 'distributed_init', '*', '''(APIServer pid=1) INFO 08-21 14:02:14 [api_server.py:1805] vLLM API server version 0.10.1.1
(EngineCore_0 pid=312) INFO 08-21 14:02:30 [core.py:74] Initializing a V1 LLM engine (v0.10.1.1) with config: model='meta-llama/Llama-3.1-70B-Instruct', tensor_parallel_size=2
(EngineCore_0 pid=312) INFO 08-21 14:02:30 [shm_broadcast.py:289] vLLM message queue communication handle: Handle(local_reader_ranks=[0, 1], buffer_handle=(2, 16777216, 10, 'psm_7f2c1a0e'), local_subscribe_addr='ipc:///tmp/5b3f0c52', remote_subscribe_addr=None, remote_addr_ipv6=False)
(VllmWorker TP0 pid=450) INFO 08-21 14:02:39 [shm_broadcast.py:289] vLLM message queue communication handle: Handle(local_reader_ranks=[0], buffer_handle=(1, 10485760, 10, 'psm_31a0b2c4'), local_subscribe_addr='ipc:///tmp/8c1d2e3f', remote_subscribe_addr=None, remote_addr_ipv6=False)
(VllmWorker TP1 pid=451) INFO 08-21 14:02:39 [shm_broadcast.py:289] vLLM message queue communication handle: Handle(local_reader_ranks=[0], buffer_handle=(1, 10485760, 10, 'psm_9d1e2f3a'), local_subscribe_addr='ipc:///tmp/1a2b3c4d', remote_subscribe_addr=None, remote_addr_ipv6=False)
''')
# V0's worker wrapper logs a failed RPC and raises it: the start cannot go on, whatever another
# rank's progress bar prints after it.
case('rt2_v0_ray_worker_method_error_then_progress', 'crashed', 'weight_load', 'gpu_oom', '''INFO 09-26 18:20:03 llm_engine.py:226] Initializing an LLM engine (v0.6.2) with config: model='/mnt/models/Mixtral-8x22B-Instruct-v0.1', tensor_parallel_size=8
INFO 09-26 18:20:33 pynccl.py:63] vLLM is using nccl==2.20.5
INFO 09-26 18:20:36 model_runner.py:1014] Starting to load model /mnt/models/Mixtral-8x22B-Instruct-v0.1...
(RayWorkerWrapper pid=23411, ip=10.12.0.7) INFO 09-26 18:20:36 model_runner.py:1014] Starting to load model /mnt/models/Mixtral-8x22B-Instruct-v0.1...
(RayWorkerWrapper pid=23411, ip=10.12.0.7) ERROR 09-26 18:20:44 worker_base.py:464] Error executing method load_model. This might cause deadlock in distributed execution.
(RayWorkerWrapper pid=23411, ip=10.12.0.7) ERROR 09-26 18:20:44 worker_base.py:464] Traceback (most recent call last):
(RayWorkerWrapper pid=23411, ip=10.12.0.7) ERROR 09-26 18:20:44 worker_base.py:464]   File "/usr/local/lib/python3.10/dist-packages/vllm/worker/worker.py", line 183, in load_model
(RayWorkerWrapper pid=23411, ip=10.12.0.7) ERROR 09-26 18:20:44 worker_base.py:464]     self.model_runner.load_model()
(RayWorkerWrapper pid=23411, ip=10.12.0.7) ERROR 09-26 18:20:44 worker_base.py:464] torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.31 GiB. GPU 0 has a total capacity of 39.38 GiB of which 1.02 GiB is free.
Loading safetensors checkpoint shards:  20% Completed | 12/59 [01:12<04:43,  6.03s/it]
''')

# journalctl -o short-full and RFC 5424 syslog carry the same runs and systemd's same facts.
def rt2_reformat(text, fmt):
    out = []
    for line in text.strip('\n').split('\n'):
        m = _re.match(r'^Sep (\d\d) (\d\d:\d\d:\d\d) (\S+) (\w+)\[(\d+)\]: (.*)$', line)
        if not m:
            out.append(line)
            continue
        day, clock, host, ident, pid, msg = m.groups()
        if fmt == 'short-full':
            out.append(f'Fri 2025-09-{day} {clock} UTC {host} {ident}[{pid}]: {msg}')
        else:
            out.append(f'<30>1 2025-09-{day}T{clock}.000000Z {host} {ident} {pid} - - {msg}')
    return '\n'.join(out) + '\n'
RT2_JOURNAL = rt2_journal_run(1, 48211) + '''Sep 12 10:02:11 n3 systemd[1]: vllm.service: Scheduled restart job, restart counter is at 1.
Sep 12 10:02:11 n3 systemd[1]: Started vLLM OpenAI server.
''' + rt2_journal_run(3, 49002) + '''Sep 12 10:04:11 n3 systemd[1]: vllm.service: Scheduled restart job, restart counter is at 2.
Sep 12 10:04:11 n3 systemd[1]: Started vLLM OpenAI server.
''' + rt2_journal_run(5, 49710)
case('rt2_journal_short_full_loop', 'crash_loop', 'kv_cache', 'kv_memory', rt2_reformat(RT2_JOURNAL, 'short-full'))
case('rt2_syslog_rfc5424_loop', 'crash_loop', 'kv_cache', 'kv_memory', rt2_reformat(RT2_JOURNAL, 'rfc5424'))
