# Red-team round (twenty-fourth): fresh logs written from the engines' sources; each class found.

# A bug report's own sentences around the log ("I saw CUDA out of memory before.", "I get this
# error during CUDA graph capture:") quote errors no server printed: no crash, no cause, no
# attempt. Only first-person sentences, headings and bracketed remarks: "It fails during ..." is
# still read as the log's (OpenMPI's own help text opens with "It looks like ...").
RT4_V1_READY = '''INFO 06-18 09:12:03 [__init__.py:244] Automatically detected platform cuda.
INFO 06-18 09:12:07 [api_server.py:1287] vLLM API server version 0.9.1
INFO 06-18 09:12:07 [cli_args.py:309] non-default args: {'model': 'Qwen/Qwen2.5-32B-Instruct', 'tensor_parallel_size': 2, 'max_model_len': 32768}
(VllmWorker rank=0 pid=512) INFO 06-18 09:13:33 [gpu_model_runner.py:2048] Graph capturing finished in 22 secs, took 0.84 GiB
INFO 06-18 09:13:33 [core.py:171] init engine (profile, create kv cache, warmup model) took 51.02 seconds
INFO 06-18 09:13:34 [api_server.py:1349] Starting vLLM API server 0 on http://0.0.0.0:8000
INFO 06-18 09:13:34 [launcher.py:29] Available routes are:
INFO:     Started server process [211]
INFO:     Waiting for application startup.
INFO:     Application startup complete.
'''
case('rt4_prose_quotes_oom_above_ready', 'ready', 'ready', None,
     'I saw CUDA out of memory before.\n' + RT4_V1_READY)
case('rt4_prose_port_in_use_above_ready', 'ready', 'ready', None,
     'With --port 8000 I get Address already in use, so I used 8001:\n' + RT4_V1_READY)
case('rt4_prose_heading_and_aside', 'ready', 'ready', None,
     '### 🐛 Describe the bug\n\n' + RT4_V1_READY +
     '\n(the docs say to reduce max_num_seqs if `No available memory for the cache blocks`)\n')
case('rt4_prose_names_graph_capture', 'crashed', 'cuda_graph', 'gpu_oom', '''I get this error during CUDA graph capture:

INFO 10-21 14:02:14 model_runner.py:1056] Starting to load model mistralai/Mistral-Nemo-Instruct-2407...
INFO 10-21 14:02:20 model_runner.py:1067] Loading model weights took 11.4177 GB
INFO 10-21 14:02:26 model_runner.py:1395] Capturing the model for CUDA graphs. This may lead to unexpected consequences if the model is not static. To run the model in eager mode, set 'enforce_eager=True' or use '--enforce-eager' in the CLI.
Traceback (most recent call last):
    self.model_runner.capture_model(self.gpu_cache)
  File "/usr/local/lib/python3.10/dist-packages/vllm/worker/model_runner.py", line 1474, in capture_model
torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 160.00 MiB. GPU 0 has a total capacity of 39.38 GiB of which 98.44 MiB is free. Process 3190 has 39.27 GiB memory in use.
''')
# A remark in brackets that quotes SGLang's ready line is not the line: the warm-up request never
# returned.
case('rt4_aside_quotes_ready_line', 'in_progress', 'warmup', '*', '''[2025-05-09 20:14:52] INFO:     Uvicorn running on http://0.0.0.0:30000 (Press CTRL+C to quit)
[2025-05-09 20:14:53] INFO:     127.0.0.1:55412 - "GET /get_model_info HTTP/1.1" 200 OK
[2025-05-09 20:14:53 TP0] Prefill batch. #new-seq: 1, #new-token: 7, #cached-token: 0, token usage: 0.00, #running-req: 0, #queue-req: 0

(20 minutes later, still no "The server is fired up and ready to roll!")
''')

# flashinfer says "Prebuilt kernels not found, using JIT backend" when it is imported, before
# trtllm-serve's "Using LLM with PyTorch backend": no compile under way, and no earlier start.
RT4_TRTLLM_HEAD = '''2025-09-02 08:11:07,864 - INFO - flashinfer.jit: Prebuilt kernels not found, using JIT backend
[TensorRT-LLM] TensorRT-LLM version: 1.0.0
[09/02/2025-08:11:08] [TRT-LLM] [I] Using LLM with PyTorch backend
[09/02/2025-08:11:21] [TRT-LLM] [I] Use 65.71 GB for model weights.
'''
case('rt4_trtllm_flashinfer_import_one_start', 'crashed', '*', '*', RT4_TRTLLM_HEAD +
     '''[TensorRT-LLM][ERROR] Failed, NCCL error /src/tensorrt_llm/cpp/tensorrt_llm/common/opUtils.cpp:283 'unhandled system error (run with NCCL_DEBUG=INFO for details)'
--------------------------------------------------------------------------
Primary job  terminated normally, but 1 process returned
a non-zero exit code. Per user-direction, the job has been aborted.
--------------------------------------------------------------------------
''')
case('rt4_trtllm_flashinfer_import_not_cold_jit', 'in_progress', 'weight_load', 'slow_weight_reads',
     RT4_TRTLLM_HEAD + '''Loading safetensors weights in parallel: 100%|██████████| 30/30 [00:01<00:00, 21.12it/s]
Loading weights:  12%|█▏        | 87/723 [14:52<1:48:41, 10.25s/it]
''')

# torch's TCPStore client warns on each failed connect ("[W... socket.cpp] [c10d] The client
# socket has failed to connect to [host]:port") and retries until its timeout: a node waiting
# for the rendezvous, not a crash. The timeout itself is the error.
RT4_C10D_RETRY = '''[2025-01-20 17:22:03 TP8] Init torch distributed begin.
[2025-01-20 17:22:03 TP9] Init torch distributed begin.
[W120 17:24:04.118023370 socket.cpp:752] [c10d] The client socket has failed to connect to [192.168.50.10]:20000 (errno: 111 - Connection refused).
[W120 17:26:05.411902651 socket.cpp:752] [c10d] The client socket has failed to connect to [192.168.50.10]:20000 (errno: 111 - Connection refused).
'''
# (Its January 20 is PyTorch's unpadded [W120 ...]: read since round 39, its four minutes of
# retries after the last progress are over distributed init's stall time.)
case('rt4_c10d_client_retry_is_a_wait', 'stalled', 'distributed_init', 'rendezvous', RT4_C10D_RETRY)
case('rt4_c10d_client_timeout_is_the_error', 'crashed', 'distributed_init', 'rendezvous', RT4_C10D_RETRY +
     '''torch.distributed.DistNetworkError: The client socket has timed out after 600000ms while trying to connect to (192.168.50.10, 20000).
''')

# A Hub download inside the load (vLLM's download_weights_from_hf after "Using model weights
# format"): the time went to the network, not to reading local storage.
case('rt4_hub_download_stall_not_slow_reads', 'stalled', 'download', 'hf_download', '''(APIServer pid=1) INFO 10-08 11:00:01 [api_server.py:1839] vLLM API server version 0.11.0
(EngineCore_DP0 pid=245) INFO 10-08 11:00:17 [core.py:77] Initializing a V1 LLM engine (v0.11.0) with config: model='Qwen/Qwen3-235B-A22B-Instruct-2507', tensor_parallel_size=8
(Worker_TP0 pid=400) INFO 10-08 11:00:22 [parallel_state.py:1208] rank 0 in world size 8 is assigned as DP rank 0, PP rank 0, TP rank 0, EP rank 0
(Worker_TP0 pid=400) INFO 10-08 11:00:23 [gpu_model_runner.py:2602] Starting to load model Qwen/Qwen3-235B-A22B-Instruct-2507...
(Worker_TP0 pid=400) INFO 10-08 11:00:24 [weight_utils.py:392] Using model weights format ['*.safetensors']
(Worker_TP0 pid=400) model-00007-of-00118.safetensors: 100%|██████████| 3.99G/3.99G [01:02<00:00, 64.1MB/s]
(Worker_TP0 pid=400) model-00008-of-00118.safetensors:  41%|████      | 1.64G/3.99G [09:25<2:40:13, 244kB/s]
(EngineCore_DP0 pid=245) INFO 10-08 11:11:10 [shm_broadcast.py:466] No available shared memory broadcast block found in 60 seconds. This typically happens when some processes are hanging or doing some time-consuming work (e.g. compilation, weight/kv cache quantization).
''')

