# Red-team round (twenty-first): classes found by writing fresh logs from the engines' sources.

# TGI's launcher on SIGTERM/SIGINT (docker stop, a pod deleted) only terminates its children:
# "Terminating shard" / "shard terminated" with no ^C echo. A stop, unless a crash came first.
TWAIT = [('INFO','shard-manager: ','Waiting for shard to be ready... rank=0'),
         ('INFO','shard-manager: ','Waiting for shard to be ready... rank=1')]
TTERM = [('INFO','','Shutting down shards'),
         ('INFO','shard-manager: ','Terminating shard rank=0'),
         ('INFO','shard-manager: ','Waiting for shard to gracefully shutdown rank=0'),
         ('INFO','shard-manager: ','Terminating shard rank=1'),
         ('INFO','shard-manager: ','shard terminated rank=0'),
         ('INFO','shard-manager: ','shard terminated rank=1')]
case('rt_tgi_docker_stop_during_load', 'stopped', 'weight_load', None, tg(THEAD + TWAIT + TTERM))
case('rt_tgi_stop_during_warmup', 'stopped', 'kv_cache', None, tg(THEAD + [
    ('INFO','shard-manager: ','Shard ready in 20.1s rank=0'), ('INFO','shard-manager: ','Shard ready in 20.3s rank=1'),
    ('INFO','','Starting Webserver'), ('INFO','text_generation_router_v3: ','backends/v3/src/lib.rs:125: Warming up model'),
    ('INFO','','Terminating webserver'), ('INFO','','Waiting for webserver to gracefully shutdown'),
    ('INFO','','webserver terminated')] + TTERM))
# Guard: the launcher terminates the other shards after one failed too; that stays a crash.
case('rt_tgi_shard_fails_then_terminate', 'crashed', 'weight_load', '*', tg(THEAD + TWAIT + [
    ('ERROR','shard-manager: ','Shard complete standard error output:\n\ntorch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 224.00 MiB'),
    ('ERROR','','Shard 0 failed to start')] + TTERM + [('ERROR','','Error: ShardCannotStart')]))

# vLLM V1 (TP=2) whose engine dies under its first request, seconds after `Application startup
# complete.`: uvicorn logs the request's 500 after the worker's abort. A request answered after
# the server's start line says it was serving: ready, died while serving.
RT_V1_UP = '''(EngineCore_0 pid=250) INFO 08-20 10:01:47 [core.py:214] init engine (profile, create kv cache, warmup model) took 52.43 seconds
(APIServer pid=1) INFO 08-20 10:01:48 [api_server.py:1880] Starting vLLM API server 0 on http://0.0.0.0:8000
(APIServer pid=1) INFO 08-20 10:01:48 [launcher.py:29] Available routes are:
(APIServer pid=1) INFO:     Started server process [1]
(APIServer pid=1) INFO:     Waiting for application startup.
(APIServer pid=1) INFO:     Application startup complete.
'''
RT_V1_ABORT = '''(VllmWorker TP0 pid=280) terminate called after throwing an instance of 'c10::Error'
(VllmWorker TP0 pid=280)   what():  CUDA error: an illegal memory access was encountered
'''
case('rt_v1_abort_under_first_request_500', 'ready', 'ready', '*', RT_V1_UP + RT_V1_ABORT +
     '''(APIServer pid=1) INFO:     10.0.0.7:55002 - "POST /v1/chat/completions HTTP/1.1" 500 Internal Server Error
''')
# Guard: the same abort with no request seen is still the start's crash (the bind follows the line).
case('rt_v1_abort_after_startup_no_request', 'crashed', 'http_start', '*', RT_V1_UP + RT_V1_ABORT)

# A container restarting a server that dies at import, before any engine line, under `docker logs
# -t`: the same traceback, minutes apart. Each is a start; two processes failing alike print
# theirs within a second (the guard).
RT_IMPORT_TB = ['Traceback (most recent call last):',
    '  File "/usr/lib/python3.10/runpy.py", line 187, in _run_module_as_main',
    '    mod_name, mod_spec, code = _get_module_details(mod_name, _Error)',
    '  File "/usr/local/lib/python3.10/dist-packages/vllm/__init__.py", line 3, in <module>',
    '    from vllm.engine.arg_utils import AsyncEngineArgs, EngineArgs',
    '  File "/usr/local/lib/python3.10/dist-packages/vllm/_custom_ops.py", line 13, in <module>',
    '    import vllm._C',
    'ImportError: libcuda.so.1: cannot open shared object file: No such file or directory']
