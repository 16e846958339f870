# vLLM cases of the vgen round (issue 10, part 2): startup logs in the wording of vLLM 0.4-0.11 as
# users paste them (whole runs and excerpts without their head), one per mechanism fixed.
# exec'd by make_scenarios.py (uses its case/vl/v0/frames/logged helpers).

# 0.7-0.8 V1: on a worker's failure the front-end logs "Got fatal signal from worker processes,
# shutting down" and SIGKILLs its own process tree, so the shell prints "Killed": no OOM record.
# The inductor/Triton build step that failed is the C compiler: a JIT toolchain cause.
case('vg_v083_self_kill_gcc', 'crashed', 'compile', 'jit_toolchain', vl([
    ('INFO', 'api_server.py:1034', 'vLLM API server version 0.8.3'),
    ('INFO', 'core.py:58', "Initializing a V1 LLM engine (v0.8.3) with config: model='Qwen/QwQ-32B-AWQ'"),
    ('INFO', 'gpu_model_runner.py:1291', 'Model loading took 18.1455 GiB and 6.642 seconds'),
    ('INFO', 'backends.py:416', "Using cache directory: /root/.cache/vllm/torch_compile_cache/9e1c/rank_0_0 for vLLM's torch.compile"),
    ('INFO', 'backends.py:426', 'Dynamo bytecode transform time: 7.31 s')] + logged('EngineCore hit an exception: Traceback (most recent call last):', [
    ('vllm/v1/engine/core.py', 'run_engine_core', 'engine_core = EngineCoreProc(*args, **kwargs)'),
    ('vllm/v1/worker/gpu_model_runner.py', 'profile_run', 'hidden_states = self._dummy_run(self.max_num_tokens)'),
    ('torch/_dynamo/output_graph.py', '_call_user_compiler', 'raise BackendCompilerFailed(self.compiler_fn, e) from e')], [
    "torch._dynamo.exc.BackendCompilerFailed: backend='<vllm.compilation.backends.VllmBackend object at 0x7f2b>' raised:",
    "CalledProcessError: Command '['/usr/bin/gcc', '/tmp/tmpq1w2e3/main.c', '-O3', '-shared', '-fPIC', '-o', '/tmp/tmpq1w2e3/cuda_utils.cpython-312-x86_64-linux-gnu.so', '-lcuda']' returned non-zero exit status 1."],
    f='core.py:386') + [
    ('CRITICAL', 'core_client.py:359', 'Got fatal signal from worker processes, shutting down. See stack trace above for root cause issue.')]) +
    '\nKilled\n')
# The same self-kill after a free-memory failure cut to its last lines: nothing else is left, so
# no cause rather than a host OOM.
case('vg_v085_self_kill_tail', 'crashed', '*', None, vl([
    ('ERROR', 'core.py:396', 'EngineCore failed to start.'),
    ('ERROR', 'core.py:396', 'Exception: WorkerProc initialization failed due to an exception in a background process. See stack trace for root cause.'),
    ('CRITICAL', 'core_client.py:361', 'Got fatal signal from worker processes, shutting down. See stack trace above for root cause issue.')]) + '\nKilled\n')
# A shell's "Killed" with nothing of vLLM's own shutdown before it is still an unexplained SIGKILL.
case('vg_v05_killed_loading', 'crashed', 'weight_load', 'host_oom', v0([
    ('INFO', 'api_server.py:177', 'vLLM API server version 0.5.0'),
    ('INFO', 'llm_engine.py:161', "Initializing an LLM engine (v0.5.0) with config: model='/data/Qwen2-72B-Instruct', tensor_parallel_size=4"),
    ('INFO', 'weight_utils.py:218', "Using model weights format ['*.safetensors']")]) +
    '\nLoading safetensors checkpoint shards:  24% Completed | 9/37 [00:48<02:31,  5.40s/it]\nKilled\n')

