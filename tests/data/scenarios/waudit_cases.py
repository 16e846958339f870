# Wording-audit round (issue 10): the lines that mark a phase or end a start, read release by
# release in the engines' sources (vLLM v0.4.3-main 2026-05: vllm/compilation/cuda_graph.py,
# decorators.py, v1/worker/gpu_worker.py, gpu_model_runner.py; TGI launcher/src/main.rs, router/src/main.rs v1.x-v2.0,
# router/src/server.rs v2.1-v2.2, backends/v3/src/lib.rs and backends/client v2.3-v3.3,
# server/text_generation_server/models/flash_causal_lm.py and utils/hub.py; TensorRT-LLM
# _torch/pyexecutor/model_engine.py and py_executor_creator.py; SGLang router/model_runner.py (0.1),
# model_executor/model_runner.py, entrypoints/engine.py), never from corpus logs. exec'd by
# make_scenarios.py (uses vl, frames, VHEAD, VLOAD, VCOMP, VKV, tg, THEAD, trt, trt_tb, TRT_SERVE_HEAD, TRT_SERVE_LOADED, TRT_SERVE_KV,
# TRT_WORKER_END, sg, SHEAD, SDIST, SLOAD, SKV).

_TGI_SHARDS_UP = THEAD + [('INFO', 'shard-manager: ', 'Shard ready in 20.1s rank=0'),
                          ('INFO', 'shard-manager: ', 'Shard ready in 20.3s rank=1'),
                          ('INFO', '', 'Starting Webserver')]
_TGI_WEB_DOWN = [('ERROR', '', 'Webserver Crashed'), ('INFO', '', 'Shutting down shards')]

# v1.x-v2.0: after the warm-up the router compares --max-total-tokens with what the KV cache holds
# (router/src/main.rs) and returns ArgumentValidation with the warm-up's figure: the KV cache is too
# small, not a bad flag (the same words before the shards start would be one)
case('wa_tgi_router_kv_too_small', 'crashed', 'kv_cache', 'kv_memory', tg(_TGI_SHARDS_UP + [
    ('INFO', 'text_generation_router: ', 'Warming up model')]) + '\n' +
    'Error: ArgumentValidation("`max_total_tokens` must be <= `max_batch_total_tokens`. Given: 8192 and 5120")\n' +
    tg(_TGI_WEB_DOWN, base=20) + '\nError: WebserverFailed\n')

# v2.1-v2.2 wrap the router's errors in WebServer(...): the KV blocks left after the warm-up (and the
# graphs captured at its end) cannot hold one max_total_tokens request
case('wa_tgi_webserver_not_enough_memory', 'crashed', 'kv_cache', 'kv_memory', tg(_TGI_SHARDS_UP + [
    ('INFO', 'text_generation_router::server: ', 'Warming up model'),
    ('INFO', '', 'Cuda Graphs are enabled for sizes [32, 16, 8, 4, 2, 1]')]) + '\n' +
    'Error: WebServer(NotEnoughMemory(8192))\n' + tg(_TGI_WEB_DOWN, base=20) + '\nError: WebserverFailed\n')

# v2.3+: the router cannot reach a shard's socket (backends/v3 connect_backend): the client's own
# error line, then main's Debug print of the backend error, before any warm-up
case('wa_tgi_backend_connection', 'crashed', 'http_start', '*', tg(_TGI_SHARDS_UP + [
    ('ERROR', 'text_generation_router_v3::client: ', 'Could not connect to Text Generation server: transport error')]) + '\n' +
    'Error: Backend(Connection(Connection("transport error")))\n' + tg(_TGI_WEB_DOWN, base=20) +
    '\nError: WebserverFailed\n')

# v1.3-v1.4 announce the graphs in other words ('Experimental support for Cuda Graphs is enabled'):
# a start that stops there is in cuda_graph, not in the warm-up prefill before it
case('wa_tgi_v1_graphs_then_killed', 'crashed', 'cuda_graph', '*', tg(_TGI_SHARDS_UP + [
    ('INFO', 'text_generation_router: ', 'Warming up model'),
    ('INFO', '', 'Experimental support for Cuda Graphs is enabled'),
    ('ERROR', '', 'Shard 0 crashed'), ('INFO', '', 'Terminating webserver'),
    ('INFO', '', 'Shutting down shards')]) + '\nError: ShardFailed\n')

