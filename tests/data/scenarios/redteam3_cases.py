# Red-team round (twenty-third): fresh logs written from the engines' sources; each class found.

# A terminal's "^C" echo comes the moment the key is pressed: a worker's failure printed above it
# was not the stop's doing (V0 at TP=2: a worker dies in profiling, the driver waits in
# all_reduce until the user presses Ctrl+C). Crashed, with the worker's cause.
RT3_V0_WORKER_OOM = '''INFO 10-02 09:12:01 api_server.py:526] vLLM API server version 0.6.2
INFO 10-02 09:12:08 llm_engine.py:226] Initializing an LLM engine (v0.6.2) with config: model='meta-llama/Llama-3.1-70B-Instruct', dtype=torch.bfloat16, max_seq_len=131072, tensor_parallel_size=2
INFO 10-02 09:13:40 model_runner.py:1025] Loading model weights took 65.7380 GB
(VllmWorkerProcess pid=2211) ERROR 10-02 09:13:45 multiproc_worker_utils.py:233] Exception in worker VllmWorkerProcess while processing method determine_num_available_blocks.
(VllmWorkerProcess pid=2211) ERROR 10-02 09:13:45 multiproc_worker_utils.py:233] Traceback (most recent call last):
(VllmWorkerProcess pid=2211) ERROR 10-02 09:13:45 multiproc_worker_utils.py:233]   File "/usr/local/lib/python3.10/dist-packages/vllm/worker/worker.py", line 223, in determine_num_available_blocks
(VllmWorkerProcess pid=2211) ERROR 10-02 09:13:45 multiproc_worker_utils.py:233]     self.model_runner.profile_run()
(VllmWorkerProcess pid=2211) ERROR 10-02 09:13:45 multiproc_worker_utils.py:233] torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.96 GiB. GPU 1 has a total capacity of 79.15 GiB of which 1.02 GiB is free.
'''
case('rt3_v0_worker_oom_then_ctrl_c', 'crashed', 'kv_cache', 'gpu_oom', RT3_V0_WORKER_OOM + '''^CTraceback (most recent call last):
  File "/usr/local/lib/python3.10/dist-packages/torch/distributed/distributed_c10d.py", line 2501, in all_reduce
    work.wait()
KeyboardInterrupt
''')
# Guard: the same stop with nothing failed above the echo stays a stop.
case('rt3_v0_ctrl_c_in_profiling', 'stopped', 'kv_cache', None, '\n'.join(RT3_V0_WORKER_OOM.splitlines()[:3]) + '''
^CTraceback (most recent call last):
  File "/usr/local/lib/python3.10/dist-packages/torch/distributed/distributed_c10d.py", line 2501, in all_reduce
    work.wait()
KeyboardInterrupt
''')

# TGI's router prints `Setting max batch total tokens` once the shards' warm-up returned: what
# fails after it (the bind, the router's tokenizer, its chat template) fails starting the web
# server, whether or not a CUDA-graph line came in the warm-up.
RT3_TGI_WARMED = '''2024-11-20T09:12:22.936004Z  INFO shard-manager: text_generation_launcher: Shard ready in 15.915622301s rank=0
2024-11-20T09:12:23.032118Z  INFO text_generation_launcher: Starting Webserver
2024-11-20T09:12:23.101882Z  INFO text_generation_router_v3: backends/v3/src/lib.rs:125: Warming up model
'''
RT3_TGI_BIND = '''2024-11-20T09:12:26.601223Z  INFO text_generation_router_v3: backends/v3/src/lib.rs:137: Setting max batch total tokens to 184512
2024-11-20T09:12:26.601400Z  INFO text_generation_router_v3: backends/v3/src/lib.rs:166: Using backend V3
2024-11-20T09:12:26.601500Z  INFO text_generation_router: router/src/server.rs:1586: Using the Hugging Face API
2024-11-20T09:12:27.020021Z ERROR text_generation_router::server: router/src/server.rs:2325: Failed to bind to 0.0.0.0:80: Address already in use (os error 98)
Error: WebServer(Axum(Os { code: 98, kind: AddrInUse, message: "Address already in use" }))
2024-11-20T09:12:27.101923Z ERROR text_generation_launcher: Webserver Crashed
2024-11-20T09:12:27.101990Z  INFO text_generation_launcher: Shutting down shards
Error: WebserverFailed
'''
case('rt3_tgi_bind_after_warmup', 'crashed', 'http_start', 'port_in_use', RT3_TGI_WARMED + RT3_TGI_BIND)
case('rt3_tgi_bind_after_graph_warmup', 'crashed', 'http_start', 'port_in_use', RT3_TGI_WARMED +
     '2024-11-20T09:12:24.011223Z  INFO text_generation_launcher: Cuda Graphs are enabled for sizes [32, 16, 8, 4, 2, 1]\n' + RT3_TGI_BIND)