# vLLM 0.5/0.6's verify_with_parallel_config: the architecture is served, only not with pipeline
# parallelism; the layout is what to change.
case('rt4_pipeline_parallel_unsupported_arch', 'crashed', 'launch', 'parallel_layout', '''INFO 09-25 12:01:13 api_server.py:526] vLLM API server version 0.6.1.post2
INFO 09-25 12:01:13 api_server.py:527] args: Namespace(model='google/gemma-2-27b-it', tensor_parallel_size=2, pipeline_parallel_size=2, distributed_executor_backend='ray')
Traceback (most recent call last):
  File "/usr/local/lib/python3.12/dist-packages/vllm/config.py", line 480, in verify_with_parallel_config
    raise NotImplementedError(
NotImplementedError: Pipeline parallelism is only supported for the following  architectures: ['LlamaForCausalLM', 'MistralForCausalLM', 'Qwen2ForCausalLM'].
''')

# Kubernetes: "Exit Code: 137" is a SIGKILL, and a kubelet that killed the container for failing
# its liveness probe sent it: no OOM record (Reason: OOMKilled would be one).
RT4_K8S_LIVENESS = '''$ kubectl logs vllm-llama70b-0 --previous
(APIServer pid=1) INFO 01-12 07:26:45 [api_server.py:1839] vLLM API server version 0.11.0
(EngineCore_DP0 pid=270) INFO 01-12 07:26:53 [gpu_model_runner.py:2602] Starting to load model meta-llama/Llama-3.3-70B-Instruct...
(EngineCore_DP0 pid=270) Loading safetensors checkpoint shards:   0% Completed | 0/30 [00:00<?, ?it/s]
(EngineCore_DP0 pid=270) Loading safetensors checkpoint shards:   3% Completed | 1/30 [00:41<19:49, 41.02s/it]
(EngineCore_DP0 pid=270) Loading safetensors checkpoint shards:   7% Completed | 2/30 [01:25<19:58, 42.80s/it]

$ kubectl describe pod vllm-llama70b-0
    Last State:     Terminated
      Reason:       {reason}
      Exit Code:    137
    Restart Count:  4
    Liveness:       http-get http://:8000/health delay=120s timeout=5s period=10s #success=1 #failure=3
Events:
  Warning  Unhealthy  2m (x15 over 20m)   kubelet  Liveness probe failed: Get "http://10.244.3.17:8000/health": dial tcp 10.244.3.17:8000: connect: connection refused
  Normal   Killing    2m (x4 over 17m)    kubelet  Container vllm failed liveness probe, will be restarted
'''
case('rt4_k8s_liveness_kill_137_not_host_oom', 'crash_loop', 'weight_load', 'restart_loop',
     RT4_K8S_LIVENESS.replace('{reason}', 'Error'))
case('rt4_k8s_oomkilled_137_is_host_oom', 'crash_loop', 'weight_load', 'host_oom',
     RT4_K8S_LIVENESS.replace('{reason}', 'OOMKilled'))

# Three TP ranks loaded the checkpoint in about 35 s and the fourth never finished: not slow
# storage (the same reads were fast for its peers) but a rank that fell behind or died.
RT4_RANK_SKEW = """(VllmWorker rank=0 pid=5502) INFO 04-17 22:10:31 [gpu_model_runner.py:1329] Starting to load model /data/models/Qwen2.5-72B-Instruct...
(VllmWorker rank=1 pid=5503) INFO 04-17 22:10:31 [gpu_model_runner.py:1329] Starting to load model /data/models/Qwen2.5-72B-Instruct...
(VllmWorker rank=2 pid=5504) INFO 04-17 22:10:31 [gpu_model_runner.py:1329] Starting to load model /data/models/Qwen2.5-72B-Instruct...
(VllmWorker rank=3 pid=5505) INFO 04-17 22:10:31 [gpu_model_runner.py:1329] Starting to load model /data/models/Qwen2.5-72B-Instruct...
(VllmWorker rank=0 pid=5502) INFO 04-17 22:11:05 [gpu_model_runner.py:1336] Model loading took 33.9 GiB and 33.71 seconds
(VllmWorker rank=1 pid=5503) INFO 04-17 22:11:07 [gpu_model_runner.py:1336] Model loading took 33.9 GiB and 35.92 seconds
(VllmWorker rank=2 pid=5504) INFO 04-17 22:11:08 [gpu_model_runner.py:1336] Model loading took 33.9 GiB and 36.48 seconds
INFO 04-17 22:12:08 [shm_broadcast.py:466] No available shared memory broadcast block found in 60 second.
INFO 04-17 22:19:08 [shm_broadcast.py:466] No available shared memory broadcast block found in 60 second.
"""
case('rt4_one_rank_behind_in_load', 'in_progress', 'weight_load', 'rank_load_skew', RT4_RANK_SKEW)
# Guard: every rank still loading after minutes is slow reads.
case('rt4_all_ranks_slow_in_load', 'in_progress', 'weight_load', 'slow_weight_reads',
     '\n'.join(l for l in RT4_RANK_SKEW.splitlines() if 'Model loading took' not in l))

# ROCm's own wording of the CUDA failures: HIP's missing code object and invalid device function
# (kernels built for another GPU), the HSA runtime's memory access fault (it aborts the process
# with no Python traceback: a death), "No HIP GPUs are available".
RT4_ROCM_FAULT = """INFO 11-28 23:05:28 [__init__.py:225] Automatically detected platform rocm.
(APIServer pid=13) INFO 11-28 23:05:33 [api_server.py:1876] vLLM API server version 0.11.1rc2.dev141+g38f225c2a
(EngineCore_DP0 pid=178) INFO 11-28 23:05:46 [core.py:97] Initializing a V1 LLM engine (v0.11.1rc2.dev141+g38f225c2a) with config: model='ibm-granite/granite-4.0-h-350m', dtype=torch.bfloat16
(EngineCore_DP0 pid=178) INFO 11-28 23:05:47 [parallel_state.py:1325] rank 0 in world size 1 is assigned as DP rank 0, PP rank 0, TP rank 0, EP rank 0
Memory access fault by GPU node-1 (Agent handle: 0x43578c10) on address 0x7f58f8001000. Reason: Page not present or supervisor privilege.
"""
case('rt4_rocm_memory_access_fault_is_a_crash', 'crashed', 'distributed_init', 'illegal_memory_access', RT4_ROCM_FAULT)
case('rt4_rocm_hip_invalid_device_function', 'crashed', 'kv_cache', 'cuda_build_mismatch', """INFO 08-14 11:02:01 [__init__.py:241] Automatically detected platform rocm.
(EngineCore_0 pid=231) INFO 08-14 11:02:22 [core.py:74] Initializing a V1 LLM engine (v0.10.1) with config: model='Qwen/Qwen3-8B', dtype=torch.bfloat16
(EngineCore_0 pid=231) INFO 08-14 11:03:12 [gpu_model_runner.py:2007] Model loading took 15.27 GiB and 10.412 seconds
(EngineCore_0 pid=231) ERROR 08-14 11:03:14 [core.py:700] EngineCore failed to start.
(EngineCore_0 pid=231) ERROR 08-14 11:03:14 [core.py:700]     self.model_runner.profile_run()
(EngineCore_0 pid=231) ERROR 08-14 11:03:14 [core.py:700] RuntimeError: HIP error: invalid device function
(EngineCore_0 pid=231) ERROR 08-14 11:03:14 [core.py:700] HIP kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.
(EngineCore_0 pid=231) ERROR 08-14 11:03:14 [core.py:700] For debugging consider passing AMD_SERIALIZE_KERNEL=3
(APIServer pid=1) RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}
""")
case('rt4_rocm_no_binary_for_gpu', 'crashed', '*', 'cuda_build_mismatch', RT4_ROCM_FAULT.splitlines()[0] + """
(APIServer pid=13) INFO 11-28 23:05:33 [api_server.py:1876] vLLM API server version 0.11.0
hipErrorNoBinaryForGpu: Unable to find code object for all current devices!
""")
case('rt4_rocm_no_hip_gpus', 'crashed', 'launch', 'no_gpu_visible', RT4_ROCM_FAULT.splitlines()[0] + """
(EngineCore_0 pid=231) INFO 08-14 11:02:22 [core.py:74] Initializing a V1 LLM engine (v0.10.1) with config: model='Qwen/Qwen3-8B', dtype=torch.bfloat16
(EngineCore_0 pid=231) ERROR 08-14 11:02:23 [core.py:700]     torch.cuda.set_device(self.device)
(EngineCore_0 pid=231) ERROR 08-14 11:02:23 [core.py:700] RuntimeError: No HIP GPUs are available
(APIServer pid=1) RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}
""")
# AITER (ROCm's kernels) builds its JIT modules on first use; a build waiting on another process's
# lock ("waiting for baton release") is the shared JIT cache, not a cold build.
RT4_AITER = """INFO 08-14 11:02:01 [__init__.py:241] Automatically detected platform rocm.
(EngineCore_0 pid=231) INFO 08-14 11:02:22 [core.py:74] Initializing a V1 LLM engine (v0.10.1) with config: model='Qwen/Qwen3-8B', dtype=torch.bfloat16
(EngineCore_0 pid=231) INFO 08-14 11:03:12 [gpu_model_runner.py:2007] Model loading took 15.27 GiB and 10.412 seconds
(EngineCore_0 pid=231) [aiter] start build [module_rmsnorm] under /usr/local/lib/python3.12/dist-packages/aiter/jit/build/module_rmsnorm
"""
case('rt4_rocm_aiter_build_is_cold_jit', 'stalled', '*', 'cold_jit', RT4_AITER + """(EngineCore_0 pid=231) INFO 08-14 11:13:12 [shm_broadcast.py:466] No available shared memory broadcast block found in 60 seconds.
""")
case('rt4_rocm_aiter_baton_is_shared_cache', 'stalled', '*', 'shared_jit_cache', RT4_AITER + """(EngineCore_0 pid=231) [aiter] waiting for baton release at /usr/local/lib/python3.12/dist-packages/aiter/jit/build/lock_module_rmsnorm
(EngineCore_0 pid=231) INFO 08-14 11:13:12 [shm_broadcast.py:466] No available shared memory broadcast block found in 60 seconds.
""")
# Other accelerators' out-of-memory wording.
case('rt4_tpu_resource_exhausted_is_gpu_oom', 'crashed', '*', 'gpu_oom', """INFO 08-14 11:02:01 [__init__.py:241] Automatically detected platform tpu.
(EngineCore_0 pid=231) INFO 08-14 11:02:51 [default_loader.py:272] Loading weights took 9.41 seconds
(EngineCore_0 pid=231) ERROR 08-14 11:04:02 [core.py:700] RuntimeError: Bad StatusOr access: RESOURCE_EXHAUSTED: Error allocating device buffer: Attempting to allocate 2.50G. That was not possible. There are 1.21G free.; (0x0x0_HBM0)
(APIServer pid=1) RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}
""")