# The shard looks its weight files up itself (utils/hub.py weight_files, called from get_model):
# a missing file at shard start is a weight-load failure, not the download's
case('wa_tgi_weight_files_at_shard_start', 'crashed', 'weight_load', '*', tg([
    ('ERROR', '', 'Error when initializing model')]) + '''
Traceback (most recent call last):
  File "/opt/conda/lib/python3.11/site-packages/text_generation_server/server.py", line 268, in serve_inner
    model = get_model_with_lora_adapters(
  File "/opt/conda/lib/python3.11/site-packages/text_generation_server/models/__init__.py", line 1126, in get_model
    return FlashCausalLM(
  File "/opt/conda/lib/python3.11/site-packages/text_generation_server/models/flash_causal_lm.py", line 1045, in __init__
    filenames = weight_files(model_id, revision=revision, extension=".safetensors")
  File "/opt/conda/lib/python3.11/site-packages/text_generation_server/utils/hub.py", line 173, in weight_files
    raise FileNotFoundError(
FileNotFoundError: No local weights found in /data/models/m with extension .safetensors
''' + tg([('ERROR', '', 'Shard 0 failed to start'), ('INFO', '', 'Shutting down shards')], base=5) +
    '\nError: ShardCannotStart\n')

_TRT_AUTOTUNED = [('I', '[Autotuner] Autotuning process starts ...'), ('I', '[Autotuner] Autotuning process ends')]

# trtllm-serve with torch.compile's piecewise graphs and no generation graphs: 'Running piecewise CUDA
# graph warmup...' is the capture's only line (model_engine.py _capture_piecewise_cuda_graphs)
case('wa_trt_piecewise_capture_crash', 'crashed', 'cuda_graph', '*', trt(TRT_SERVE_HEAD + TRT_SERVE_LOADED +
    TRT_SERVE_KV + _TRT_AUTOTUNED + [
    ('I', 'Running piecewise CUDA graph warmup...'),
    ('I', 'Run piecewise CUDA graph warmup for num tokens=8192'),
    ('E', 'Failed to initialize executor on rank 0: CUDA error: an illegal memory access was encountered')] +
    TRT_WORKER_END))

# Newer model_engine.py labels each capture pass ('Run generation-only CUDA graph warmup (greedy) for
# batch size=...'): an excerpt that starts there is in cuda_graph
case('wa_trt_labelled_graph_pass', 'crashed', 'cuda_graph', '*', trt([
    ('I', 'Run generation-only CUDA graph warmup (greedy) for batch size=64, draft_len=0, max_seq_len=8192'),
    ('I', 'Run generation-only CUDA graph warmup (greedy) for batch size=32, draft_len=0, max_seq_len=8192'),
    ('E', 'Failed to initialize executor on rank 0: CUDA error: operation not permitted when stream is capturing')] +
    TRT_WORKER_END))

# The memory monitor's component of the temporary executor built to estimate the KV cache
# (py_executor_creator.py _ExecutorMemoryMonitor): the KV-cache sizing failed
case('wa_trt_oom_estimation_executor', 'crashed', 'kv_cache', 'kv_memory', trt(TRT_SERVE_HEAD + TRT_SERVE_LOADED + [
    ('E', 'Failed to initialize executor on rank 0: Executor creation failed due to insufficient GPU memory.'),
    ('', ''), ('', 'The following component could not be created: Additional executor resources (temporary for KV cache size estimation)'),
    ('', 'Total GPU memory (GiB): 79.19'), ('', 'Free GPU memory before component creation attempt (GiB): 0.41'), ('', ''),
    ('', 'Previously created components and free GPU memory before/after creation (GiB):'), ('', 'Model: 78.50 / 14.20'),
    ('', 'Initial KV Cache (temporary for KV cache size estimation): 14.20 / 0.41')] + TRT_WORKER_END))

_V_PROFILE = [('vllm/v1/engine/core.py', '_initialize_kv_caches', 'available_gpu_memory = self.model_executor.determine_available_memory()'),
              ('vllm/v1/worker/gpu_worker.py', 'determine_available_memory', 'self.model_runner.profile_run()'),
              ('vllm/v1/worker/gpu_model_runner.py', 'profile_run', '= self._dummy_run(self.max_num_tokens, is_profile=True)'),
              ('vllm/v1/worker/gpu_model_runner.py', '_dummy_run', 'outputs = self.model(')]