# tokenizers older than the model's tokenizer.json (V0 0.6 builds the tokenizer in LLMEngine).
case('vg_v064_tokenizer_enum', 'crashed', 'launch', 'package_mismatch', v0([
    ('INFO', 'api_server.py:585', 'vLLM API server version 0.6.4.post1'),
    ('INFO', 'llm_engine.py:249', "Initializing an LLM engine (v0.6.4.post1) with config: model='Qwen/Qwen2.5-Coder-32B-Instruct'")]) + '\n' +
    '\n'.join(frames([('vllm/engine/llm_engine.py', '__init__', 'self.tokenizer = self._init_tokenizer()'),
                      ('transformers/tokenization_utils_fast.py', '__init__', 'fast_tokenizer = TokenizerFast.from_file(fast_tokenizer_file)')],
                     'Exception: data did not match any variant of untagged enum ModelWrapper at line 757479 column 3')) + '\n')

# Offline inference (LLM(...).generate): no HTTP server; the generate bars are served requests.
case('vg_v053_offline_ready', 'ready', 'ready', None, v0([
    ('INFO', 'llm_engine.py:176', "Initializing an LLM engine (v0.5.3.post1) with config: model='meta-llama/Meta-Llama-3-8B-Instruct'"),
    ('INFO', 'model_runner.py:692', 'Loading model weights took 14.9595 GB'),
    ('INFO', 'gpu_executor.py:102', '# GPU blocks: 27895, # CPU blocks: 2048'),
    ('INFO', 'model_runner.py:980', 'Capturing the model for CUDA graphs. This may lead to unexpected consequences if the model is not static.'),
    ('INFO', 'model_runner.py:1181', 'Graph capturing finished in 7 secs.')]) +
    '\nProcessed prompts: 100%|██████████| 500/500 [00:21<00:00, 23.31it/s, est. speed input: 3012.11 toks/s, output: 5963.47 toks/s]\n')

# Excerpts that keep only the deepest frames (the head cut): the frame names the phase.
# V0 checks a quantization's GPU capability while building the model (loader), V1 at config time.
case('vg_v054_quant_config_frames_cut', 'crashed', 'weight_load', 'gpu_arch_feature', '\n'.join(frames([
    ('vllm/model_executor/model_loader/loader.py', '_get_quantization_config', 'raise ValueError(')],
    'ValueError: The quantization method fp8 is not supported for the current GPU. Minimum capability: 80. Current capability: 75.')) + '\n')
# A communicator built during distributed init (pynccl, custom all-reduce, parallel groups).
case('vg_v102_pynccl_init_frames_cut', 'crashed', 'distributed_init', '*', vl([('ERROR', 'multiproc_executor.py:597', l) for l in frames([
    ('vllm/distributed/device_communicators/cuda_communicator.py', '__init__', 'self.pynccl_comm = PyNcclCommunicator('),
    ('vllm/distributed/device_communicators/pynccl.py', '__init__', 'self.comm: ncclComm_t = self.nccl.ncclCommInitRank('),
    ('vllm/distributed/device_communicators/pynccl_wrapper.py', 'NCCL_CHECK', 'raise RuntimeError(f"NCCL error: {error_str}")')],
    'RuntimeError: NCCL error: unhandled system error (run with NCCL_DEBUG=INFO for details)')], '(Worker pid=402) ') + '\n')
# V1 CUDA-graph wrapper (vllm/compilation/cuda_graph.py) capturing a batch size.
case('vg_v011_cudagraph_wrapper_frames_cut', 'crashed', 'cuda_graph', 'gpu_oom', vl([('ERROR', 'core.py:708', l) for l in frames([
    ('vllm/compilation/cuda_graph.py', '__call__', 'output = self.runnable(*args, **kwargs)'),
    ('vllm/model_executor/models/llama.py', 'forward', 'hidden_states, residual = layer(positions, hidden_states, residual)'),
    ('vllm/model_executor/layers/linear.py', 'forward', 'output_parallel = self.quant_method.apply(self, input_, bias)')],
    'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 640.00 MiB.')], '(EngineCore_DP0 pid=221) ') + '\n')