# Ray's own failures where the cluster's nodes should find each other: no running instance, one IP
# for two nodes; the head waiting on remote data-parallel engines that never connect.
case('rt4_ray_instance_missing_loop', 'crash_loop', '*', 'rendezvous', """Sep 02 06:00:13 gpu-a vllm[4101]: (EngineCore_0 pid=4260) INFO 09-02 06:00:13 [core.py:71] Initializing a V1 LLM engine (v0.10.1.1) with config: model='/models/Llama-3.3-70B-Instruct', tensor_parallel_size=8, pipeline_parallel_size=2
Sep 02 06:00:18 gpu-a vllm[4101]: (EngineCore_0 pid=4260) ERROR 09-02 06:00:18 [core.py:718] ConnectionError: Could not find any running Ray instance. Please specify the one to connect to by setting `--address` flag or `RAY_ADDRESS` environment variable.
Sep 02 06:00:20 gpu-a systemd[1]: vllm.service: Main process exited, code=exited, status=1/FAILURE
Sep 02 06:00:30 gpu-a systemd[1]: vllm.service: Scheduled restart job, restart counter is at 1.
Sep 02 06:00:42 gpu-a vllm[4420]: (EngineCore_0 pid=4581) INFO 09-02 06:00:42 [core.py:71] Initializing a V1 LLM engine (v0.10.1.1) with config: model='/models/Llama-3.3-70B-Instruct', tensor_parallel_size=8, pipeline_parallel_size=2
Sep 02 06:00:47 gpu-a vllm[4420]: (EngineCore_0 pid=4581) ERROR 09-02 06:00:47 [core.py:718] ConnectionError: Could not find any running Ray instance. Please specify the one to connect to by setting `--address` flag or `RAY_ADDRESS` environment variable.
Sep 02 06:00:49 gpu-a systemd[1]: vllm.service: Main process exited, code=exited, status=1/FAILURE
""")
case('rt4_dp_remote_engines_never_connect', 'stalled', 'launch', 'rendezvous', """(APIServer pid=2801) INFO 09-16 08:10:03 [utils.py:326] non-default args: {'model': 'deepseek-ai/DeepSeek-V3', 'data_parallel_size': 4, 'data_parallel_size_local': 2, 'data_parallel_address': '10.99.48.128', 'data_parallel_rpc_port': 13345}
(EngineCore_DP0 pid=2951) INFO 09-16 08:10:18 [core.py:654] Waiting for init message from front-end.
(APIServer pid=2801) DEBUG 09-16 08:10:28 [utils.py:862] Waiting for 0 local, 2 remote core engine proc(s) to connect.
(APIServer pid=2801) DEBUG 09-16 08:15:28 [utils.py:862] Waiting for 0 local, 2 remote core engine proc(s) to connect.
(APIServer pid=2801) DEBUG 09-16 08:25:28 [utils.py:862] Waiting for 0 local, 2 remote core engine proc(s) to connect.
""")

# A crash loop whose log ends while the next start is still starting died where its attempts died
# (here in the KV pool), not where the next one got to.
case('rt4_loop_tail_still_starting', 'crash_loop', 'kv_cache', 'kv_memory', """[2025-10-03 11:00:00] server_args=ServerArgs(model_path='meta-llama/Llama-3.1-8B-Instruct', tp_size=1)
[2025-10-03 11:00:10] Load weight begin. avail mem=78.20 GB
[2025-10-03 11:00:20] Load weight end. type=LlamaForCausalLM, dtype=torch.bfloat16, avail mem=60.11 GB, mem usage=18.09 GB.
[2025-10-03 11:00:21] Scheduler hit an exception: Traceback (most recent call last):
  File "/usr/local/lib/python3.10/dist-packages/sglang/srt/model_executor/model_runner.py", line 838, in init_memory_pool
    raise RuntimeError(
RuntimeError: Not enough memory. Please try to increase --mem-fraction-static.

[2025-10-03 11:00:22] Received sigquit from a child process. It usually means the child failed.
[2025-10-03 11:06:40] server_args=ServerArgs(model_path='meta-llama/Llama-3.1-8B-Instruct', tp_size=1)
[2025-10-03 11:06:50] Load weight begin. avail mem=78.20 GB
[2025-10-03 11:07:00] Load weight end. type=LlamaForCausalLM, dtype=torch.bfloat16, avail mem=60.11 GB, mem usage=18.09 GB.
[2025-10-03 11:07:01] Scheduler hit an exception: Traceback (most recent call last):
  File "/usr/local/lib/python3.10/dist-packages/sglang/srt/model_executor/model_runner.py", line 838, in init_memory_pool
    raise RuntimeError(
RuntimeError: Not enough memory. Please try to increase --mem-fraction-static.

[2025-10-03 11:07:02] Received sigquit from a child process. It usually means the child failed.
[2025-10-03 11:13:20] server_args=ServerArgs(model_path='meta-llama/Llama-3.1-8B-Instruct', tp_size=1)
[2025-10-03 11:13:30] Load weight begin. avail mem=78.20 GB
""")