_V_LAYERS = [('vllm/model_executor/models/llama.py', 'forward', 'hidden_states, residual = layer(positions, hidden_states, residual)'),
             ('vllm/model_executor/layers/linear.py', 'forward', 'output_parallel = self.quant_method.apply(self, input_, bias)')]
_V_OOM = 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.96 GiB. GPU 0 has a total capacity of 79.19 GiB of which 1.02 GiB is free.'

# vLLM 0.10+: every forward goes through the CUDA-graph wrapper (compilation/cuda_graph.py __call__),
# which only passes the call on ("return self.runnable(...)") outside a capture: an OOM in the
# memory-profiling forward is the KV-cache sizing, not a capture
case('wa_v011_profile_run_oom_through_wrapper', 'crashed', 'kv_cache', '*', vl(VHEAD + VLOAD + VCOMP +
    [('ERROR', 'core.py:708', l) for l in ['EngineCore failed to start.'] + frames(_V_PROFILE + [
    ('vllm/compilation/cuda_graph.py', '__call__', 'return self.runnable(*args, **kwargs)')] + _V_LAYERS, _V_OOM)],
    '(EngineCore_DP0 pid=221) ') + '\n')

# The same forward cut to its last frames: the wrapper passing the call on says no phase, so the
# profile run that the weights' end line opened is where it failed
case('wa_v011_profile_run_wrapper_frames_cut', 'crashed', 'kv_cache', '*', vl(VHEAD + VLOAD) + '\n' +
    vl([('ERROR', 'core.py:708', l) for l in frames([
    ('vllm/compilation/cuda_graph.py', '__call__', 'return self.runnable(*args, **kwargs)')] + _V_LAYERS, _V_OOM)],
    '(EngineCore_DP0 pid=221) ') + '\n')

# main (2026): the KV-cache sizing captures graphs to measure them (profile_cudagraph_memory, after
# 'Profiling CUDA graph memory'): an OOM there is the sizing's, before any KV cache exists
case('wa_vmain_graph_memory_profile_oom', 'crashed', 'kv_cache', '*', vl(VHEAD + VLOAD + VCOMP + [
    ('INFO', 'gpu_model_runner.py:5120', 'Profiling CUDA graph memory: PIECEWISE=51 (largest=512), FULL=35 (largest=256)')] +
    [('ERROR', 'core.py:1108', l) for l in ['EngineCore failed to start.'] + frames([
    ('vllm/v1/engine/core.py', '_initialize_kv_caches', 'available_gpu_memory = self.model_executor.determine_available_memory()'),
    ('vllm/v1/worker/gpu_worker.py', 'determine_available_memory', 'cudagraph_memory_estimate = self.model_runner.profile_cudagraph_memory()'),
    ('vllm/v1/worker/gpu_model_runner.py', 'profile_cudagraph_memory', 'self._warmup_and_capture(desc, cudagraph_runtime_mode=mode)'),
    ('vllm/v1/worker/gpu_model_runner.py', '_dummy_run', 'outputs = self.model('),
    ('vllm/compilation/cuda_graph.py', '__call__', 'output = self.runnable(*args, **kwargs)')] + _V_LAYERS, _V_OOM)],
    '(EngineCore_DP0 pid=221) ') + '\n')

# main (2026) without AOT compile: 'torch.compile and initial profiling/warmup run together took N s
# in total' ends the compile (and the first profile run); a crash after the KV-cache lines is the
# KV cache's, not the compiler's
case('wa_vmain_compile_end_with_profile', 'crashed', 'kv_cache', 'kv_memory', vl(VHEAD + VLOAD + VCOMP[:2] + [
    ('INFO', 'monitor.py:48', 'torch.compile and initial profiling/warmup run together took 41.27 s in total'),
    ('INFO', 'gpu_worker.py:440', 'Available KV cache memory: -2.10 GiB')] +
    [('ERROR', 'core.py:1108', l) for l in ['EngineCore failed to start.'] + frames([
    ('vllm/v1/engine/core.py', '_initialize_kv_caches', 'kv_cache_configs = get_kv_cache_configs(vllm_config, kv_cache_specs, available_gpu_memory)'),
    ('vllm/v1/core/kv_cache_utils.py', 'get_kv_cache_configs', 'check_enough_kv_cache_memory(')],
    'ValueError: No available memory for the cache blocks. Try increasing `gpu_memory_utilization` when initializing the engine.')],
    '(EngineCore_DP0 pid=221) ') + '\n')