case('rt3_tgi_router_panic_after_warmup', 'crashed', 'http_start', '*', RT3_TGI_WARMED + '\n'.join(RT3_TGI_BIND.splitlines()[:3]) + '''
thread 'main' panicked at router/src/server.rs:1770:60:
called `Result::unwrap()` on an `Err` value: Error("data did not match any variant of untagged enum ModelWrapper", line: 1, column: 1)
note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace
2024-11-20T09:12:27.101923Z ERROR text_generation_launcher: Webserver Crashed
2024-11-20T09:12:27.101990Z  INFO text_generation_launcher: Shutting down shards
Error: WebserverFailed
''')

# A container restarting on an error before the engine printed a line of its own (`docker logs`
# without -t): each traceback opens at the program's entry (runpy, the `vllm` console script), so
# each is a main process that died. Chained tracebacks ("During handling ...") are one death.
RT3_ENTRY_IMPORT = '''Traceback (most recent call last):
  File "<frozen runpy>", line 198, in _run_module_as_main
  File "<frozen runpy>", line 88, in _run_code
  File "/usr/local/lib/python3.12/dist-packages/vllm/entrypoints/openai/api_server.py", line 21, in <module>
    import vllm.envs as envs
  File "/usr/local/lib/python3.12/dist-packages/vllm/_custom_ops.py", line 8, in <module>
    import vllm._C  # noqa
ImportError: libcuda.so.1: cannot open shared object file: No such file or directory
'''
case('rt3_entry_traceback_restarts', 'crash_loop', 'launch', 'no_gpu_visible', RT3_ENTRY_IMPORT * 3)
case('rt3_entry_console_script_restarts', 'crash_loop', 'launch', '*', '''Traceback (most recent call last):
  File "/usr/local/bin/vllm", line 5, in <module>
    from vllm.entrypoints.cli.main import main
  File "/usr/local/lib/python3.12/dist-packages/torch/cuda/__init__.py", line 319, in _lazy_init
    torch._C._cuda_init()
RuntimeError: The NVIDIA driver on your system is too old (found version 12020).
''' * 2)
case('rt3_entry_traceback_chained_once', 'crashed', 'launch', '*', RT3_ENTRY_IMPORT +
     '\nDuring handling of the above exception, another exception occurred:\n\n' +
     RT3_ENTRY_IMPORT.replace('ImportError: libcuda.so.1', 'RuntimeError: vllm._C failed to load: libcuda.so.1'))

# Two runs pasted one after the other, the second (working) one only as its tail after "...":
# the engine's ready line half an hour after the first run died is a later start's.
case('rt3_v1_oom_then_elided_ready_run', 'ready', 'ready', '*', '''INFO 05-12 10:01:05 [api_server.py:1043] vLLM API server version 0.8.5
INFO 05-12 10:01:21 [gpu_model_runner.py:1329] Starting to load model meta-llama/Llama-3.1-70B-Instruct...
ERROR 05-12 10:01:45 [core.py:396] EngineCore failed to start.
ERROR 05-12 10:01:45 [core.py:396] Traceback (most recent call last):
ERROR 05-12 10:01:45 [core.py:396]   File "/usr/local/lib/python3.12/dist-packages/vllm/model_executor/models/llama.py", line 412, in load_weights
ERROR 05-12 10:01:45 [core.py:396]     param = param.to(device)
ERROR 05-12 10:01:45 [core.py:396] torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 448.00 MiB. GPU 0 has a total capacity of 79.19 GiB of which 312.56 MiB is free.
RuntimeError: Engine core initialization failed. See root cause above.

With --tensor-parallel-size 2 it works:
...
INFO 05-12 10:31:05 [core.py:159] init engine (profile, create kv cache, warmup model) took 78.20 seconds
INFO 05-12 10:31:05 [api_server.py:1090] Starting vLLM API server on http://0.0.0.0:8000
INFO:     Started server process [12345]
INFO:     Application startup complete.
''')

