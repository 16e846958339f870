# vLLM's wording from 0.13 on (issue 10, vnew round), checked in vLLM's sources: the API server's
# banner became log_version_and_model (entrypoints/utils.py), an ASCII logo with the version, or
# "vLLM server version X, serving model Y" where the logo is disabled. Each process start prints it
# once, so a restart that dies before the engine core starts shows only the banner again. Also the
# offline benchmarks' result lines (benchmarks/throughput.py, latency.py). exec'd by make_scenarios.py
# (uses vl).
_VN_TAG = '(APIServer pid=1) '
_VN_LOGO = [
    _VN_TAG + 'INFO 08-20 10:00:00 [utils.py:285] ',
    '       █     █     █▄   ▄█',
    ' ▄▄ ▄█ █     █     █ ▀▄▀ █  version 0.14.0',
    '  █▄█▀ █     █     █     █  model   Qwen/Qwen3-8B',
    '   ▀▀  ▀▀▀▀▀ ▀▀▀▀▀ ▀     ▀']
_VN_ARGS_FAIL = vl([('INFO', 'utils.py:220', "non-default args: {'model': 'Qwen/Qwen3-8B', 'reasoning_parser': 'qwen'}"),
                    ('ERROR', 'api_server.py:530', 'Traceback (most recent call last):'),
                    ('ERROR', 'api_server.py:530', '  File "/usr/local/lib/python3.12/dist-packages/vllm/entrypoints/openai/api_server.py", line 530, in validate_api_server_args'),
                    ('ERROR', 'api_server.py:530', '    raise KeyError('),
                    ('ERROR', 'api_server.py:530', 'KeyError: \'invalid reasoning parser: qwen (chose from { deepseek_r1,qwen3 })\'')], _VN_TAG)
_VN_ATTEMPT = '\n'.join(_VN_LOGO) + '\n' + _VN_ARGS_FAIL
# A restart's lines are stamped later than the run before it; the same stamps again are the same
# run pasted twice (below).
def _vn_later(text, minute):
    return text.replace(' 08-20 10:00:', f' 08-20 10:{minute:02d}:')
case('vn_logo_banner_restarts', 'crash_loop', 'launch', '*', '\n'.join(_vn_later(_VN_ATTEMPT, k) for k in range(3)))
case('vn_logo_banner_once', 'crashed', 'launch', '*', _VN_ATTEMPT)
_VN_PLAIN = vl([('INFO', 'utils.py:285', 'vLLM server version 0.14.0, serving model Qwen/Qwen3-8B')], _VN_TAG)
case('vn_plain_banner_restarts', 'crash_loop', 'launch', '*', '\n'.join(_vn_later(_VN_PLAIN + '\n' + _VN_ARGS_FAIL, k) for k in range(2)))
case('vn_plain_banner_pasted_twice', 'crashed', 'launch', '*', '\n'.join([_VN_PLAIN + '\n' + _VN_ARGS_FAIL] * 2))
case('vn_logo_banner_pasted_three_times', 'crashed', 'launch', '*', '\n'.join([_VN_ATTEMPT] * 3))
# The banner then the engine core's own opening line belong to one start.
_VN_ENGINE = vl([('INFO', 'core.py:109', "Initializing a V1 LLM engine (v0.14.0) with config: model='Qwen/Qwen3-8B'"),
                 ('INFO', 'gpu_model_runner.py:3000', 'Starting to load model Qwen/Qwen3-8B...')], '(EngineCore_DP0 pid=200) ')
case('vn_logo_then_engine_in_progress', 'in_progress', 'weight_load', '*', _VN_PLAIN + '\n' + _VN_ENGINE)
# Offline benchmarks print their result once the engine has served every request.
_VN_OFFLINE = vl([('INFO', 'core.py:109', "Initializing a V1 LLM engine (v0.14.0) with config: model='Qwen/Qwen3-8B'"),
                  ('INFO', 'gpu_model_runner.py:3000', 'Starting to load model Qwen/Qwen3-8B...'),
                  ('INFO', 'gpu_model_runner.py:3100', 'Model loading took 15.27 GiB memory and 21.02 seconds'),
                  ('INFO', 'kv_cache_utils.py:1200', 'GPU KV cache size: 400,000 tokens'),
                  ('INFO', 'core.py:250', 'init engine (profile, create kv cache, warmup model) took 40.10 seconds')])