# SGLang's worker node (node_rank=1) starts no HTTP server of its own (or a dummy health check
# that logs nothing): its scheduler's ready line is that node's start done.
RT4_NODE1 = """[2025-08-11 14:00:00] server_args=ServerArgs(model_path='deepseek-ai/DeepSeek-V3', tp_size=16, nnodes=2, node_rank=1, dist_init_addr='10.0.0.11:5000', trust_remote_code=True)
[2025-08-11 14:00:08 TP8] Init torch distributed begin.
[2025-08-11 14:00:10 TP8] Init torch distributed ends. mem usage=0.51 GB
[2025-08-11 14:00:10 TP8] Load weight begin. avail mem=78.20 GB
[2025-08-11 14:02:20 TP8] Load weight end. type=DeepseekV3ForCausalLM, dtype=torch.bfloat16, avail mem=16.11 GB, mem usage=62.09 GB.
[2025-08-11 14:02:21 TP8] KV Cache is allocated. #tokens: 419431, KV size: 27.41 GB
[2025-08-11 14:02:21 TP8] Memory pool end. avail mem=8.12 GB
[2025-08-11 14:02:22 TP8] Capture cuda graph begin. This can take up to several minutes. avail mem=8.01 GB
[2025-08-11 14:02:40 TP8] Capture cuda graph end. Time elapsed: 17.61 s. mem usage=0.61 GB. avail mem=7.37 GB.
[2025-08-11 14:02:40 TP8] max_total_num_tokens=419431, chunked_prefill_size=8192, max_prefill_tokens=16384, max_running_requests=4097, context_len=163840
"""
case('rt4_sglang_node_rank1_ready_at_scheduler', 'ready', 'ready', '*', RT4_NODE1)
case('rt4_sglang_head_node_not_ready_at_scheduler', 'in_progress', 'http_start', None, RT4_NODE1.replace('node_rank=1', 'node_rank=0'))

# TensorRT-LLM under mpirun: a rank that printed only its MPI line, then died of OOM while rank 0
# loaded weights, was past distributed init (a barrier every rank passes together).
case('rt4_trtllm_mpi_rank_dies_in_load', 'crashed', 'weight_load', 'gpu_oom', """$ mpirun -n 2 --allow-run-as-root --tag-output trtllm-llmapi-launch trtllm-serve Qwen/Qwen3-32B --tp_size 2
[1,0]<stdout>:[TensorRT-LLM] TensorRT-LLM version: 1.0.0
[1,0]<stdout>:rank 0 using MpiCommSession to bind to external MPI processes
[1,0]<stdout>:[TensorRT-LLM][INFO] MPI size: 2, MPI local size: 2, rank: 0
[1,1]<stdout>:[TensorRT-LLM][INFO] MPI size: 2, MPI local size: 2, rank: 1
[1,0]<stdout>:[08/12/2025-10:05:41] [TRT-LLM] [I] Use 32.77 GB for model weights.
[1,0]<stdout>:Loading weights:  41%|████      | 291/707 [00:12<00:17, 23.9it/s]
[1,1]<stderr>:torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 896.00 MiB. GPU 1 has a total capacity of 79.11 GiB of which 402.00 MiB is free. Process 9981 has 44.10 GiB memory in use.
--------------------------------------------------------------------------
mpirun detected that one or more processes exited with non-zero status, thus causing
the job to be terminated. The first process to do so was:

  Process name: [[40217,1],1]
  Exit code:    1
--------------------------------------------------------------------------
""")
# Known causes in their own wording.
case('rt4_sglang_fa3_needs_sm', 'crashed', '*', 'gpu_arch_feature', """[2025-08-11 14:00:00] server_args=ServerArgs(model_path='Qwen/Qwen3-8B', tp_size=1, attention_backend='fa3')
[2025-08-11 14:00:10 TP0] Load weight begin. avail mem=14.20 GB
[2025-08-11 14:00:40 TP0] Load weight end. type=Qwen3ForCausalLM, dtype=torch.float16, avail mem=1.11 GB, mem usage=13.09 GB.
[2025-08-11 14:00:41 TP0] Scheduler hit an exception: Traceback (most recent call last):
AssertionError: FlashAttention v3 Backend requires SM>=80 and SM<=90. Please use `--attention-backend flashinfer`.
""")
case('rt4_ninja_missing_is_jit_toolchain', 'crashed', '*', 'jit_toolchain', """[2025-11-14 16:00:00] server_args=ServerArgs(model_path='meta-llama/Llama-3.1-8B-Instruct', tp_size=1)
[2025-11-14 16:00:10] Load weight begin. avail mem=78.20 GB
[2025-11-14 16:00:20] Load weight end. type=LlamaForCausalLM, dtype=torch.bfloat16, avail mem=60.11 GB, mem usage=18.09 GB.
[2025-11-14 16:00:22] Capture cuda graph begin. This can take up to several minutes. avail mem=8.01 GB
[2025-11-14 16:00:23] Scheduler hit an exception: Traceback (most recent call last):
  File "/usr/local/lib/python3.10/dist-packages/flashinfer/jit/core.py", line 122, in build_and_load
    self.build(verbose)
  File "/usr/local/lib/python3.10/dist-packages/flashinfer/jit/cpp_ext.py", line 236, in run_ninja
    subprocess.run(
FileNotFoundError: [Errno 2] No such file or directory: 'ninja'

[2025-11-14 16:00:23] Received sigquit from a child process. It usually means the child failed.
""")
case('rt4_spawn_bootstrapping_is_start_method', 'crashed', '*', 'worker_start_method', """Traceback (most recent call last):
  File "/usr/lib/python3.10/multiprocessing/spawn.py", line 236, in prepare
    _fixup_main_from_path(data['init_main_from_path'])
  File "/home/user/run_offline.py", line 4, in <module>
    llm = sgl.Engine(model_path="Qwen/Qwen2.5-7B-Instruct")
  File "/usr/lib/python3.10/multiprocessing/spawn.py", line 134, in _check_not_importing_main
    raise RuntimeError('''
RuntimeError: 
        An attempt has been made to start a new process before the
        current process has finished its bootstrapping phase.
""")