# An application that builds vLLM's engine in its FastAPI lifespan hook: uvicorn's "Started server
# process" and "Waiting for application startup." come first. One start, in the engine's phase, no
# restart loop.
RT3_APP_HOOK = '''INFO:     Started server process [1]
INFO:     Waiting for application startup.
INFO 04-10 12:00:14 [core.py:58] Initializing a V1 LLM engine (v0.8.4) with config: model='google/gemma-3-27b-it', dtype=torch.bfloat16, max_seq_len=8192, tensor_parallel_size=1
INFO 04-10 12:00:15 [gpu_model_runner.py:1276] Starting to load model google/gemma-3-27b-it...
'''
case('rt3_app_hook_engine_compiling', 'in_progress', 'compile', None, RT3_APP_HOOK + '''INFO 04-10 12:00:40 [gpu_model_runner.py:1291] Model loading took 51.3 GiB and 24.9 seconds
INFO 04-10 12:00:46 [backends.py:416] Using cache directory: /root/.cache/vllm/torch_compile_cache/77aa/rank_0_0 for vLLM's torch.compile
INFO 04-10 12:00:46 [backends.py:426] Dynamo bytecode transform time: 5.95 s
''')
case('rt3_app_hook_v0_nccl', 'in_progress', 'distributed_init', '*', '''INFO:     Started server process [1]
INFO:     Waiting for application startup.
INFO 06-12 09:14:05 llm_engine.py:161] Initializing an LLM engine (v0.5.0.post1) with config: model='mistralai/Mixtral-8x7B-Instruct-v0.1', dtype=torch.bfloat16, max_seq_len=32768, tensor_parallel_size=2
INFO 06-12 09:14:12 utils.py:637] Found nccl from library libnccl.so.2
INFO 06-12 09:14:12 pynccl.py:63] vLLM is using nccl==2.20.5
''')

# Triton with a Python preprocessing model that fails on its tokenizer path while tensorrt_llm goes
# on loading and succeeds: the start failed where the preprocessing model did (a pinned error,
# also when another engine's rule reads the line as fatal); the host's own summary ("failed to load
# all models") does not move it.
case('rt3_triton_preprocessing_failed_llm_loaded', 'crashed', 'weight_load', '*', 'I0120 10:00:01.002512 1 pinned_memory_manager.cc:277] "Pinned memory pool is created at \'0x7f5e1c000000\' with size 268435456"\nI0120 10:00:01.210001 1 model_lifecycle.cc:472] "loading: preprocessing:1"\nI0120 10:00:01.210101 1 model_lifecycle.cc:472] "loading: tensorrt_llm:1"\nI0120 10:00:01.210201 1 model_lifecycle.cc:472] "loading: postprocessing:1"\nI0120 10:00:03.310001 1 python_be.cc:2249] "TRITONBACKEND_ModelInstanceInitialize: preprocessing_0_0 (CPU device 0)"\nE0120 10:00:04.110001 1 model_lifecycle.cc:642] "failed to load \'preprocessing\' version 1: Internal: OSError: Can\'t load tokenizer for \'/models/llama3/tokenizer\'. If you were trying to load it from \'https://huggingface.co/models\', make sure you don\'t have a local directory with the same name. Otherwise, make sure \'/models/llama3/tokenizer\' is the correct path to a directory containing all relevant files for a LlamaTokenizerFast tokenizer.\\n\\nAt:\\n  /opt/tritonserver/python_backend/models/preprocessing/1/model.py(66): initialize\\n"\nI0120 10:00:04.110101 1 model_lifecycle.cc:777] "failed to load \'preprocessing\'"\n[TensorRT-LLM][INFO] Loaded engine size: 15354 MiB\n[TensorRT-LLM][INFO] [MemUsageChange] Allocated 56.25 GiB for max tokens in paged KV cache (226560).\nI0120 10:00:20.880001 1 model_lifecycle.cc:839] "successfully loaded \'tensorrt_llm\'"\nE0120 10:00:20.890101 1 model_repository_manager.cc:703] "Invalid argument: ensemble \'ensemble\' depends on \'preprocessing\' which has no loaded version. Model \'preprocessing\' loading failed with error: version 1 is at UNAVAILABLE state"\nI0120 10:00:20.890201 1 server.cc:336] "All models are stopped, unloading models"\nerror: creating server: Internal - failed to load all models\n')