def rt_docker_t(starts):
    out = []
    for m, s0 in starts:
        for i, l in enumerate(RT_IMPORT_TB):
            out.append(f'2024-07-25T10:{m:02d}:{s0 + i:02d}.123456789Z {l}')
    return '\n'.join(out)
case('rt_docker_t_import_error_restarts', 'crash_loop', 'launch', '*', rt_docker_t([(0, 10), (2, 10), (4, 10)]))
case('rt_docker_t_import_error_twice_at_once', 'crashed', 'launch', '*', rt_docker_t([(0, 10), (0, 19)]))

# TGI v3's router warms the model up first and only then loads the tokenizer and binds: a
# tokenizer failure after the warm-up is the HTTP server's start (v2 loaded it before warming up).
case('rt_tgi_v3_tokenizer_after_warmup', 'crashed', 'http_start', 'tokenizer_remote_code', tg(THEAD + [
    ('INFO','shard-manager: ','Shard ready in 20.1s rank=0'), ('INFO','shard-manager: ','Shard ready in 20.3s rank=1'),
    ('INFO','','Starting Webserver'),
    ('INFO','text_generation_router_v3: ','backends/v3/src/lib.rs:125: Warming up model'),
    ('INFO','text_generation_router_v3: ','backends/v3/src/lib.rs:137: Setting max batch total tokens to 1213841'),
    ('ERROR','text_generation_router::server: ',"router/src/server.rs:1698: Failed to import python tokenizer Python error: KeyError: 'tokenizer_class'"),
    ('ERROR','','Webserver Crashed'), ('INFO','','Shutting down shards')]) + '\nError: WebServer(Tokenizer("Unable to load tokenizer."))')

# Triton serving an LLM-API (PyTorch) tensorrt_llm model beside a Python preprocessing model: the
# preprocessing load fails first, then the LLM's banner inside the same tritonserver: one start
# (Triton, a host, goes on loading its other models; its own restart prints its own banner).
case('rt_triton_llmapi_banner_after_other_model_failed', 'crashed', 'kv_cache', '*', '''I0612 10:02:11.402512 1 pinned_memory_manager.cc:277] "Pinned memory pool is created at '0x7f5e1c000000' with size 268435456"
I0612 10:02:11.421099 1 model_lifecycle.cc:473] "loading: preprocessing:1"
I0612 10:02:11.421155 1 model_lifecycle.cc:473] "loading: tensorrt_llm:1"
I0612 10:02:11.993204 1 python_be.cc:2289] "TRITONBACKEND_ModelInstanceInitialize: preprocessing_0_0 (CPU device 0)"
I0612 10:02:15.113204 1 python_be.cc:2289] "TRITONBACKEND_ModelInstanceInitialize: tensorrt_llm_0_0 (CPU device 0)"
E0612 10:02:16.101902 1 model_lifecycle.cc:654] "failed to load 'preprocessing' version 1: Internal: OSError: Can't load tokenizer for '${tokenizer_dir}'. If you were trying to load it from 'https://huggingface.co/models', make sure you don't have a local directory with the same name. Otherwise, make sure '${tokenizer_dir}' is the correct path to a directory containing all relevant files for a LlamaTokenizerFast tokenizer.

At:
  /usr/local/lib/python3.12/dist-packages/transformers/tokenization_utils_base.py(2046): from_pretrained
  /usr/local/lib/python3.12/dist-packages/transformers/models/auto/tokenization_auto.py(1032): from_pretrained
  /triton_model_repo/preprocessing/1/model.py(72): initialize
"
I0612 10:02:16.102033 1 model_lifecycle.cc:789] "failed to load 'preprocessing'"
[TensorRT-LLM] TensorRT-LLM version: 1.0.0
[06/12/2025-10:02:19] [TRT-LLM] [I] Using LLM with PyTorch backend
[06/12/2025-10:02:20] [TRT-LLM] [I] start MpiSession with 1 workers
rank 0 using MpiPoolSession to spawn MPI processes
[06/12/2025-10:02:27] [TRT-LLM] [I] Use 15.01 GB for model weights.
Model init total -- 19.21s
[06/12/2025-10:02:52] [TRT-LLM] [E] Failed to initialize executor on rank 0: Executor creation failed due to insufficient GPU memory.
E0612 10:02:53.551902 1 model_lifecycle.cc:654] "failed to load 'tensorrt_llm' version 1: Internal: RuntimeError: Executor worker returned error

At:
  /usr/local/lib/python3.12/dist-packages/tensorrt_llm/executor/proxy.py(142): _start_executor_workers
  /usr/local/lib/python3.12/dist-packages/tensorrt_llm/llmapi/llm.py(1036): __init__
  /triton_model_repo/tensorrt_llm/1/model.py(98): initialize
"
I0612 10:02:53.552033 1 model_lifecycle.cc:789] "failed to load 'tensorrt_llm'"
error: creating server: Internal - failed to load all models
''')