# syslog's octal escape of ESC ("#033[2m"): a TGI container's colours as rsyslog or a SageMaker
# CloudWatch export keep them. The codes go, the lines are TGI's.
case('rt4_tgi_syslog_octal_colours_ready', 'ready', 'ready', '*', """#033[2m2024-03-20T10:00:03.324347Z#033[0m #033[32m INFO#033[0m #033[1mdownload#033[0m#033[2m:#033[0m #033[2mtext_generation_launcher#033[0m#033[2m:#033[0m Successfully downloaded weights.
#033[2m2024-03-20T10:00:03.325395Z#033[0m #033[32m INFO#033[0m #033[1mshard-manager#033[0m#033[2m:#033[0m #033[2mtext_generation_launcher#033[0m#033[2m:#033[0m Starting shard #033[2mrank#033[0m#033[2m=#033[0m0
#033[2m2024-03-20T10:00:13.325486Z#033[0m #033[32m INFO#033[0m #033[1mshard-manager#033[0m#033[2m:#033[0m #033[2mtext_generation_launcher#033[0m#033[2m:#033[0m Waiting for shard to be ready... #033[2mrank#033[0m#033[2m=#033[0m0
#033[2m2024-03-20T10:00:16.326194Z#033[0m #033[32m INFO#033[0m #033[2mtext_generation_launcher#033[0m#033[2m:#033[0m Server started at unix:///tmp/text-generation-server-0
#033[2m2024-03-20T10:00:16.406625Z#033[0m #033[32m INFO#033[0m #033[1mshard-manager#033[0m#033[2m:#033[0m #033[2mtext_generation_launcher#033[0m#033[2m:#033[0m Shard ready in 13.000000000s #033[2mrank#033[0m#033[2m=#033[0m0
#033[2m2024-03-20T10:00:16.506793Z#033[0m #033[32m INFO#033[0m #033[2mtext_generation_launcher#033[0m#033[2m:#033[0m Starting Webserver
#033[2m2024-03-20T10:00:16.577164Z#033[0m #033[32m INFO#033[0m #033[2mtext_generation_router#033[0m#033[2m:#033[0m router/src/main.rs:195: Using the Hugging Face API
#033[2m2024-03-20T10:00:16.957492Z#033[0m #033[32m INFO#033[0m #033[2mtext_generation_router#033[0m#033[2m:#033[0m router/src/main.rs:474: Serving revision e1945c40cd546c78e41f1151f4db032b271faeaa of model mistralai/Mistral-7B-Instruct-v0.2
#033[2m2024-03-20T10:00:16.958003Z#033[0m #033[32m INFO#033[0m #033[2mtext_generation_router#033[0m#033[2m:#033[0m router/src/main.rs:289: Using config Some(Llama)
#033[2m2024-03-20T10:00:16.960191Z#033[0m #033[32m INFO#033[0m #033[2mtext_generation_router#033[0m#033[2m:#033[0m router/src/main.rs:317: Warming up model
#033[2m2024-03-20T10:00:17.960242Z#033[0m #033[32m INFO#033[0m #033[2mtext_generation_launcher#033[0m#033[2m:#033[0m Cuda Graphs are enabled for sizes [1, 2, 4, 8, 16, 32]
#033[2m2024-03-20T10:00:18.961090Z#033[0m #033[32m INFO#033[0m #033[2mtext_generation_router#033[0m#033[2m:#033[0m router/src/main.rs:354: Setting max batch total tokens to 58768
#033[2m2024-03-20T10:00:18.961181Z#033[0m #033[32m INFO#033[0m #033[2mtext_generation_router#033[0m#033[2m:#033[0m router/src/main.rs:355: Connected
#033[2m2024-03-20T10:00:18.961489Z#033[0m #033[33m WARN#033[0m #033[2mtext_generation_router#033[0m#033[2m:#033[0m router/src/main.rs:369: Invalid hostname, defaulting to 0.0.0.0
""")
# TensorRT-LLM's LLM API in a script: its requests processed and the generated text are served
# requests.
case('rt4_trtllm_llm_api_script_ready', 'ready', 'ready', None, """$ python3 quickstart.py
[TensorRT-LLM] TensorRT-LLM version: 1.0.0
[08/12/2025-10:02:11] [TRT-LLM] [I] Using LLM with PyTorch backend
rank 0 using MpiPoolSession to spawn MPI processes
[08/12/2025-10:02:19] [TRT-LLM] [I] Use 2.05 GB for model weights.
Loading weights: 100%|██████████| 201/201 [00:02<00:00, 91.21it/s]
[TensorRT-LLM][INFO] [MemUsageChange] Allocated 62.10 GiB for max tokens in paged KV cache (2035616).
[08/12/2025-10:02:26] [TRT-LLM] [I] Creating CUDA graph instances for 1 batch sizes.
[08/12/2025-10:02:26] [TRT-LLM] [I] Run generation only CUDA graph warmup for batch size=1, draft_len=0
Processed requests: 100%|██████████| 2/2 [00:00<00:00, 11.52it/s]
Prompt: 'Hello, my name is', Generated text: ' Sarah and I am a 25-year-old woman'
Prompt: 'The capital of France is', Generated text: ' Paris.'
""")
# An Autotuner run that ended is no cold JIT: the start is in CUDA graph warm-up, seconds in, with
# nothing hung yet (no cause).
case('rt4_trtllm_finished_autotuner_not_cold_jit', 'in_progress', 'cuda_graph', None, """[TensorRT-LLM] TensorRT-LLM version: 1.1.0rc3
[12/20/2025-04:20:04] [TRT-LLM] [I] Using LLM with PyTorch backend
rank 0 using MpiPoolSession to spawn MPI processes
[12/20/2025-04:20:21] [TRT-LLM] [I] Use 14.96 GB for model weights.
Loading weights: 100%|██████████| 291/291 [00:16<00:00, 17.29it/s]
[TensorRT-LLM][INFO] [MemUsageChange] Allocated 0.56 GiB for max tokens in paged KV cache (8224).
[12/20/2025-04:21:10] [TRT-LLM] [I] [Autotuner] Autotuning process starts ...
[12/20/2025-04:21:12] [TRT-LLM] [I] [Autotuner] Cache size after warmup is 28
[12/20/2025-04:21:12] [TRT-LLM] [I] [Autotuner] Autotuning process ends
[12/20/2025-04:21:12] [TRT-LLM] [I] Creating CUDA graph instances for 11 batch sizes.
[12/20/2025-04:21:12] [TRT-LLM] [I] Run generation only CUDA graph warmup for batch size=64, draft_len=0
""")

# TGI's tracing pads its level to five columns: a paste whose times were cut ("cut -d' ' -f2-")
# keeps " INFO ": still TGI's prefix.
case('rt4_tgi_times_cut_padded_level_ready', 'ready', 'ready', None, """ INFO shard-manager: text_generation_launcher: Shard ready in 16.311037519s rank=0
 INFO text_generation_launcher: Starting Webserver
 INFO text_generation_router_v3: backends/v3/src/lib.rs:90: Warming up model
 INFO text_generation_router_v3: backends/v3/src/lib.rs:102: Setting max batch total tokens to 182752
 INFO text_generation_router::server: router/src/server.rs:2311: Connected
""")
# vLLM 0.2-0.3 named its Ray workers RayWorkerVllm: one rank per process, as RayWorkerWrapper.
case('rt4_ray_worker_vllm_ranks_apart', 'in_progress', 'weight_load', 'rank_load_skew', """INFO 02-21 06:00:09 llm_engine.py:79] Initializing an LLM engine with config: model='/nfs/Llama-2-70b-hf', tokenizer='/nfs/Llama-2-70b-hf', tokenizer_mode=auto, revision=None, tokenizer_revision=None, trust_remote_code=False, dtype=torch.float16, max_seq_len=4096, download_dir=None, load_format=auto, tensor_parallel_size=4, disable_custom_all_reduce=False, quantization=None, enforce_eager=False, kv_cache_dtype=auto, device_config=cuda, seed=0)
INFO 02-21 06:00:21 weight_utils.py:163] Using model weights format ['*.safetensors']
(RayWorkerVllm pid=6612) INFO 02-21 06:00:21 weight_utils.py:163] Using model weights format ['*.safetensors']
(RayWorkerVllm pid=6690) INFO 02-21 06:00:21 weight_utils.py:163] Using model weights format ['*.safetensors']
(RayWorkerVllm pid=6755) INFO 02-21 06:00:21 weight_utils.py:163] Using model weights format ['*.safetensors']
INFO 02-21 06:01:20 model_runner.py:88] Loading model weights took 32.1245 GB
(RayWorkerVllm pid=6612) INFO 02-21 06:01:21 model_runner.py:88] Loading model weights took 32.1245 GB
(RayWorkerVllm pid=6755) INFO 02-21 06:01:24 model_runner.py:88] Loading model weights took 32.1245 GB
""")
# xformers' "No operator found" lists each kernel's reason; "(too old)" is the GPU's.
case('rt4_xformers_no_operator_gpu_too_old', 'crashed', 'kv_cache', 'gpu_arch_feature', """INFO 02-02 15:30:00 llm_engine.py:72] Initializing an LLM engine with config: model='TheBloke/Mistral-7B-Instruct-v0.2-AWQ', tokenizer='TheBloke/Mistral-7B-Instruct-v0.2-AWQ', tokenizer_mode=auto, revision=None, tokenizer_revision=None, trust_remote_code=False, dtype=torch.float16, max_seq_len=32768, download_dir=None, load_format=auto, tensor_parallel_size=1, disable_custom_all_reduce=False, quantization=awq, enforce_eager=False, kv_cache_dtype=auto, seed=0)
Traceback (most recent call last):
  File "/home/ubuntu/vllm/vllm/worker/worker.py", line 116, in profile_num_available_blocks
    self.model_runner.profile_run()
  File "/home/ubuntu/.local/lib/python3.10/site-packages/xformers/ops/fmha/dispatch.py", line 44, in _run_priority_list
    raise NotImplementedError(msg)
NotImplementedError: No operator found for `memory_efficient_attention_forward` with inputs:
     query       : shape=(1, 4096, 32, 128) (torch.float16)
`flshattF@v2.3.6` is not supported because:
    requires device with capability > (8, 0) but your GPU has capability (7, 5) (too old)
`cutlassF` is not supported because:
    xFormers wasn't build with CUDA support
`smallkF` is not supported because:
    max(query.shape[-1] != value.shape[-1]) > 32
""")
# huggingface_hub's download bars before any phase line: the start is downloading (in progress:
# no failure is named until the download has stalled; a bar running over a minute says the start's
# time goes to the Hub download, hub_download_at_start).
case('rt4_hub_bars_before_any_phase_are_download', 'in_progress', 'download', 'hub_download_at_start', """INFO 10-03 08:00:12 llm_engine.py:72] Initializing an LLM engine with config: model='meta-llama/Llama-2-13b-hf', tokenizer='meta-llama/Llama-2-13b-hf', tokenizer_mode=auto, revision=None, tokenizer_revision=None, trust_remote_code=False, dtype=torch.float16, max_seq_len=4096, download_dir=None, load_format=auto, tensor_parallel_size=1, quantization=None, seed=0)
Downloading (…)of-00003.safetensors:   0%|          | 0.00/9.95G [00:00<?, ?B/s]
Downloading (…)of-00003.safetensors:   4%|▍         | 409M/9.95G [00:38<15:12, 10.4MB/s]
Downloading (…)of-00003.safetensors:   4%|▍         | 419M/9.95G [01:50<1:23:40, 1.90MB/s]
""")