# The Hub's network failure raised through `requests` (ReadTimeout, ConnectionError, SSLError): a
# client library's exception, but the server's own when it names huggingface.co (the Hub is where
# a server downloads, never where a client sends requests). Crashed, hf_download.
case('rt3_v1_hub_read_timeout_no_frames', 'crashed', 'launch', 'hf_download', 'INFO 06-03 11:02:13 [api_server.py:1395] vLLM API server version 0.9.1\nINFO 06-03 11:02:13 [cli_args.py:325] non-default args: {\'model\': \'Qwen/Qwen2.5-7B-Instruct\'}\nTraceback (most recent call last):\n  File "/usr/local/lib/python3.12/dist-packages/urllib3/connectionpool.py", line 536, in _make_request\n    response = conn.getresponse()\nTimeoutError: The read operation timed out\nrequests.exceptions.ReadTimeout: (ReadTimeoutError("HTTPSConnectionPool(host=\'huggingface.co\', port=443): Read timed out. (read timeout=10)"), \'(Request ID: 6a2f1e1b-87c2)\')\n')
case('rt3_v1_hub_connection_error_engine_frames', 'crashed', 'launch', 'hf_download', 'INFO 06-03 11:02:10 [__init__.py:244] Automatically detected platform cuda.\nINFO 06-03 11:02:13 [api_server.py:1395] vLLM API server version 0.9.1\nINFO 06-03 11:02:13 [cli_args.py:325] non-default args: {\'model\': \'Qwen/Qwen2.5-7B-Instruct\'}\nTraceback (most recent call last):\n  File "/usr/local/bin/vllm", line 10, in <module>\n    sys.exit(main())\n  File "/usr/local/lib/python3.12/dist-packages/vllm/transformers_utils/config.py", line 300, in get_config\n    if is_gguf or file_or_path_exists(model, HF_CONFIG_NAME, revision=revision):\n  File "/usr/local/lib/python3.12/dist-packages/vllm/transformers_utils/config.py", line 201, in file_or_path_exists\n    return file_exists(str(model),\n  File "/usr/local/lib/python3.12/dist-packages/huggingface_hub/hf_api.py", line 2886, in file_exists\n    get_hf_file_metadata(url, token=token)\n  File "/usr/local/lib/python3.12/dist-packages/requests/adapters.py", line 713, in send\n    raise ReadTimeout(e, request=request)\nrequests.exceptions.ConnectionError: (MaxRetryError("HTTPSConnectionPool(host=\'huggingface.co\', port=443): Max retries exceeded with url: /Qwen/Qwen2.5-7B-Instruct/resolve/main/config.json (Caused by NewConnectionError(\'<urllib3.connection.HTTPSConnection object at 0x7f>: Failed to establish a new connection: [Errno 111] Connection refused\'))"), \'(Request ID: 6a2f1e1b-87c2)\')\n')
# SGLang 0.2: the warm-up request failed because a kernel has no image for the GPU. The warm-up's
# failure only says that something failed ("consequence"): the root error is named first.
case('rt3_sglang02_warmup_failed_no_kernel_image', 'crashed', 'warmup', 'cuda_build_mismatch', 'server_args=ServerArgs(model_path=\'meta-llama/Meta-Llama-3-8B-Instruct\', tokenizer_path=\'meta-llama/Meta-Llama-3-8B-Instruct\', host=\'127.0.0.1\', port=30000, mem_fraction_static=0.88, tp_size=1)\n[gpu=0] Init nccl begin.\n[gpu=0] Load weight begin. avail mem=78.66 GB\nINFO 08-01 10:00:07 weight_utils.py:225] Using model weights format [\'*.safetensors\']\nLoading safetensors checkpoint shards: 100% Completed | 4/4 [00:03<00:00,  1.12it/s]\n[gpu=0] Load weight end. type=LlamaForCausalLM, dtype=torch.bfloat16, avail mem=63.57 GB\n[gpu=0] Memory pool end. avail mem=8.78 GB\n[gpu=0] Capture cuda graph begin. This can take up to several minutes.\n[gpu=0] max_total_num_tokens=443960, max_prefill_tokens=16384, max_running_requests=2047, context_len=8192\nINFO:     Started server process [58120]\nINFO:     Waiting for application startup.\nINFO:     Application startup complete.\nINFO:     Uvicorn running on http://127.0.0.1:30000 (Press CTRL+C to quit)\nINFO:     127.0.0.1:40662 - "GET /get_model_info HTTP/1.1" 200 OK\nException in ModelTpServer:\nTraceback (most recent call last):\n  File "/usr/local/lib/python3.10/dist-packages/sglang/srt/managers/controller/tp_worker.py", line 209, in exposed_step\n    self.forward_step()\n  File "/usr/local/lib/python3.10/dist-packages/sglang/srt/managers/controller/tp_worker.py", line 225, in forward_step\n    self.forward_prefill_batch(new_batch)\n  File "/usr/local/lib/python3.10/dist-packages/sglang/srt/layers/radix_attention.py", line 105, in extend_forward_flashinfer\n    o = input_metadata.flashinfer_prefill_wrapper_paged.forward(\nRuntimeError: BatchPrefillWithPagedKVCache failed with error code no kernel image is available for execution on the device\n\nInitialization failed. warmup error: Traceback (most recent call last):\n  File "/usr/local/lib/python3.10/dist-packages/sglang/srt/server.py", line 366, in _wait_and_warmup\n    assert res.status_code == 200, f"{res}"\nAssertionError: <Response [500]>\n\n')