# Pasted from a terminal that hard-wraps long lines: vLLM's memory errors are matched on either
# half, so the cause and the phase it is raised in survive the wrap.
case('vg_v09_wrapped_free_memory', 'crashed', 'launch', 'orphan_processes', """(VllmWorker rank=0 pid=257) ERROR 06-20 14:02:11 [multiproc_executor.py:527] ValueError: Free memory on device (7.06/47.54 G
iB) on startup is less than desired GPU memory utilization (0.9, 42.79 GiB). Decrease GPU memory utilization or reduce GPU mem
ory used by other processes.
ERROR 06-20 14:02:12 [core.py:515] EngineCore failed to start.
""")
case('vg_v06_wrapped_kv_too_small', 'crashed', 'kv_cache', 'kv_memory', """INFO 10-20 10:00:05 gpu_executor.py:122] # GPU blocks: 1191, # CPU blocks: 512
ERROR 10-20 10:00:06 engine.py:160] ValueError: The model's max seq len (131072) is larger than the maximum number of tok
ens that can be stored in KV cache (19056). Try increasing `gpu_memory_utilization` or decreasing `max_model_len` when initializing the engine.
""")
# Ready in excerpts that keep only the serving end: uvicorn bound its socket (vLLM has no warm-up
# request after it), or the engine logged requests it received and finished.
case('vg_uvicorn_running_only', 'ready', 'ready', None, """INFO 06-20 14:05:01 [launcher.py:36] Route: /v1/embeddings, Methods: POST
INFO 06-20 14:05:01 [launcher.py:36] Route: /metrics, Methods: GET
INFO:     Uvicorn running on http://0.0.0.0:8000 (Press CTRL+C to quit)
""")
case('vg_v08_request_log_only', 'ready', 'ready', None, """INFO 09-01 10:00:00 [logger.py:39] Received request chatcmpl-1: prompt: '<|im_start|>user\\nhi<|im_end|>', params: SamplingParams(n=1, max_tokens=16), prompt_token_ids: None, lora_request: None, prompt_adapter_request: None.
INFO 09-01 10:00:00 [async_llm.py:252] Added request chatcmpl-1.
INFO 09-01 10:00:02 [async_llm.py:270] Finished request chatcmpl-1.
""")

# A start stuck in CUDA-graph capture after a long (but finished) weight load: the load's length
# is not the cause of a later stall; slow weight reads are offered for a stall in loading or a
# slow but ready start.
case('vg_v091_graph_hang_after_long_load', 'stalled', 'cuda_graph', 'cuda_graph_hang', vl([
    ('INFO', 'api_server.py:1287', 'vLLM API server version 0.9.1'),
    ('INFO', 'core.py:70', "Initializing a V1 LLM engine (v0.9.1) with config: model='Qwen/Qwen3-235B-A22B-FP8', tensor_parallel_size=4"),
    ('INFO', 'gpu_model_runner.py:1595', 'Starting to load model Qwen/Qwen3-235B-A22B-FP8...'),
    ('INFO', 'default_loader.py:272', 'Loading weights took 130.82 seconds'),
    ('INFO', 'gpu_model_runner.py:1624', 'Model loading took 56.8 GiB and 131.5 seconds'),
    ('INFO', 'monitor.py:33', 'torch.compile takes 60.29 s in total'),
    ('INFO', 'kv_cache_utils.py:715', 'GPU KV cache size: 180,000 tokens'),
    ('INFO', 'kv_cache_utils.py:719', 'Maximum concurrency for 32,768 tokens per request: 5.49x')], '(VllmWorker rank=0 pid=2001) ') +
    '\n(VllmWorker rank=0 pid=2001) Capturing CUDA graphs:   0%|          | 0/67 [00:00<?, ?it/s]\n' +
    '\n'.join(f'INFO 08-20 10:{m:02d}:00 [shm_broadcast.py:430] No available shared memory broadcast block found in 60 second.' for m in range(2, 16)) + '\n')

# torch's DistNetworkError is a rendezvous failure when a client cannot reach the store, but a
# taken port when the store's own server cannot listen (two servers on one MASTER_PORT).
case('vg_v1_dist_store_port_taken', 'crashed', 'distributed_init', 'port_in_use', vl([('ERROR', 'multiproc_executor.py:597', l) for l in frames([
    ('vllm/v1/worker/gpu_worker.py', 'init_worker_distributed_environment', 'init_distributed_environment(parallel_config.world_size, rank,'),
    ('vllm/distributed/parallel_state.py', 'init_distributed_environment', 'torch.distributed.init_process_group(')],
    'torch.distributed.DistNetworkError: The server socket has failed to listen on any local network address. port: 29500, useIPv6: 0, code: -98, name: EADDRINUSE, message: address already in use')],
    '(Worker pid=402) ') + '\n')