# SGLang ranks that fail alike print the same traceback, each under its own header; an excerpt
# cut inside the first one (its header gone, or "..." in its place) is one start, not two.
case('rt4_sglang_cut_rank_tracebacks_one_start', 'crashed', 'kv_cache', 'kv_memory', """  File "/usr/local/lib/python3.10/dist-packages/sglang/srt/model_executor/model_runner.py", line 918, in init_memory_pool
    raise RuntimeError(
RuntimeError: Not enough memory. Please try to increase --mem-fraction-static.

[2025-05-02 11:04:22 TP1] Scheduler hit an exception: Traceback (most recent call last):
  File "/usr/local/lib/python3.10/dist-packages/sglang/srt/model_executor/model_runner.py", line 918, in init_memory_pool
    raise RuntimeError(
RuntimeError: Not enough memory. Please try to increase --mem-fraction-static.

[2025-05-02 11:04:22] Received sigquit from a child process. It usually means the child failed.
Killed
""")
case('rt4_sglang_dots_then_rank_tracebacks_one_start', 'crashed', 'kv_cache', 'kv_memory', """[2025-05-02 11:02:40] server_args=ServerArgs(model_path='meta-llama/Llama-3.3-70B-Instruct', tokenizer_path='meta-llama/Llama-3.3-70B-Instruct', tokenizer_mode='auto', load_format='auto', trust_remote_code=False, dtype='auto', kv_cache_dtype='auto', context_length=None, device='cuda', host='0.0.0.0', port=30000, mem_fraction_static=0.6, max_running_requests=None, chunked_prefill_size=8192, tp_size=4, random_seed=338771512, disable_cuda_graph=False, cuda_graph_max_bs=160)
[2025-05-02 11:02:47 TP0] Attention backend not set. Use flashinfer backend by default.
[2025-05-02 11:02:47 TP1] Attention backend not set. Use flashinfer backend by default.
[2025-05-02 11:02:47 TP2] Attention backend not set. Use flashinfer backend by default.
[2025-05-02 11:02:47 TP3] Attention backend not set. Use flashinfer backend by default.
...
  File "/usr/local/lib/python3.10/dist-packages/sglang/srt/managers/tp_worker.py", line 81, in __init__
    self.model_runner = ModelRunner(
  File "/usr/local/lib/python3.10/dist-packages/sglang/srt/model_executor/model_runner.py", line 194, in __init__
    self.initialize(min_per_gpu_memory)
  File "/usr/local/lib/python3.10/dist-packages/sglang/srt/model_executor/model_runner.py", line 229, in initialize
    self.init_memory_pool(
  File "/usr/local/lib/python3.10/dist-packages/sglang/srt/model_executor/model_runner.py", line 918, in init_memory_pool
    raise RuntimeError(
RuntimeError: Not enough memory. Please try to increase --mem-fraction-static.

[2025-05-02 11:04:22 TP0] Scheduler hit an exception: Traceback (most recent call last):
  File "/usr/local/lib/python3.10/dist-packages/sglang/srt/managers/scheduler.py", line 2215, in run_scheduler_process
    scheduler = Scheduler(server_args, port_args, gpu_id, tp_rank, pp_rank, dp_rank)
  File "/usr/local/lib/python3.10/dist-packages/sglang/srt/managers/scheduler.py", line 268, in __init__
    self.tp_worker = TpWorkerClass(
  File "/usr/local/lib/python3.10/dist-packages/sglang/srt/managers/tp_worker_overlap_thread.py", line 64, in __init__
    self.worker = TpModelWorker(
  File "/usr/local/lib/python3.10/dist-packages/sglang/srt/managers/tp_worker.py", line 81, in __init__
    self.model_runner = ModelRunner(
  File "/usr/local/lib/python3.10/dist-packages/sglang/srt/model_executor/model_runner.py", line 194, in __init__
    self.initialize(min_per_gpu_memory)
  File "/usr/local/lib/python3.10/dist-packages/sglang/srt/model_executor/model_runner.py", line 229, in initialize
    self.init_memory_pool(
  File "/usr/local/lib/python3.10/dist-packages/sglang/srt/model_executor/model_runner.py", line 918, in init_memory_pool
    raise RuntimeError(
RuntimeError: Not enough memory. Please try to increase --mem-fraction-static.

[2025-05-02 11:04:22 TP3] Scheduler hit an exception: Traceback (most recent call last):
  File "/usr/local/lib/python3.10/dist-packages/sglang/srt/managers/scheduler.py", line 2215, in run_scheduler_process
    scheduler = Scheduler(server_args, port_args, gpu_id, tp_rank, pp_rank, dp_rank)
  File "/usr/local/lib/python3.10/dist-packages/sglang/srt/managers/scheduler.py", line 268, in __init__
    self.tp_worker = TpWorkerClass(
  File "/usr/local/lib/python3.10/dist-packages/sglang/srt/managers/tp_worker_overlap_thread.py", line 64, in __init__
    self.worker = TpModelWorker(
  File "/usr/local/lib/python3.10/dist-packages/sglang/srt/managers/tp_worker.py", line 81, in __init__
    self.model_runner = ModelRunner(
  File "/usr/local/lib/python3.10/dist-packages/sglang/srt/model_executor/model_runner.py", line 194, in __init__
    self.initialize(min_per_gpu_memory)
  File "/usr/local/lib/python3.10/dist-packages/sglang/srt/model_executor/model_runner.py", line 229, in initialize
    self.init_memory_pool(
  File "/usr/local/lib/python3.10/dist-packages/sglang/srt/model_executor/model_runner.py", line 918, in init_memory_pool
    raise RuntimeError(
RuntimeError: Not enough memory. Please try to increase --mem-fraction-static.

[2025-05-02 11:04:22 TP1] Scheduler hit an exception: Traceback (most recent call last):
  File "/usr/local/lib/python3.10/dist-packages/sglang/srt/managers/scheduler.py", line 2215, in run_scheduler_process
    scheduler = Scheduler(server_args, port_args, gpu_id, tp_rank, pp_rank, dp_rank)
  File "/usr/local/lib/python3.10/dist-packages/sglang/srt/managers/scheduler.py", line 268, in __init__
    self.tp_worker = TpWorkerClass(
  File "/usr/local/lib/python3.10/dist-packages/sglang/srt/managers/tp_worker_overlap_thread.py", line 64, in __init__
    self.worker = TpModelWorker(
  File "/usr/local/lib/python3.10/dist-packages/sglang/srt/managers/tp_worker.py", line 81, in __init__
    self.model_runner = ModelRunner(
  File "/usr/local/lib/python3.10/dist-packages/sglang/srt/model_executor/model_runner.py", line 194, in __init__
    self.initialize(min_per_gpu_memory)
  File "/usr/local/lib/python3.10/dist-packages/sglang/srt/model_executor/model_runner.py", line 229, in initialize
    self.init_memory_pool(
  File "/usr/local/lib/python3.10/dist-packages/sglang/srt/model_executor/model_runner.py", line 918, in init_memory_pool
    raise RuntimeError(
RuntimeError: Not enough memory. Please try to increase --mem-fraction-static.

[2025-05-02 11:04:22] Received sigquit from a child process. It usually means the child failed.
Killed
""")
# SGLang's "sglang serve" CLI: its usage error is a crash at launch (only the recommendation to use
# it, printed by launch_server, is noise).
case('rt4_sglang_serve_usage_error', 'crashed', 'launch', 'bad_command', """usage: sglang serve [-h] [--model-path MODEL_PATH] [--tokenizer-path TOKENIZER_PATH]
                    [--host HOST] [--port PORT] ...
sglang serve: error: unrecognized arguments: --enforce-eager
""")
# torch 2.8's graph-break text ("Dynamo does not support ...") is the compiler's failure.
case('rt4_dynamo_unsupported_is_compile_failed', 'crashed', 'compile', 'compile_failed', """(EngineCore pid=212) INFO 09-14 10:02:31 [core.py:121] Initializing a V1 LLM engine (v0.26.1) with config: model='acme/custom-moe', tensor_parallel_size=1
(EngineCore pid=212) INFO 09-14 10:03:05 [model_runner.py:513] Model loading took 30.59 GiB and 22.874213 seconds
(EngineCore pid=212) INFO 09-14 10:03:12 [backends.py:1094] Using cache directory: /root/.cache/vllm/torch_compile_cache/3c1a9f0e21/rank_0_0/backbone for vLLM's torch.compile
(EngineCore pid=212) ERROR 09-14 10:03:14 [core.py:1098] EngineCore failed to start.
(EngineCore pid=212) ERROR 09-14 10:03:14 [core.py:1098] torch._dynamo.exc.Unsupported: Data-dependent branching
(EngineCore pid=212) ERROR 09-14 10:03:14 [core.py:1098]   Explanation: Detected data-dependent branching (e.g. `if my_tensor.sum() > 0:`). Dynamo does not support tracing dynamic control flow.
(EngineCore pid=212) ERROR 09-14 10:03:14 [core.py:1098]   Hint: Use `torch.cond` to express dynamic control flow.
(APIServer pid=1) RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {'EngineCore': 1}
""")
case('rt4_sglang_no_implementation', 'crashed', 'weight_load', 'model_unsupported', """[2026-09-14 10:02:11] server_args=ServerArgs(model_path='acme/Zephyr5-MoE', tp_size=1, port=30000)
[2026-09-14 10:02:21 TP0] Init torch distributed begin.
[2026-09-14 10:02:23 TP0] Init torch distributed ends. elapsed=1.94 s, mem usage=0.62 GB
[2026-09-14 10:02:24 TP0] Load weight begin. avail mem=78.23 GB
[2026-09-14 10:02:24 TP0] Scheduler hit an exception: Traceback (most recent call last):
  File "/sgl-workspace/sglang/python/sglang/srt/model_loader/utils.py", line 71, in resolve_transformers_arch
    raise ValueError(
ValueError: Zephyr5MoeForCausalLM has no SGlang implementation and the Transformers implementation is not compatible with SGLang.

[2026-09-14 10:02:24] Received sigquit from a child process. It usually means the child failed.
""")
# The kernel's Xid 79 (the GPU fell off the bus) explains the launch failure the worker saw.
case('rt4_xid79_before_launch_failure', 'crashed', '*', 'gpu_fault', """(EngineCore pid=212) INFO 09-14 10:02:31 [core.py:121] Initializing a V1 LLM engine (v0.26.1) with config: model='Qwen/Qwen3-32B', tensor_parallel_size=2
(Worker_TP1 pid=241) INFO 09-14 10:03:05 [model_runner.py:513] Model loading took 30.59 GiB and 22.874213 seconds
(Worker_TP1 pid=241) ERROR 09-14 10:03:09 [multiproc_executor.py:822] WorkerProc hit an exception.
(Worker_TP1 pid=241) ERROR 09-14 10:03:09 [multiproc_executor.py:822] torch.AcceleratorError: CUDA error: unspecified launch failure
[ 8812.441201] NVRM: Xid (PCI:0000:1b:00): 79, pid=241, name=python3, GPU has fallen off the bus.
(EngineCore pid=212) ERROR 09-14 10:03:10 [core.py:1098] RuntimeError: Worker failed with error 'CUDA error: unspecified launch failure', please check the stack trace above for the root cause
(APIServer pid=1) RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {'EngineCore': 1}
""")
# The scheduler dying under SGLang's warm-up request: the warm-up request failed.
case('rt4_sglang_scheduler_dies_in_warmup', 'crashed', 'warmup', 'warmup_request_failed', """[2026-09-14 10:02:11] server_args=ServerArgs(model_path='Qwen/Qwen3-32B', tp_size=1, port=30000)
[2026-09-14 10:02:44 TP0] Load weight end. elapsed=19.87 s, type=Qwen3ForCausalLM, dtype=torch.bfloat16, avail mem=17.23 GB, mem usage=61.00 GB.
[2026-09-14 10:02:45 TP0] KV Cache is allocated. #tokens: 437803, KV size: 53.44 GB
[2026-09-14 10:02:56 TP0] Capture cuda graph end. Time elapsed: 10.12 s. mem usage=0.62 GB. avail mem=7.90 GB.
[2026-09-14 10:03:26] INFO:     Uvicorn running on http://0.0.0.0:30000 (Press CTRL+C to quit)
[2026-09-14 10:03:27] INFO:     127.0.0.1:58294 - "GET /model_info HTTP/1.1" 200 OK
/pytorch/aten/src/ATen/native/cuda/TensorCompare.cu:112: _assert_async_cuda_kernel: block: [0,0,0], thread: [0,0,0] Assertion `probability tensor contains either `inf`, `nan` or element < 0` failed.
[2026-09-14 10:03:28 TP0] Scheduler hit an exception: Traceback (most recent call last):
  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 1091, in event_loop_overlap
    batch_result = self.run_batch(batch)
torch.AcceleratorError: CUDA error: device-side assert triggered

[2026-09-14 10:03:28] Received sigquit from a child process. It usually means the child failed.
""")

