# vLLM excerpts cut as users paste them (vtail round, issue 10): the tail of a log, a traceback
# with little or no phase line before it, multi-process prefixes, the serving end. Where the text
# left still says something (a line only one phase prints, an exception raised in one place, a
# worker's busy-loop failure), the verdict uses it. exec'd by make_scenarios.py (uses vl/v0/frames/logged).
VT_EC = '(EngineCore_DP0 pid=230) '
VT_W0 = '(VllmWorker rank=0 pid=410) '

# The API server lists its routes (launcher.py) after the engine is up, right before uvicorn
# serves: the engine's start is over (vready: as V1's "init engine ... took", ready unless an
# error follows).
case('vt_routes_tail', 'ready', 'ready', None, vl([
    ('INFO', 'launcher.py:44', 'Route: /v1/chat/completions, Methods: POST'),
    ('INFO', 'launcher.py:44', 'Route: /v1/completions, Methods: POST'),
    ('INFO', 'launcher.py:44', 'Route: /v1/embeddings, Methods: POST'),
    ('INFO', 'launcher.py:44', 'Route: /pooling, Methods: POST')], '(APIServer pid=1) '))

# torch.compile's first graph is stored in vLLM's compile cache (backends.py), 0.8-0.9 "of shape
# None", 0.10+ "for dynamic shape": printed only while compiling.
case('vt_compile_cache_graph_tail', 'in_progress', 'compile', '*', vl([
    ('INFO', 'backends.py:181', 'Cache the graph for dynamic shape for later use')], VT_EC))
# V1 compile_or_warm_up_model compiles the extra compile_sizes before the capture.
case('vt_compile_warmup_size_tail', 'in_progress', 'compile', '*', vl([
    ('INFO', 'gpu_worker.py:331', 'Compile and warming up model for size 1024')], VT_EC))
# A speculative decoder's drafter is loaded inside the model runner's load_model.
case('vt_drafter_load_tail', 'in_progress', 'weight_load', '*', vl([
    ('INFO', 'gpu_model_runner.py:2104', 'Loading drafter model...')], VT_EC))
# A multimodal model's encoder budget is logged by profile_run, the memory profile before the KV cache.
case('vt_encoder_cache_tail', 'in_progress', 'kv_cache', '*', vl([
    ('INFO', 'gpu_model_runner.py:2911', 'Encoder cache will be initialized with a budget of 8192 tokens, and profiled with 4 video items of the maximum feature size.')], VT_EC))

# Exceptions raised in one place only: the memory profile's sanity check (V0 worker, V1
# gpu_worker/memory_profiling), the default loader finding no weights, or weights left unloaded.
case('vt_mem_profile_error_tail', 'crashed', 'kv_cache', '*', vl([
    ('ERROR', 'core.py:718', 'EngineCore failed to start.'),
    ('ERROR', 'core.py:718', 'AssertionError: Error in memory profiling. Initial free memory 70.2 GiB, current free memory 71.9 GiB. This happens when other processes sharing the same container release GPU memory while vLLM is profiling during initialization.')], VT_EC))
case('vt_no_weights_tail', 'crashed', 'weight_load', '*', vl([
    ('ERROR', 'multiproc_executor.py:671', 'WorkerProc failed to start.'),
    ('ERROR', 'multiproc_executor.py:671', 'RuntimeError: Cannot find any model weights with `/mnt/models/llama-3-8b`')], '(Worker_TP1 pid=512) '))
case('vt_weights_not_initialized_tail', 'crashed', 'weight_load', '*', vl([
    ('ERROR', 'core.py:718', "ValueError: Following weights were not initialized from checkpoint: {'lm_head.weight', 'model.norm.weight'}")], VT_EC))