# vLLM 0.5-0.6 (V0, tensor parallel): a worker that waits on the others repeats 'No available block
# found in 60 second.' (shm_broadcast.py): alive, waiting, for 12 minutes
case('wa_v05_shm_block_wait', 'stalled', 'distributed_init', '*', """INFO 08-20 10:00:00 api_server.py:206] vLLM API server version 0.5.4
INFO 08-20 10:00:01 llm_engine.py:174] Initializing an LLM engine (v0.5.4) with config: model='m', tensor_parallel_size=2
(VllmWorkerProcess pid=11) INFO 08-20 10:00:05 multiproc_worker_utils.py:215] Worker ready; awaiting tasks
INFO 08-20 10:00:06 utils.py:841] Found nccl from library libnccl.so.2
INFO 08-20 10:00:06 pynccl.py:63] vLLM is using nccl==2.20.5
WARNING 08-20 10:01:06 shm_broadcast.py:386] No available block found in 60 second. 
WARNING 08-20 10:02:06 shm_broadcast.py:386] No available block found in 60 second. 
WARNING 08-20 10:12:06 shm_broadcast.py:386] No available block found in 60 second. 
""")

# vLLM 0.14+: the KV cache cannot hold one token at any length ('Cannot auto-fit max_model_len');
# the engine's last line is the KV-cache figure, pinned there though compile frames come after
case('wa_v014_auto_fit_fails', 'crashed', 'kv_cache', 'kv_memory', vl(VHEAD + VLOAD + VCOMP + [
    ('INFO', 'gpu_worker.py:440', 'Available KV cache memory: 0.00 GiB')] +
    [('ERROR', 'core.py:1108', l) for l in ['EngineCore failed to start.'] + frames([
    ('vllm/v1/engine/core.py', '_initialize_kv_caches', 'kv_cache_configs = get_kv_cache_configs(vllm_config, kv_cache_specs, available_gpu_memory)'),
    ('vllm/v1/core/kv_cache_utils.py', '_auto_fit_max_model_len', 'raise ValueError(')],
    'ValueError: Cannot auto-fit max_model_len: not enough GPU memory available to serve even a single token. Try increasing `gpu_memory_utilization`.')],
    '(EngineCore_DP0 pid=221) ') + '\n')

# SGLang on Ascend (model_runner.py init_device_graphs): 'Capture npu graph begin.' opens the capture
# as 'Capture cuda graph begin.' does; a start that stops there is capturing, not compiling
case('wa_sg_npu_graph_capture', 'in_progress', 'cuda_graph', '*', sg(SHEAD) + '\n' + sg(SDIST + SLOAD + SKV + [
    'Capture npu graph begin. This can take up to several minutes. avail mem=20.10 GB']))

# SGLang 0.1 (early 2024, router/model_runner.py): 'Rank 0: load weight begin.' and the pool's
# 'Rank 0: max_total_num_token=...'; 'Not enought memory' (sic) is the pool's OOM
case('wa_sg_v01_pool_oom', 'crashed', 'kv_cache', 'kv_memory', sg([
    "server_args=ServerArgs(model_path='meta-llama/Llama-2-7b-chat-hf', tp_size=1)",
    'Rank 0: load weight begin.', 'Rank 0: load weight end.', 'Exception in ModelRpcClient:',
    'Traceback (most recent call last):',
    '  File "/opt/conda/lib/python3.10/site-packages/sglang/srt/managers/router/model_runner.py", line 271, in __init__',
    '    self.init_memory_pool(total_gpu_memory)',
    '  File "/opt/conda/lib/python3.10/site-packages/sglang/srt/managers/router/model_runner.py", line 301, in init_memory_pool',
    '    raise RuntimeError(',
    'RuntimeError: Not enought memory. Please try to increase --mem-fraction-static.']))

# SGLang's launcher (entrypoints/engine.py) sees a scheduler die while the weights load: the
# crash is the weights', as far as the log goes
case('wa_sg_scheduler_terminated', 'crashed', 'weight_load', '*', sg(SHEAD) + '\n' + sg(SDIST + SLOAD[:1] + [
    'Scheduler or DataParallelController 48213 terminated with -9']))