case('vn_bench_throughput_result', 'ready', 'ready', None, _VN_OFFLINE + '\n' +
     'Throughput: 12.34 requests/s, 5000.00 total tokens/s, 2500.00 output tokens/s\nTotal num prompt tokens:  102400\nTotal num output tokens:  102400')
case('vn_bench_latency_result', 'ready', 'ready', None, _VN_OFFLINE + '\n' + 'Warming up...\nAvg latency: 1.2345 seconds\n10% percentile latency: 1.2 seconds')
# DeepGEMM's warm-up bar ("DeepGEMM warmup", vLLM's since its one-bar kernel warm-up) is printed by
# SGLang's DeepGEMM pre-compile too: it is a compile step's, never evidence of vLLM.
case('vn_sglang_deepgemm_bar', 'in_progress', 'compile', '*', '\n'.join([
    "[2025-06-01 10:00:00] server_args=ServerArgs(model_path='deepseek-ai/DeepSeek-V3', tp_size=8)",
    '[2025-06-01 10:00:30 TP0] Load weight begin. avail mem=78.00 GB',
    '[2025-06-01 10:05:00 TP0] Load weight end. type=DeepseekV3ForCausalLM, dtype=torch.bfloat16, avail mem=50.00 GB, mem usage=28.00 GB.',
    '[2025-06-01 10:05:10 TP0] KV Cache is allocated. #tokens: 500000, K size: 10.00 GB, V size: 10.00 GB',
    '[2025-06-01 10:05:11 TP0] Entering DeepGEMM JIT Pre-Compile session. It may takes a long time (typically 10-20 mins) if you have not run `sglang.compile_deep_gemm`.',
    'DeepGEMM warmup:  10%|█         | 1/10 [00:05<00:45, 5.0s/it]']))

# VLLM_LOGGING_LEVEL=DEBUG (how hangs get debugged) adds the worker's memory summary, which begins
# as the too-little-free-memory error does; only the error says "on startup is less than".
_VN_V1 = [('INFO', 'core.py:109', "Initializing a V1 LLM engine (v0.12.0) with config: model='Qwen/Qwen3-8B'"),
          ('INFO', 'gpu_model_runner.py:3000', 'Starting to load model Qwen/Qwen3-8B...'),
          ('INFO', 'gpu_model_runner.py:3100', 'Model loading took 15.27 GiB memory and 21.02 seconds'),
          ('INFO', 'gpu_worker.py:300', 'Available KV cache memory: 50.00 GiB'),
          ('INFO', 'kv_cache_utils.py:1200', 'GPU KV cache size: 400,000 tokens')]
case('vn_debug_free_memory_summary_ready', 'ready', 'ready', None, vl(_VN_V1 + [
    ('DEBUG', 'gpu_worker.py:463', 'Free memory on device (78.5/79.2 GiB) on startup. Desired GPU memory utilization is (0.9, 71.3 GiB). Actual usage is 15.3 GiB for weight, 2.1 GiB for peak activation, 0.4 GiB for non-torch memory, and 0.5 GiB for CUDAGraph memory.'),
    ('INFO', 'core.py:250', 'init engine (profile, create kv cache, warmup model) took 40.10 seconds'),
    ('INFO', 'api_server.py:1900', 'Starting vLLM API server 0 on http://0.0.0.0:8000'),
    ('INFO', 'launcher.py:40', 'Route: /v1/chat/completions, Methods: POST')]))
# From 0.12 a logged request shows its parameters, its prompt only at DEBUG.
case('vn_received_request_params', 'ready', 'ready', None, vl(_VN_V1 + [
    ('INFO', 'core.py:250', 'init engine (profile, create kv cache, warmup model) took 40.10 seconds'),
    ('INFO', 'logger.py:64', 'Received request chatcmpl-8f2c: params: SamplingParams(n=1, temperature=0.7, max_tokens=512), lora_request: None.')]))
# A headless node of a multi-node start (vllm serve --headless): its banner starts each run, and
# a head node it cannot reach is the rendezvous's fault.
_VN_HEADLESS = vl([('INFO', 'serve.py:187', 'Launching vLLM (v0.14.0) headless multiproc executor, with head node address 10.0.0.1 for torch.distributed process group.'),
                   ('ERROR', 'multiproc_executor.py:700', 'WorkerProc failed to start.'),
                   ('ERROR', 'multiproc_executor.py:700', 'Traceback (most recent call last):'),
                   ('ERROR', 'multiproc_executor.py:700', '  File "/usr/local/lib/python3.12/dist-packages/vllm/distributed/parallel_state.py", line 1200, in init_distributed_environment'),
                   ('ERROR', 'multiproc_executor.py:700', '    torch.distributed.init_process_group('),
                   ('ERROR', 'multiproc_executor.py:700', 'torch.distributed.DistNetworkError: The client socket has timed out after 600000ms while trying to connect to (10.0.0.1, 29500).')])