# vLLM's API server fails on a tool parser that is not registered after its engine came up: a bad
# flag, in http_start (the headline names the API server, the first rank that failed).
case('rt3_v1_tool_parser_not_registered', 'crashed', 'http_start', 'bad_command', '(APIServer pid=1) INFO 08-20 10:00:00 [api_server.py:1805] vLLM API server version 0.10.1.1\n(EngineCore_0 pid=250) INFO 08-20 10:00:14 [core.py:73] Initializing a V1 LLM engine (v0.10.1.1) with config: model=\'Qwen/Qwen2.5-7B-Instruct\'\n(EngineCore_0 pid=250) INFO 08-20 10:00:15 [gpu_model_runner.py:1953] Starting to load model Qwen/Qwen2.5-7B-Instruct...\n(EngineCore_0 pid=250) INFO 08-20 10:00:21 [gpu_model_runner.py:2007] Model loading took 14.2488 GiB and 4.95 seconds\n(EngineCore_0 pid=250) INFO 08-20 10:00:34 [kv_cache_utils.py:849] GPU KV cache size: 1,054,560 tokens\n(EngineCore_0 pid=250) INFO 08-20 10:00:39 [gpu_model_runner.py:2708] Graph capturing finished in 5 secs, took 0.53 GiB\n(EngineCore_0 pid=250) INFO 08-20 10:00:39 [core.py:214] init engine (profile, create kv cache, warmup model) took 18.35 seconds\n(APIServer pid=1) INFO 08-20 10:00:40 [api_server.py:1611] Supported_tasks: [\'generate\']\n(APIServer pid=1) Traceback (most recent call last):\n(APIServer pid=1)   File "/usr/local/lib/python3.12/dist-packages/vllm/entrypoints/openai/serving_chat.py", line 94, in __init__\n(APIServer pid=1)     raise TypeError("Error: --enable-auto-tool-choice requires "\n(APIServer pid=1) TypeError: Error: --enable-auto-tool-choice requires tool_parser:\'qwen25\' which has not been registered\n')

# SGLang's node_rank=1 of a two-node start: no warm-up request and no client on it; its HTTP
# server up (uvicorn's lines after max_total_num_tokens) is that node's start done. Ready.
case('rt3_sglang_node1_http_up_is_ready', 'ready', 'ready', '*', "[2025-04-10 03:00:00] server_args=ServerArgs(model_path='deepseek-ai/DeepSeek-R1', tp_size=16, nnodes=2, node_rank=1, dist_init_addr='10.0.0.1:5000', trust_remote_code=True)\n[2025-04-10 03:00:10 TP8] Init torch distributed begin.\n[2025-04-10 03:00:10 TP12] Init torch distributed begin.\n[2025-04-10 03:00:41 TP8] Init torch distributed ends. mem usage=1.40 GB\n[2025-04-10 03:00:41 TP8] Load weight begin. avail mem=76.30 GB\nLoading safetensors checkpoint shards: 100% Completed | 163/163 [04:12<00:00,  1.55s/it]\n[2025-04-10 03:04:55 TP8] Load weight end. type=DeepseekV3ForCausalLM, dtype=torch.bfloat16, avail mem=34.20 GB, mem usage=42.10 GB.\n[2025-04-10 03:04:56 TP8] KV Cache is allocated. #tokens: 240000, KV size: 15.70 GB\n[2025-04-10 03:04:56 TP8] Memory pool end. avail mem=13.80 GB\n[2025-04-10 03:04:57 TP8] Capture cuda graph begin. This can take up to several minutes. avail mem=13.20 GB\n[2025-04-10 03:06:01 TP8] Capture cuda graph end. Time elapsed: 64.30 s. mem usage=1.80 GB. avail mem=11.40 GB.\n[2025-04-10 03:06:02 TP8] max_total_num_tokens=240000, chunked_prefill_size=16384, max_prefill_tokens=16384, max_running_requests=4096, context_len=163840, available_gpu_mem=11.40 GB\n[2025-04-10 03:06:02] INFO:     Started server process [3381]\nINFO:     Started server process [3381]\nINFO:     Waiting for application startup.\nINFO:     Application startup complete.\nINFO:     Uvicorn running on http://0.0.0.0:30000 (Press CTRL+C to quit)\n")