# vLLM timing its own hub download inside a 25-minute weight load: the time went to the network,
# and the fix is to download before the start, not to speed up local reads.
case('rt_v1_hub_download_then_ready', 'ready', 'ready', 'hub_download_at_start', '''(APIServer pid=1) INFO 08-20 10:00:00 [api_server.py:1805] vLLM API server version 0.10.1.1
(EngineCore_0 pid=250) INFO 08-20 10:00:30 [gpu_model_runner.py:1953] Starting to load model meta-llama/Llama-3.1-70B-Instruct...
(EngineCore_0 pid=250) INFO 08-20 10:00:31 [weight_utils.py:296] Using model weights format ['*.safetensors']
(EngineCore_0 pid=250) INFO 08-20 10:25:21 [weight_utils.py:312] Time spent downloading weights for meta-llama/Llama-3.1-70B-Instruct: 1491.384751 seconds
(EngineCore_0 pid=250) INFO 08-20 10:26:03 [gpu_model_runner.py:2007] Model loading took 131.4 GiB and 1533.18 seconds
(EngineCore_0 pid=250) INFO 08-20 10:26:30 [core.py:214] init engine (profile, create kv cache, warmup model) took 27.43 seconds
(APIServer pid=1) INFO 08-20 10:26:31 [api_server.py:1880] Starting vLLM API server 0 on http://0.0.0.0:8000
(APIServer pid=1) INFO:     Application startup complete.
''')

# The same abort where the worker's last line was its capture: the engine core's "init engine ...
# took" said every worker was done, so the start died in http_start, not where TP0's lines stopped.
case('rt_v1_abort_after_startup_worker_last_in_capture', 'crashed', 'http_start', '*',
     '''(VllmWorker TP0 pid=280) INFO 08-20 10:01:40 [gpu_model_runner.py:2708] Graph capturing finished in 6 secs, took 0.61 GiB
''' + RT_V1_UP + RT_V1_ABORT + '''(EngineCore_0 pid=250) ERROR 08-20 10:02:08 [multiproc_executor.py:146] Worker proc VllmWorker-0 died unexpectedly, shutting down executor.
''')

# PyTorch prefixes each line a worker prints with its rank ("[rank0]: "): the tail of a traceback
# pasted alone still ends in the exception that ended the start.
case('rt_rank_prefixed_exception_after_load_begin', 'crashed', 'weight_load', '*', '''INFO 08-20 10:00:01 [gpu_model_runner.py:1953] Starting to load model m...
[rank0]:   File "/usr/local/lib/python3.12/dist-packages/vllm/model_executor/model_loader/default_loader.py", line 269, in load_weights
[rank0]:     loaded_weights = model.load_weights(
[rank0]: KeyError: 'model.layers.0.mlp.experts.w2_weight'
''')
case('rt_rank_prefixed_compiler_failure_tail', 'crashed', 'compile', 'cuda_build_mismatch', '''[rank0]: torch._dynamo.exc.BackendCompilerFailed: backend='<vllm.compilation.backends.VllmBackend object at 0x7f>' raised:
[rank0]: RuntimeError: Triton Error [CUDA]: device kernel image is invalid
''')