# V0's worker RPC wrapper logs a failed method before re-raising (Ray and multiproc workers):
# a decisive error even where the traceback below was not pasted. initialize_cache also captures
# the graphs (V0 Worker._warm_up_model), so a failure after the capture began stays there.
case('vt_v0_rpc_method_error_in_capture', 'crashed', 'cuda_graph', '*', v0([
    ('INFO', 'model_runner.py:1404', 'Capturing cudagraphs for decoding. This may lead to unexpected consequences if the model is not static.'),
    ('ERROR', 'worker_base.py:467', "Error executing method 'initialize_cache'. This might cause deadlock in distributed execution.")], '(RayWorkerWrapper pid=811, ip=10.1.0.7) '))

# V1 workers build and load the model in WorkerProc.__init__ ("WorkerProc failed to start"); a
# failure in their busy loop ("WorkerProc hit an exception") comes from an RPC after loading: the
# profile run at the earliest.
case('vt_workerproc_busy_loop_tail', 'crashed', 'kv_cache', 'gpu_oom', vl([
    ('ERROR', 'multiproc_executor.py:654', 'WorkerProc hit an exception.'),
    ('ERROR', 'multiproc_executor.py:654', 'Traceback (most recent call last):'),
    ('ERROR', 'multiproc_executor.py:654', 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 4.00 GiB. GPU 0 has a total capacity of 44.40 GiB of which 2.10 GiB is free.')], VT_W0))

# torch's TCPStore rendezvous: a client that cannot reach the store, a store left waiting.
case('vt_c10d_client_timeout_tail', 'crashed', 'distributed_init', 'rendezvous', vl([
    ('ERROR', 'multiproc_executor.py:597', 'WorkerProc failed to start.'),
    ('ERROR', 'multiproc_executor.py:597', 'torch.distributed.DistNetworkError: The client socket has timed out after 600000ms while trying to connect to (10.0.0.3, 29501).')], '(VllmWorker rank=3 pid=88) '))
# A capture invalidated by an earlier error inside it (cudaErrorStreamCaptureInvalidated).
case('vt_capture_invalidated_tail', 'crashed', 'cuda_graph', '*', vl([
    ('ERROR', 'core.py:718', 'RuntimeError: CUDA error: operation failed due to a previous error during capture'),
    ('ERROR', 'core.py:718', 'Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.')], VT_EC))

# A traceback raised inside a request handler (uvicorn's HTTP run_asgi, FastAPI's endpoint
# wrappers, vLLM's OpenAI route handlers and serving_* request paths) is a client's request the
# server took: the server is up, whatever the request's error was. (Starlette's Router.app also
# runs the lifespan, so it is no request.)
case('vt_request_handler_traceback_tail', 'ready', 'ready', None, vl([
    ('ERROR', 'serving_completion.py:412', 'Traceback (most recent call last):'),
    ('ERROR', 'serving_completion.py:412', f'  File "{PY}vllm/entrypoints/openai/serving_completion.py", line 300, in completion_stream_generator'),
    ('ERROR', 'serving_completion.py:412', '    async for prompt_idx, res in result_generator:'),
    ('ERROR', 'serving_completion.py:412', 'asyncio.exceptions.CancelledError')], '(APIServer pid=1) '))
case('vt_asgi_traceback_tail', 'ready', 'ready', None, '\n'.join(frames([
    ('uvicorn/protocols/http/httptools_impl.py', 'run_asgi', 'result = await app(  # type: ignore[func-returns-value]'),
    ('fastapi/routing.py', 'app', 'raw_response = await run_endpoint_function('),
    ('vllm/entrypoints/openai/api_server.py', 'create_embedding', 'generator = await handler.create_embedding(request, raw_request)')],
    "AttributeError: 'NoneType' object has no attribute 'create_embedding'")))

# The code line of a frame calls the phase's own entry point (a cut that kept the call but lost the
# frame line above it): V0 Worker._warm_up_model capturing graphs, the profile run, the KV cache
# allocation, the model load, the parallel groups.
case('vt_call_capture_code_line', 'crashed', 'cuda_graph', 'gpu_oom', v0([
    ('ERROR', 'worker_base.py:467', '    self.model_runner.capture_model(self.gpu_cache)'),
    ('ERROR', 'worker_base.py:467', f'  File "{PY}torch/utils/_contextlib.py", line 116, in decorate_context'),
    ('ERROR', 'worker_base.py:467', '    return func(*args, **kwargs)'),
    ('ERROR', 'worker_base.py:467', 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 40.00 MiB.')], '(RayWorkerWrapper pid=902) '))
case('vt_call_profile_code_line_raw', 'crashed', 'kv_cache', 'gpu_oom', '''    self.model_runner.profile_run()
  File "/usr/local/lib/python3.12/dist-packages/torch/utils/_contextlib.py", line 116, in decorate_context
    return func(*args, **kwargs)
torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 6.00 GiB.''')
case('vt_call_kv_alloc_code_line', 'crashed', 'kv_cache', '*', vl([
    ('ERROR', 'core.py:718', '    self.model_executor.initialize_from_config(kv_cache_configs)'),
    ('ERROR', 'core.py:718', 'RuntimeError: CUDA error: out of memory')], VT_EC))
case('vt_call_load_code_line', 'crashed', 'weight_load', 'gpu_oom', vl([
    ('ERROR', 'multiproc_executor.py:671', '    self.worker.load_model()'),
    ('ERROR', 'multiproc_executor.py:671', 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 224.00 MiB.')], '(Worker_TP0 pid=401) '))
case('vt_call_dist_code_line', 'crashed', 'distributed_init', '*', vl([
    ('ERROR', 'multiproc_executor.py:671', '    initialize_model_parallel(tensor_model_parallel_size,'),
    ('ERROR', 'multiproc_executor.py:671', 'RuntimeError: NCCL error: invalid usage (run with NCCL_DEBUG=WARN for details)')], '(Worker_TP1 pid=402) '))

# Failures raised only while a phase runs: reading a checkpoint file (pickle/zip/safetensors
# header), Gloo's full-mesh connect and torch's new_group (parallel groups), vLLM's sampler warm-up
# in the profile run.
case('vt_checkpoint_unpickling_tail', 'crashed', 'weight_load', '*', '\n'.join(frames([
    ('torch/serialization.py', '_legacy_load', 'magic_number = pickle_module.load(f, **pickle_load_args)')],
    "_pickle.UnpicklingError: invalid load key, 'v'.")))
case('vt_gloo_full_mesh_tail', 'crashed', 'distributed_init', '*', v0([
    ('ERROR', 'multiproc_worker_utils.py:233', 'RuntimeError: Gloo connectFullMesh failed with [../third_party/gloo/gloo/transport/tcp/pair.cc:144] no error')],
    '(VllmWorkerProcess pid=1701) '))
case('vt_new_group_frame_tail', 'crashed', 'distributed_init', '*', '\n'.join(frames([
    ('torch/distributed/distributed_c10d.py', 'new_group', 'return _new_group_with_tag('),
    ('torch/distributed/distributed_c10d.py', '_new_process_group_helper', 'backend_class = ProcessGroupGloo(')],
    'RuntimeError: Connection reset by peer')))
case('vt_sampler_warmup_oom_tail', 'crashed', 'kv_cache', 'gpu_oom', vl([
    ('ERROR', 'core.py:718', 'RuntimeError: CUDA out of memory occurred when warming up sampler with 512 dummy requests. Please try lowering `max_num_seqs` or `gpu_memory_utilization` when initializing the engine.')], VT_EC))

# vLLM 0.11's kernel warm-up (model_executor/warmup: DeepGEMM's JIT, FlashInfer autotuning) runs
# before the graph capture: its bars and frames are JIT compilation.
case('vt_deep_gemm_warmup_bar_tail', 'in_progress', 'compile', '*',
    VT_EC + 'DeepGemm(m_grouped_fp8_gemm_nt_contiguous) warmup (W=torch.Size([32, 4096, 7168])):  12%|█▏        | 250/2080 [00:09<01:10, 25.11it/s]')
case('vt_kernel_warmup_frame_tail', 'crashed', 'compile', '*', vl([
    ('ERROR', 'core.py:779', f'  File "{PY}vllm/model_executor/warmup/deep_gemm_warmup.py", line 180, in _deepgemm_fp8_gemm_nt_warmup'),
    ('ERROR', 'core.py:779', '    fp8_gemm_nt((a1q[:num_tokens], a1q_scales[:num_tokens]), (w, ws),'),
    ('ERROR', 'core.py:779', 'RuntimeError: Assertion error (csrc/apis/../jit_kernels/impls/sm90_fp8_gemm_1d2d.hpp:60): Unknown SF transformation')], VT_EC))

# The OpenAI server builds its serving objects after the engine is up and before uvicorn starts
# (V0 0.4-0.6 serving_chat/serving_embedding, V1 the default sampling params): the HTTP server starting.
case('vt_v04_serving_chat_init_tail', 'in_progress', 'http_start', '*', v0([
    ('INFO', 'model_runner.py:756', 'Graph capturing finished in 6 secs.'),
    ('WARNING', 'serving_chat.py:323', 'No chat template provided. Chat API will not work.'),
    ('INFO', 'api_server.py:232', 'vLLM to use /tmp/tmp3ki28i0p as PROMETHEUS_MULTIPROC_DIR'),
    ('WARNING', 'serving_embedding.py:141', 'embedding_mode is False. Embedding API will not work.')]))

# V0 0.4-0.5 built OpenAIServingChat (and loaded its chat template) after the engine, before uvicorn:
# its constructor's frames are the HTTP server starting, in a traceback pasted without its log.
case('vt_v04_serving_chat_frames_raw', 'crashed', 'http_start', '*', '\n'.join(frames([
    ('vllm/entrypoints/openai/serving_chat.py', '__init__', 'self._load_chat_template(chat_template)'),
    ('vllm/entrypoints/openai/serving_chat.py', '_load_chat_template', 'raise ValueError(msg) from e')],
    'ValueError: The supplied chat template (./tool_chat_template.jinja) looks like a file path, but it failed to be opened.')))

# A worker's busy-loop failure says the start got at least to the profile run; it does not place
# that rank where its peers, moving in step, are already capturing graphs.
case('vt_tp2_busy_loop_failure_during_capture', 'crashed', 'cuda_graph', '*', '\n'.join([
    '(EngineCore_0 pid=20) INFO 08-20 10:00:12 [kv_cache_utils.py:853] Maximum concurrency for 32,768 tokens per request: 7.10x',
    '(VllmWorker rank=0 pid=30) Capturing CUDA graph shapes:  31%|███       | 21/67 [00:04<00:09,  4.90it/s]',
    '(VllmWorker rank=1 pid=31) ERROR 08-20 10:00:18 [multiproc_executor.py:527] WorkerProc hit an exception.',
    '(VllmWorker rank=1 pid=31) ERROR 08-20 10:00:18 [multiproc_executor.py:527] Traceback (most recent call last):',
    '(VllmWorker rank=1 pid=31) ERROR 08-20 10:00:18 [multiproc_executor.py:527] RuntimeError: CUDA error: an illegal memory access was encountered']))
# pynccl's communicator is created at distributed init: the call's code line places a cut traceback.
case('vt_pynccl_init_code_line', 'crashed', 'distributed_init', '*', vl([
    ('ERROR', 'multiproc_executor.py:671', '    self.comm: ncclComm_t = self.nccl.ncclCommInitRank('),
    ('ERROR', 'multiproc_executor.py:671', f'  File "{PY}vllm/distributed/device_communicators/pynccl_wrapper.py", line 100, in NCCL_CHECK'),
    ('ERROR', 'multiproc_executor.py:671', '    raise RuntimeError(f"NCCL error: {error_str}")'),
    ('ERROR', 'multiproc_executor.py:671', 'RuntimeError: NCCL error: remote process exited or there was a network error')], '(Worker_TP1 pid=402) '))

# Uvicorn's access lines alone (a probe of "/" answered 404): some HTTP server is up, but no line
# says which (a proxy's, a gateway's) nor that a start happened: unknown (red-team round 31).
case('vt_access_log_any_answer', 'unknown', 'ready', None, '\n'.join([
    'INFO:     10.42.0.1:40110 - "GET / HTTP/1.1" 404 Not Found',
    'INFO:     10.42.0.1:40112 - "GET /v1 HTTP/1.1" 404 Not Found']))

# The shared-memory message queue's handle is logged as the executor and the parallel groups are
# set up (V0 after the P2P check, V1 before the ranks are assigned): distributed init.
case('vt_mq_handle_tail', 'in_progress', 'distributed_init', '*', vl([
    ('INFO', 'shm_broadcast.py:289', "vLLM message queue communication handle: Handle(local_reader_ranks=[1, 2, 3], buffer_handle=(3, 4194304, 6, 'psm_0f1e2d3c'), local_subscribe_addr='ipc:///tmp/3c5e', remote_subscribe_addr=None, remote_addr_ipv6=False)")], VT_EC))

# V1's front-end logs the engine's block count once the engine core is up (loggers.py, before the
# serving objects), and uvicorn's lifespan wait comes before the app starts: the HTTP server starting.
case('vt_cache_config_info_tail', 'in_progress', 'http_start', '*', vl([
    ('INFO', 'loggers.py:147', 'Engine 000: vllm cache_config_info with initialization after num_gpu_blocks is: 52510')], '(APIServer pid=1) '))
case('vt_uvicorn_lifespan_wait_tail', 'in_progress', 'http_start', '*', '(APIServer pid=1) INFO:     Waiting for application startup.')
# build_app mounts the metrics route (V0 0.6: "vLLM to use DIR as PROMETHEUS_MULTIPROC_DIR") after the graphs.
case('vt_v06_metrics_mount_tail', 'in_progress', 'http_start', '*', v0([
    ('INFO', 'model_runner.py:1456', 'Graph capturing finished in 12 secs.'),
    ('INFO', 'api_server.py:230', 'vLLM to use /tmp/tmpznq as PROMETHEUS_MULTIPROC_DIR')]))
# V0 0.6 follows its capture banner with advice on an OOM during the capture: printed only there.
case('vt_v06_capture_oom_advice_tail', 'crashed', 'cuda_graph', '*', v0([
    ('INFO', 'model_runner.py:1404', 'If out-of-memory error occurs during cudagraph capture, consider decreasing `gpu_memory_utilization` or switching to eager mode. You can also reduce the `max_num_seqs` as needed to decrease memory usage.'),
    ('ERROR', 'engine.py:366', 'RuntimeError: CUDA error: an illegal memory access was encountered')]))
# uvicorn's lifespan startup failing (Starlette's router runs the lifespan too): no request was served.
case('vt_lifespan_failure_not_a_request', 'crashed', 'http_start', '*', vl([
    ('INFO', 'api_server.py:1912', 'Starting vLLM API server 0 on http://0.0.0.0:8000')], '(APIServer pid=1) ') + '\n' + '\n'.join([
    '(APIServer pid=1) ERROR:    Traceback (most recent call last):',
    f'(APIServer pid=1)   File "{PY}starlette/routing.py", line 692, in app',
    '(APIServer pid=1)     await self.lifespan(scope, receive, send)',
    f'(APIServer pid=1)   File "{PY}starlette/routing.py", line 732, in lifespan',
    '(APIServer pid=1)     async with self.lifespan_context(app) as maybe_state:',
    '(APIServer pid=1) RuntimeError: no running event loop',
    '(APIServer pid=1) ERROR:    Application startup failed. Exiting.']))