# Cause wording of vLLM start failures (the engine core's traceback tail, head cut).
def core_tail(exc):
    return vl([('ERROR', 'core.py:632', l) for l in ['EngineCore failed to start.'] + frames([
        ('vllm/v1/engine/core.py', 'run_engine_core', 'engine_core = EngineCoreProc(*args, **kwargs)')], exc)], '(EngineCore_0 pid=88) ') + '\n'
# transformers' AutoConfig says itself that it is older than the checkpoint's model type.
case('vg_transformers_too_old', 'crashed', '*', 'package_mismatch', core_tail(
    'ValueError: The checkpoint you are trying to load has model type `qwen3` but Transformers does not recognize this architecture. This could be because of an issue with the checkpoint, or because your version of Transformers is out of date.'))
# Layouts that do not divide: layers by the pipeline size, a quantized weight's block by the TP shard.
case('vg_pp_layers_not_divisible', 'crashed', '*', 'parallel_layout', core_tail(
    'ValueError: Total number of hidden layers (61) must be divisible by pipeline parallel size (2).'))
case('vg_fp8_block_not_divisible', 'crashed', '*', 'parallel_layout', core_tail(
    "ValueError: The output_size of gate's and up's weight = 192 is not divisible by weight quantization block_n = 128."))
# A checkpoint tensor the engine's model has no parameter for (a checkpoint layout it does not support).
case('vg_load_weights_keyerror', 'crashed', '*', 'model_unsupported', core_tail(
    "KeyError: 'model.layers.0.mlp.experts.0.down_proj.weight_scale_inv'"))

# vLLM as a Triton Inference Server backend: Triton's own lines say the model loaded and the
# server is up (or that loading failed).
case('vg_triton_vllm_backend_ready', 'ready', 'ready', None, """I0701 12:00:00.123456 1 model_lifecycle.cc:472] loading: vllm_model:1
INFO 07-01 12:00:06 llm_engine.py:237] Initializing an LLM engine (v0.6.3.post1) with config: model='facebook/opt-125m'
INFO 07-01 12:00:10 model_runner.py:1067] Loading model weights took 0.2389 GB
INFO 07-01 12:00:11 gpu_executor.py:122] # GPU blocks: 69117, # CPU blocks: 7281
INFO 07-01 12:00:14 model_runner.py:1523] Graph capturing finished in 3 secs.
I0701 12:00:15.123456 1 model_lifecycle.cc:839] "successfully loaded 'vllm_model'"
I0701 12:00:15.223456 1 grpc_server.cc:2466] "Started GRPCInferenceService at 0.0.0.0:8001"
I0701 12:00:15.323456 1 http_server.cc:4638] "Started HTTPService at 0.0.0.0:8000"
""")

# The engine dying while serving (EngineCore's busy loop: "encountered a fatal error", then
# EngineDeadError in the front-end) comes after a finished start: ready means ready.
case('vg_v101_engine_dead_after_ready', 'ready', 'ready', '*', vl([
    ('INFO', 'core.py:214', 'init engine (profile, create kv cache, warmup model) took 91.38 seconds'),
    ('INFO', 'api_server.py:1880', 'Starting vLLM API server 0 on http://0.0.0.0:8000')], '(APIServer pid=1) ') + """
(APIServer pid=1) INFO:     Started server process [1]
(APIServer pid=1) INFO:     Application startup complete.
""" + vl(logged('EngineCore encountered a fatal error.', [
    ('vllm/v1/engine/core.py', 'run_engine_core', 'engine_core.run_busy_loop()')],
    'RuntimeError: CUDA error: an illegal memory access was encountered', f='core.py:720'), '(EngineCore_0 pid=312) ') + """
(APIServer pid=1) ERROR 08-20 10:01:00 [async_llm.py:416] AsyncLLM output_handler failed.
(APIServer pid=1) vllm.v1.engine.exceptions.EngineDeadError: EngineCore encountered an issue. See stack trace (above) for the root cause.
(APIServer pid=1) INFO:     172.17.0.1:50000 - "POST /v1/chat/completions HTTP/1.1" 500 Internal Server Error
""")