# TensorRT-LLM's autotuner frames (the PyTorch backend tunes kernels before serving), a TensorRT
# engine build that fails in the builder's own words: the phase each names.
case('rt_trt_autotuner_frames_only', 'crashed', 'compile', '*', '''[05/01/2025-10:00:20] [TRT-LLM] [E] Failed to initialize executor on rank 0: CUDA error: an illegal memory access was encountered
[05/01/2025-10:00:20] [TRT-LLM] [E] Traceback (most recent call last):
  File "/usr/local/lib/python3.12/dist-packages/tensorrt_llm/_torch/autotuner.py", line 560, in choose_one
    profiles = self._optimization_profiles(tuning_config, inputs)
  File "/usr/local/lib/python3.12/dist-packages/tensorrt_llm/_torch/autotuner.py", line 700, in _profile_runners
    time_measured = self._profile_single_kernel(
  File "/usr/local/lib/python3.12/dist-packages/tensorrt_llm/_torch/custom_ops/torch_custom_ops.py", line 120, in forward
    return self.fused_moe_runner.run_moe(
RuntimeError: CUDA error: an illegal memory access was encountered
''')
case('rt_trt_build_out_of_memory', 'crashed', 'compile', '*', '''[05/01/2025-10:00:05] [TRT] [W] Requested amount of GPU memory (34359738368 bytes) could not be allocated. There may not be enough free memory for allocation to succeed.
[05/01/2025-10:00:05] [TRT] [E] [virtualMemoryBuffer.cpp::resizePhysical::140] Error Code 2: OutOfMemory (Requested size was 34359738368 bytes.)
[05/01/2025-10:00:05] [TRT] [E] [globWriter.cpp::makeResizableGpuMemory::429] Error Code 2: OutOfMemory (Requested size was 34359738368 bytes.)
[05/01/2025-10:00:05] [TRT] [E] IBuilder::buildSerializedNetwork: Error Code 2: Internal Error (Assertion engine != nullptr failed. )
[05/01/2025-10:00:05] [TRT-LLM] [E] Engine building failed, please check error log.
''')

# TGI's --json-output keeps a whole traceback in one message: its lines are read as the text
# form prints them, so the frame that names the phase is found.
case('rt_tgi_json_warmup_graph_frames', 'crashed', 'cuda_graph', '*', r'''{"timestamp": "2024-07-01T10:00:31.000Z", "level": "INFO", "fields": {"message": "Setting max batch total tokens to 120000"}, "target": "text_generation_launcher"}
{"timestamp": "2024-07-01T10:00:41.000Z", "level": "ERROR", "fields": {"message": "Method Warmup encountered an error.\nTraceback (most recent call last):\n  File \"/usr/src/server/text_generation_server/server.py\", line 123, in Warmup\n    max_supported_total_tokens, max_input_tokens, max_total_tokens = self.model.warmup(\n  File \"/usr/src/server/text_generation_server/models/flash_causal_lm.py\", line 1658, in warmup\n    self.cuda_graph_warmup(bs, max_total_tokens, max_total_tokens)\n  File \"/usr/src/server/text_generation_server/models/flash_causal_lm.py\", line 1420, in cuda_graph_warmup\n    self.model.forward(\nRuntimeError: CUDA error: an illegal memory access was encountered"}, "target": "text_generation_launcher"}
{"timestamp": "2024-07-01T10:00:41.100Z", "level": "ERROR", "fields": {"message": "Server error: CUDA error: an illegal memory access was encountered"}, "target": "text_generation_router_v3::client", "filename": "backends/v3/src/client/mod.rs", "line_number": 45, "span": {"name": "warmup"}, "spans": [{"name": "warmup"}]}
Error: Backend(Warmup(Generation("CUDA error: an illegal memory access was encountered")))
''')