# TGI on Gaudi warms up its HPU graphs bucket by bucket after the KV cache ("[Warmup][Decode][2/8]"):
# graph capture, not the KV cache's sizing.
case('rt4_tgi_gaudi_hpu_graph_warmup', 'stalled', 'cuda_graph', '*', """2025-04-02T11:00:00.100000Z  INFO text_generation_launcher: Args { model_id: "meta-llama/Llama-3.1-70B-Instruct", num_shard: Some(8), port: 80, json_output: false, env: false }
2025-04-02T11:02:10.980000Z  INFO text_generation_launcher: KV-cache blocks: 1860, size: 128
2025-04-02T11:02:44.980000Z  INFO text_generation_launcher: [Warmup][Prefill][1/12] batch_size:1 seqlen:128 bypass:False free_mem:11.30 GB, this may take a while...
2025-04-02T11:09:32.980000Z  INFO text_generation_launcher: [Warmup][Prefill][12/12] batch_size:1 seqlen:1536 bypass:False free_mem:11.30 GB, this may take a while...
2025-04-02T11:09:37.980000Z  INFO text_generation_launcher: Prefill warmup successful.
2025-04-02T11:10:17.980000Z  INFO text_generation_launcher: [Warmup][Decode][1/8] batch_size:1 num_blocks:16 bypass:False free_mem:9.12 GB, this may take a while...
2025-04-02T11:10:57.980000Z  INFO text_generation_launcher: [Warmup][Decode][2/8] batch_size:2 num_blocks:32 bypass:False free_mem:9.12 GB, this may take a while...
""")
# TGI 2.0's flash models raise "FlashLlama is only available on GPU" where CUDA is not there.
case('rt4_tgi_flash_model_only_on_gpu', 'crashed', 'weight_load', 'no_gpu_visible', """2024-06-27T10:00:00.100000Z  INFO text_generation_launcher: Args { model_id: "meta-llama/Meta-Llama-3-8B-Instruct", num_shard: None, quantize: None, port: 80, json_output: false, env: false }
2024-06-27T10:00:00.200000Z  INFO download: text_generation_launcher: Starting download process.
2024-06-27T10:00:02.800000Z  INFO download: text_generation_launcher: Successfully downloaded weights.
2024-06-27T10:00:02.800400Z  INFO shard-manager: text_generation_launcher: Starting shard rank=0
2024-06-27T10:00:05.800000Z ERROR text_generation_launcher: Error when initializing model
Traceback (most recent call last):
  File "/opt/conda/lib/python3.10/site-packages/text_generation_server/models/flash_llama.py", line 41, in __init__
    raise NotImplementedError("FlashLlama is only available on GPU")
NotImplementedError: FlashLlama is only available on GPU
2024-06-27T10:00:06.200000Z ERROR text_generation_launcher: Shard 0 failed to start
Error: ShardCannotStart
""")