case('vn_headless_restarts', 'crash_loop', 'distributed_init', 'rendezvous', _VN_HEADLESS + '\n' + _VN_HEADLESS.replace('08-20 10:00:', '08-20 10:11:'))
# V1 downloads inside load_model, after "Starting to load model": its time is part of the load.
case('vn_download_then_prefetch_in_progress', 'in_progress', 'weight_load', None, vl(
    [('INFO', 'core.py:109', "Initializing a V1 LLM engine (v0.14.0) with config: model='Qwen/Qwen3-8B'"),
     ('INFO', 'gpu_model_runner.py:3000', 'Starting to load model Qwen/Qwen3-8B...'),
     ('INFO', 'weight_utils.py:604', 'Time spent downloading weights for Qwen/Qwen3-8B: 35.120000 seconds'),
     ('INFO', 'weight_utils.py:885', 'Prefetching checkpoint files into page cache started (in background, num_threads=8, block_size=16777216 bytes)')]))

# pm2 (a process manager some run vllm serve under) restarting it: its own lines behind
# "PM2        | ", the app's behind "0|vllm     | ". Each start prints "starting in -fork mode-",
# each death "exited with code [1]", and the end "had too many unstable restarts (16)": two runs
# that died of different errors are a loop.
def _vn_pm2_run(err):
    return ['PM2        | App [vllm:0] starting in -fork mode-', 'PM2        | App [vllm:0] online',
            '0|vllm     | INFO 08-20 10:00:00 [__init__.py:216] Automatically detected platform cuda.',
            '0|vllm     | Traceback (most recent call last):',
            '0|vllm     |   File "/usr/local/bin/vllm", line 8, in <module>',
            '0|vllm     |     sys.exit(main())', '0|vllm     | ' + err,
            'PM2        | App [vllm:0] exited with code [1] via signal [SIGINT]',
            'PM2        | App [vllm:0] will restart in 1000ms']
case('vn_pm2_restarts', 'crash_loop', 'launch', '*', '\n'.join(
    _vn_pm2_run("ValueError: invalid literal for int() with base 10: 'auto'") +
    _vn_pm2_run('OSError: [Errno 98] Address already in use') +
    ['PM2        | Script /usr/local/bin/vllm had too many unstable restarts (16). Stopped. "errored"']))

# Nomad's allocation events pasted below a task's log (`nomad alloc status`, newest first): the
# task was restarted ("Task restarting in 16.2s") and given up on ("Exceeded allowed attempts 2
# in interval 30m0s"); its log shows one run's death. A loop, as Kubernetes' back-off is.
case('vn_nomad_alloc_restarts', 'crash_loop', 'launch', '*', vl([
    ('INFO', 'api_server.py:1805', 'vLLM API server version 0.10.1'),
    ('ERROR', 'api_server.py:1900', "ValueError: Unknown quantization method: 'fp4'. Must be one of ['aqlm', 'awq', 'fp8', 'gptq'].")]) + '\n' + '\n'.join([
    '', 'Recent Events:', 'Time                       Type            Description',
    '2025-08-20T10:02:10+00:00  Not Restarting  Exceeded allowed attempts 2 in interval 30m0s and mode is "fail"',
    '2025-08-20T10:02:10+00:00  Terminated      Exit Code: 1, Exit Message: "Docker container exited with non-zero exit code: 1"',
    '2025-08-20T10:01:40+00:00  Started         Task started by client',
    '2025-08-20T10:01:24+00:00  Restarting      Task restarting in 16.161437852s',
    '2025-08-20T10:01:24+00:00  Terminated      Exit Code: 1, Exit Message: "Docker container exited with non-zero exit code: 1"']))

# The server's /metrics output pasted below its log (curl localhost:8000/metrics): it answered.
case('vn_metrics_scrape_ready', 'ready', 'ready', None, vl(VHEAD + VLOAD) + '\n' + '\n'.join([
    '$ curl -s localhost:8000/metrics | grep running',
    '# HELP vllm:num_requests_running Number of requests in model execution batches.',
    '# TYPE vllm:num_requests_running gauge',
    'vllm:num_requests_running{engine="0",model_name="Qwen/Qwen3-8B"} 0.0']))