# vLLM 0.4's weight iterator lived in vllm/model_executor/weight_utils.py (later model_loader/).
case('vg_v04_weight_utils_frames_cut', 'crashed', 'weight_load', 'corrupt_safetensors', """  File "/usr/local/lib/python3.10/dist-packages/vllm/model_executor/weight_utils.py", line 256, in hf_model_weights_iterator
    with safe_open(st_file, framework="pt") as f:
safetensors_rust.SafetensorError: Error while deserializing header: MetadataIncompleteBuffer
""")

# uvicorn logs "Application startup complete." when the app's lifespan has started, before it
# binds its socket: a bind failure after it is a start that crashed in http_start, not a served
# one. A request's own error (preprocessing, validation) is a request the server answered.
case('vg_uvicorn_bind_after_startup', 'crashed', 'http_start', 'port_in_use', """(APIServer pid=1) INFO:     Started server process [1]
(APIServer pid=1) INFO:     Waiting for application startup.
(APIServer pid=1) INFO:     Application startup complete.
(APIServer pid=1) ERROR:    [Errno 98] error while attempting to bind on address ('0.0.0.0', 8000): address already in use
(APIServer pid=1) INFO:     Waiting for application shutdown.
(APIServer pid=1) INFO:     Application shutdown complete.
""")
case('vg_request_error_after_startup', 'ready', 'ready', None, """(APIServer pid=1) INFO:     Started server process [1]
(APIServer pid=1) INFO:     Waiting for application startup.
(APIServer pid=1) INFO:     Application startup complete.
(APIServer pid=1) ERROR 09-01 10:00:05 [serving_chat.py:222] Error in preprocessing prompt inputs
(APIServer pid=1) Traceback (most recent call last):
(APIServer pid=1)   File "/usr/local/lib/python3.12/dist-packages/vllm/entrypoints/openai/serving_chat.py", line 205, in create_chat_completion
(APIServer pid=1)     ) = await self._preprocess_chat(
(APIServer pid=1) jinja2.exceptions.TemplateError: Conversation roles must alternate user/assistant/user/assistant/...
""")

# uvicorn logs "Shutting down" and "Finished server process [N]" only after its main loop ran (a
# failed bind exits before it): a start shut down after that was ready, whatever the exit's
# finalizers print.
case('vg_uvicorn_shutdown_after_ready', 'ready', 'ready', None, """INFO 09-01 10:00:00 [api_server.py:1336] Starting vLLM API server on http://0.0.0.0:8000
INFO:     Started server process [1]
INFO:     Waiting for application startup.
INFO:     Application startup complete.
INFO:     Shutting down
INFO:     Waiting for application shutdown.
INFO:     Application shutdown complete.
INFO:     Finished server process [1]
Exception ignored in: <function MQLLMEngineClient.__del__ at 0x7f3a2c1b5e40>
Traceback (most recent call last):
  File "/usr/local/lib/python3.12/dist-packages/vllm/engine/multiprocessing/client.py", line 240, in __del__
RuntimeError: Event loop is closed
""")
# uvicorn's "Exception in ASGI application" is a request the app failed to answer: it was serving.
case('vg_asgi_exception_after_startup', 'ready', 'ready', '*', """INFO 09-01 10:00:00 [api_server.py:1336] Starting vLLM API server on http://0.0.0.0:8000
INFO:     Started server process [1]
INFO:     Waiting for application startup.
INFO:     Application startup complete.
ERROR:    Exception in ASGI application
Traceback (most recent call last):
  File "/usr/local/lib/python3.12/dist-packages/uvicorn/protocols/http/httptools_impl.py", line 409, in run_asgi
    result = await app(  # type: ignore[func-returns-value]
ValueError: some request failure
""")

# vLLM's own inductor passes (pass manager, fusions, functionalization fix-up) run while the graph
# compiles: a frame in them is compile, whatever forward pass triggered the compilation.
case('vg_v010_fusion_pass_frames_cut', 'crashed', 'compile', '*', vl([('ERROR', 'core.py:700', l) for l in frames([
    ('vllm/v1/worker/gpu_model_runner.py', 'profile_run', 'hidden_states, last_hidden_states = self._dummy_run('),
    ('vllm/compilation/pass_manager.py', '__call__', 'pass_(graph)'),
    ('vllm/compilation/fusion.py', '__call__', 'count = self.patterns.apply(graph)')],
    'AssertionError: Expected one match for pattern rms_norm_static_fp8_quant, found 0')], '(EngineCore_0 pid=312) ') + '\n')