# Python's "Exception ignored in: <function ...__del__>" report (a finaliser failing during
# teardown) never stopped a process: neither it nor its traceback is the start's failure.
case('rt4_unraisable_del_is_no_cause', 'crashed', 'weight_load', None, """INFO 05-12 10:00:04 [api_server.py:1043] vLLM API server version 0.8.5
INFO 05-12 10:00:16 [core.py:58] Initializing a V1 LLM engine (v0.8.5) with config: model='meta-llama/Llama-3.1-70B-Instruct', tensor_parallel_size=1
INFO 05-12 10:00:17 [gpu_model_runner.py:1329] Starting to load model meta-llama/Llama-3.1-70B-Instruct...
INFO 05-12 10:00:18 [weight_utils.py:265] Using model weights format ['*.safetensors']
Loading safetensors checkpoint shards:  62% Completed | 5/8 [00:41<00:24,  8.10s/it]
ERROR 05-12 10:01:40 [core_client.py:401] Engine core proc EngineCore_0 died unexpectedly, shutting down client.
Traceback (most recent call last):
  File "/usr/local/bin/vllm", line 8, in <module>
    sys.exit(main())
RuntimeError: Engine core initialization failed. See root cause above.
Exception ignored in: <function ZMQSocket.__del__ at 0x7f8e2b1c4a40>
Traceback (most recent call last):
  File "/usr/local/lib/python3.12/dist-packages/zmq/sugar/socket.py", line 185, in __del__
AttributeError: 'NoneType' object has no attribute 'close'
""")
# supervisord's and compose's lines about a sidecar (a log shipper, nginx) are not the server's
# restarts.
case('rt4_supervisord_sidecar_not_restarts', 'crashed', 'kv_cache', 'kv_memory', """2024-10-14 09:12:01,220 INFO spawned: 'vllm' with pid 41
2024-10-14 09:12:01,222 INFO spawned: 'log-shipper' with pid 42
INFO 10-14 09:12:03 api_server.py:528] vLLM API server version 0.6.3.post1
INFO 10-14 09:12:10 model_runner.py:1056] Starting to load model meta-llama/Llama-3.1-8B-Instruct...
INFO 10-14 09:12:16 model_runner.py:1067] Loading model weights took 14.9888 GB
2024-10-14 09:12:11,502 WARN exited: log-shipper (exit status 2; not expected)
2024-10-14 09:12:12,505 INFO spawned: 'log-shipper' with pid 97
2024-10-14 09:12:14,930 WARN exited: log-shipper (exit status 2; not expected)
2024-10-14 09:12:17,933 INFO spawned: 'log-shipper' with pid 131
INFO 10-14 09:12:18 gpu_executor.py:122] # GPU blocks: 2050, # CPU blocks: 2048
ValueError: The model's max seq len (131072) is larger than the maximum number of tokens that can be stored in KV cache (32800). Try increasing `gpu_memory_utilization` or decreasing `max_model_len` when initializing the engine.
RuntimeError: Engine process failed to start. See stacktrace for the root cause.
2024-10-14 09:12:19,880 WARN exited: vllm (exit status 1; expected)
""")

# vLLM V1's worker_busy_loop logs "WorkerProc hit an exception." and goes on; the engine core then
# waits on the other rank (its broadcast line every 60 s): the start hangs, it did not end.
RT4_WORKER_EXCEPTION = """(APIServer pid=1) INFO 08-21 09:12:04 [api_server.py:1805] vLLM API server version 0.10.1.1
(EngineCore_0 pid=412) INFO 08-21 09:12:17 [core.py:74] Initializing a V1 LLM engine (v0.10.1.1) with config: model='meta-llama/Llama-3.1-70B-Instruct', tensor_parallel_size=2
(VllmWorker TP0 pid=551) INFO 08-21 09:12:24 [gpu_model_runner.py:1953] Starting to load model meta-llama/Llama-3.1-70B-Instruct...
(VllmWorker TP1 pid=552) INFO 08-21 09:12:24 [gpu_model_runner.py:1953] Starting to load model meta-llama/Llama-3.1-70B-Instruct...
(VllmWorker TP0 pid=551) INFO 08-21 09:13:27 [gpu_model_runner.py:2007] Model loading took 65.7000 GiB and 61.873012 seconds
(VllmWorker TP1 pid=552) INFO 08-21 09:13:27 [gpu_model_runner.py:2007] Model loading took 65.7000 GiB and 61.873012 seconds
(VllmWorker TP0 pid=551) INFO 08-21 09:14:33 [monitor.py:34] torch.compile takes 52.69 s in total
(VllmWorker TP1 pid=552) INFO 08-21 09:14:33 [monitor.py:34] torch.compile takes 52.69 s in total
(VllmWorker TP1 pid=552) ERROR 08-21 09:14:35 [multiproc_executor.py:596] WorkerProc hit an exception.
(VllmWorker TP1 pid=552) ERROR 08-21 09:14:35 [multiproc_executor.py:596] Traceback (most recent call last):
(VllmWorker TP1 pid=552) ERROR 08-21 09:14:35 [multiproc_executor.py:596]   File "/usr/local/lib/python3.12/dist-packages/vllm/v1/worker/gpu_worker.py", line 243, in determine_available_memory
(VllmWorker TP1 pid=552) ERROR 08-21 09:14:35 [multiproc_executor.py:596]     self.model_runner.profile_run()
(VllmWorker TP1 pid=552) ERROR 08-21 09:14:35 [multiproc_executor.py:596] torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.50 GiB. GPU 1 has a total capacity of 79.19 GiB of which 182.06 MiB is free.
(EngineCore_0 pid=412) INFO 08-21 09:15:35 [shm_broadcast.py:466] No available shared memory broadcast block found in 60 second. This typically happens when some processes are hanging or doing some time-consuming work (e.g. compilation).
(EngineCore_0 pid=412) INFO 08-21 09:16:35 [shm_broadcast.py:466] No available shared memory broadcast block found in 60 second. This typically happens when some processes are hanging or doing some time-consuming work (e.g. compilation).
(EngineCore_0 pid=412) INFO 08-21 09:17:35 [shm_broadcast.py:466] No available shared memory broadcast block found in 60 second. This typically happens when some processes are hanging or doing some time-consuming work (e.g. compilation).
"""
case('rt4_worker_exception_then_waits_is_hung', 'in_progress', 'kv_cache', 'gpu_oom', RT4_WORKER_EXCEPTION)
# Guard: the same error as the log's last line ends the start.
case('rt4_worker_exception_at_the_end_is_crashed', 'crashed', 'kv_cache', 'gpu_oom', "\n".join(
    l for l in RT4_WORKER_EXCEPTION.splitlines() if 'shm_broadcast' not in l))
# V0's custom all-reduce checks peer access in subprocesses; its failure is the custom all-reduce's.
case('rt4_custom_ar_p2p_batch_test_failed', 'crashed', 'distributed_init', 'custom_allreduce', """INFO 10-22 14:02:11 api_server.py:528] vLLM API server version 0.6.3.post1
INFO 10-22 14:02:16 llm_engine.py:237] Initializing an LLM engine (v0.6.3.post1) with config: model='meta-llama/Llama-3.1-70B-Instruct', tensor_parallel_size=4, disable_custom_all_reduce=False
(VllmWorkerProcess pid=302) ERROR 10-22 14:02:45 multiproc_worker_utils.py:233] Exception in worker VllmWorkerProcess while processing method init_device.
(VllmWorkerProcess pid=302) ERROR 10-22 14:02:45 multiproc_worker_utils.py:233] Traceback (most recent call last):
(VllmWorkerProcess pid=302) ERROR 10-22 14:02:45 multiproc_worker_utils.py:233]   File "/usr/local/lib/python3.10/dist-packages/vllm/distributed/device_communicators/custom_all_reduce.py", line 130, in __init__
(VllmWorkerProcess pid=302) ERROR 10-22 14:02:45 multiproc_worker_utils.py:233]     if not _can_p2p(rank, world_size):
(VllmWorkerProcess pid=302) ERROR 10-22 14:02:45 multiproc_worker_utils.py:233]   File "/usr/local/lib/python3.10/dist-packages/vllm/distributed/device_communicators/custom_all_reduce_utils.py", line 222, in gpu_p2p_access_check
(VllmWorkerProcess pid=302) ERROR 10-22 14:02:45 multiproc_worker_utils.py:233]     raise RuntimeError(
(VllmWorkerProcess pid=302) ERROR 10-22 14:02:45 multiproc_worker_utils.py:233] RuntimeError: Error happened when batch testing peer-to-peer access from (0, 0, 0, 0, 1, 1, 1, 1) to (0, 1, 2, 3, 0, 1, 2, 3):
INFO 10-22 14:02:46 multiproc_worker_utils.py:124] Killing local vLLM worker processes
""")
