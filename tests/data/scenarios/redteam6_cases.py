# Red-team round (twenty-sixth): logs from readers who never saw the corpus; each class found.

# vLLM's API server turns SIGTERM during a start into KeyboardInterrupt("terminated"): a stop asked
# for (kubelet, docker stop, a rollout), not a crash.
RT6_V1_LOADING = '''(APIServer pid=2252) INFO 09-12 09:00:03 [api_server.py:1805] vLLM API server version 0.10.1.1
(EngineCore_0 pid=2365) INFO 09-12 09:00:18 [core.py:77] Initializing a V1 LLM engine (v0.10.1.1) with config: model='meta-llama/Llama-3.1-70B-Instruct', tensor_parallel_size=2
(VllmWorker TP0 pid=2371) INFO 09-12 09:00:31 [gpu_model_runner.py:1953] Starting to load model meta-llama/Llama-3.1-70B-Instruct...
(VllmWorker TP1 pid=2372) INFO 09-12 09:00:31 [gpu_model_runner.py:1953] Starting to load model meta-llama/Llama-3.1-70B-Instruct...
(VllmWorker TP0 pid=2371) Loading safetensors checkpoint shards:   0% Completed | 0/30 [00:00<?, ?it/s]
(VllmWorker TP0 pid=2371) Loading safetensors checkpoint shards:   3% Completed | 1/30 [00:06<03:13, 6.67s/it]
(VllmWorker TP0 pid=2371) Loading safetensors checkpoint shards:   6% Completed | 2/30 [00:13<03:06, 6.67s/it]
'''
case('rt6_v1_sigterm_while_loading_is_a_stop', 'stopped', 'weight_load', None, RT6_V1_LOADING + '''(APIServer pid=2252) Traceback (most recent call last):
(APIServer pid=2252)   File "/usr/local/bin/vllm", line 10, in <module>
(APIServer pid=2252)     sys.exit(main())
(APIServer pid=2252)   File "/usr/local/lib/python3.12/dist-packages/vllm/v1/engine/utils.py", line 774, in wait_for_engine_startup
(APIServer pid=2252)     events = poller.poll(STARTUP_POLL_PERIOD_MS)
(APIServer pid=2252)   File "/usr/local/lib/python3.12/dist-packages/vllm/entrypoints/openai/api_server.py", line 1840, in signal_handler
(APIServer pid=2252)     raise KeyboardInterrupt("terminated")
(APIServer pid=2252) KeyboardInterrupt: terminated
''')

# systemd's stop job ("Stopping ...", then "Deactivated successfully" and "Stopped"): stopped, and
# the start after a systemctl restart is no supervisor's restart loop.
RT6_JOURNAL_LOAD = '''Feb 17 21:40:29 node5 vllm[9120]: INFO 02-17 21:40:29 model_runner.py:1110] Starting to load model /srv/models/llama-3.1-70b-instruct-awq...
Feb 17 21:40:30 node5 vllm[9120]: Loading safetensors checkpoint shards:   0% Completed | 0/9 [00:00<?, ?it/s]
Feb 17 21:40:38 node5 vllm[9120]: Loading safetensors checkpoint shards:  11% Completed | 1/9 [00:08<01:04,  8.01s/it]
'''
RT6_JOURNAL_STOP = '''Feb 17 21:40:49 node5 systemd[1]: Stopping vllm.service - vLLM...
Feb 17 21:40:53 node5 systemd[1]: vllm.service: Deactivated successfully.
Feb 17 21:40:53 node5 systemd[1]: Stopped vllm.service - vLLM.
'''
case('rt6_systemctl_stop_while_loading_is_a_stop', 'stopped', 'weight_load', None,
     RT6_JOURNAL_LOAD + RT6_JOURNAL_STOP)
case('rt6_systemctl_restart_is_no_restart_loop', 'in_progress', 'weight_load', None,
     'Feb 17 21:40:20 node5 systemd[1]: Started vllm.service - vLLM.\n' + RT6_JOURNAL_LOAD +
     RT6_JOURNAL_STOP + 'Feb 17 21:40:54 node5 systemd[1]: Started vllm.service - vLLM.\n' +
     RT6_JOURNAL_LOAD.replace('21:40:', '21:41:').replace('9120', '9188'))

# A bare kill (exit 137, no OOM record) 25 minutes after the capture's last step, the engine core
# waiting all along: the start hung and something gave up on it (compose down): stalled.
RT6_CAPTURE_HANG = '''vllm-1  | INFO 09-14 02:00:03 [api_server.py:1805] vLLM API server version 0.10.1
vllm-1  | (EngineCore_0 pid=704) INFO 09-14 02:00:10 [core.py:77] Initializing a V1 LLM engine (v0.10.1) with config: model='Qwen/Qwen3-8B', tensor_parallel_size=2
vllm-1  | (VllmWorker TP0 pid=710) INFO 09-14 02:01:00 [gpu_model_runner.py:2007] Model loading took 8.2 GiB and 40.1 seconds
vllm-1  | (VllmWorker TP1 pid=711) INFO 09-14 02:01:00 [gpu_model_runner.py:2007] Model loading took 8.2 GiB and 40.3 seconds
vllm-1  | (VllmWorker TP0 pid=710) INFO 09-14 02:01:20 [gpu_worker.py:276] Available KV cache memory: 50.00 GiB
vllm-1  | (EngineCore_0 pid=704) INFO 09-14 02:01:21 [kv_cache_utils.py:849] GPU KV cache size: 400,000 tokens
vllm-1  | (VllmWorker TP0 pid=710) Capturing CUDA graph shapes:  30%|###       | 20/67 [00:05<00:12,  3.90it/s]
''' + ''.join(f'vllm-1  | (EngineCore_0 pid=704) INFO 09-14 02:{m:02d}:14 [shm_broadcast.py:466] No available shared memory broadcast block found in 60 seconds. This typically happens when some processes are hanging or doing some time-consuming work (e.g. compilation, weight/kv cache quantization).\n' for m in range(3, 28))
case('rt6_bare_kill_long_after_a_capture_hang_is_a_stall', 'stalled', 'cuda_graph', '*',
     RT6_CAPTURE_HANG + 'vllm-1 exited with code 137\n')
# Guard: the same kill seconds after the capture's last step is a death.
case('rt6_bare_kill_right_after_progress_is_a_death', 'crashed', 'cuda_graph', 'host_oom',
     RT6_CAPTURE_HANG.split('vllm-1  | (EngineCore_0 pid=704) INFO 09-14 02:03:14')[0] +
     'vllm-1 exited with code 137\n')

# Causes read from the evidence's own words.
case('rt6_sglang_bare_assert_on_heads_is_the_layout', 'crashed', 'weight_load', 'parallel_layout', '''[2025-05-10 08:00:00] server_args=ServerArgs(model_path='Qwen/Qwen2.5-1.5B-Instruct', tp_size=4)
[2025-05-10 08:00:05 TP0] Init torch distributed begin.
[2025-05-10 08:00:07 TP0] Init torch distributed ends. mem usage=0.55 GB
[2025-05-10 08:00:07 TP0] Load weight begin. avail mem=78.02 GB
[2025-05-10 08:00:07 TP3] Scheduler hit an exception: Traceback (most recent call last):
  File "/sgl-workspace/sglang/python/sglang/srt/model_loader/loader.py", line 160, in _initialize_model
    return model_class(
  File "/sgl-workspace/sglang/python/sglang/srt/models/qwen2.py", line 99, in __init__
    assert self.total_num_heads % tp_size == 0
AssertionError

[2025-05-10 08:00:07] Received sigquit from a child process. It usually means the child failed.
''')
RT6_PTXAS = '''INFO 05-03 21:12:05 [api_server.py:1043] vLLM API server version 0.8.5
INFO 05-03 21:12:16 [core.py:58] Initializing a V1 LLM engine (v0.8.5) with config: model='Qwen/Qwen3-8B', dtype=torch.bfloat16, max_seq_len=16384
INFO 05-03 21:12:17 [gpu_model_runner.py:1329] Starting to load model Qwen/Qwen3-8B...
INFO 05-03 21:12:22 [gpu_model_runner.py:1347] Model loading took 15.2683 GiB and 4.30 seconds
INFO 05-03 21:12:29 [backends.py:430] Dynamo bytecode transform time: 6.82 s
ERROR 05-03 21:12:34 [core.py:396] EngineCore failed to start.
ERROR 05-03 21:12:34 [core.py:396] Traceback (most recent call last):
ERROR 05-03 21:12:34 [core.py:396]   File "/home/me/venv/lib/python3.12/site-packages/triton/backends/nvidia/compiler.py", line 356, in make_cubin
ERROR 05-03 21:12:34 [core.py:396]     raise RuntimeError(f'{error}\\n'
ERROR 05-03 21:12:34 [core.py:396] torch._inductor.exc.InductorError: RuntimeError: Internal Triton PTX codegen error
ERROR 05-03 21:12:34 [core.py:396] `ptxas` stderr:
ERROR 05-03 21:12:34 [core.py:396] ptxas fatal   : Value 'sm_120a' is not defined for option 'gpu-name'
'''
# ptxas older than the GPU: the toolchain, not the compiler's own failure ...
case('rt6_ptxas_without_the_gpu_name_is_the_toolchain', 'crashed', 'compile', 'jit_toolchain', RT6_PTXAS)
# ... unless PyTorch itself says the GPU is newer than its build.
case('rt6_ptxas_with_torch_arch_warning_is_the_build', 'crashed', 'compile', 'cuda_build_mismatch',
     RT6_PTXAS.replace('INFO 05-03 21:12:16', '/usr/lib/python3/torch/cuda/__init__.py:287: UserWarning: \nNVIDIA GeForce RTX 5090 with CUDA capability sm_120 is not compatible with the current PyTorch installation.\nINFO 05-03 21:12:16', 1))
# TGI 1.x's capability check names the GPU; the model class only says it needed the kernels.
case('rt6_tgi_flash_v2_capability_is_the_gpu', 'crashed', 'weight_load', 'gpu_arch_feature', '''2024-02-02T09:00:00.100000Z  INFO text_generation_launcher: Args { model_id: "mistralai/Mistral-7B-Instruct-v0.2", num_shard: None }
2024-02-02T09:00:05.200000Z  INFO text_generation_launcher: Starting shard rank=0
2024-02-02T09:00:08.300000Z  WARN text_generation_launcher: Unable to use Flash Attention V2: GPU with CUDA capability 7 0 is not supported for Flash Attention V2
2024-02-02T09:00:08.310000Z  WARN text_generation_launcher: Could not import Mistral model: Mistral model requires flash attn v2
2024-02-02T09:00:09.000000Z ERROR text_generation_launcher: Error when initializing model
Traceback (most recent call last):
  File "/opt/conda/lib/python3.10/site-packages/text_generation_server/models/__init__.py", line 250, in get_model
    raise NotImplementedError("Mistral model requires flash attention v2")
NotImplementedError: Mistral model requires flash attention v2

2024-02-02T09:00:09.500000Z ERROR shard-manager: text_generation_launcher: Shard complete standard error output:
2024-02-02T09:00:10.000000Z ERROR text_generation_launcher: Shard 0 failed to start
2024-02-02T09:00:10.100000Z  INFO text_generation_launcher: Shutting down shards
Error: ShardCannotStart
''')

# A script that drives the engine itself (vLLM's LLM(), no HTTP server) raised its own exception
# once the engine said it was ready: the start succeeded.
RT6_V1_OFFLINE = '''INFO 10-06 14:02:11 [__init__.py:216] Automatically detected platform cuda.
INFO 10-06 14:02:15 [utils.py:233] non-default args: {'disable_log_stats': True, 'model': 'Qwen/Qwen2.5-7B-Instruct'}
INFO 10-06 14:02:19 [core.py:77] Initializing a V1 LLM engine (v0.10.1) with config: model='Qwen/Qwen2.5-7B-Instruct'
INFO 10-06 14:02:21 [gpu_model_runner.py:2602] Starting to load model Qwen/Qwen2.5-7B-Instruct...
INFO 10-06 14:02:25 [gpu_model_runner.py:2653] Model loading took 14.2488 GiB and 3.545212 seconds
INFO 10-06 14:02:37 [gpu_worker.py:298] Available KV cache memory: 105.34 GiB
INFO 10-06 14:02:38 [kv_cache_utils.py:1087] GPU KV cache size: 1,972,464 tokens
INFO 10-06 14:02:45 [core.py:210] init engine (profile, create kv cache, warmup model) took 20.10 seconds
=== sample 0 ===
A large language model is a neural network trained on vast amounts of text.
'''
RT6_SCRIPT_ERROR = '''Traceback (most recent call last):
  File "/home/r/gen_eval.py", line 52, in <module>
    with open(f"/mnt/results/{run_id}/out.json", "w") as f:
FileNotFoundError: [Errno 2] No such file or directory: '/mnt/results/r17/out.json'
'''
case('rt6_offline_script_error_after_the_engine_was_up', 'ready', 'ready', None,
     RT6_V1_OFFLINE + RT6_SCRIPT_ERROR)
# Guard: the same exception before the engine was up is the start's failure.
case('rt6_offline_script_error_before_the_engine_was_up', 'crashed', 'kv_cache', '*',
     RT6_V1_OFFLINE.split('INFO 10-06 14:02:45')[0] + RT6_SCRIPT_ERROR)

# sglang.Engine in a script has no HTTP server and no warm-up request: its decode batches (logged
# every 40 decode steps) are requests being served.
case('rt6_sglang_engine_decode_batches_are_served', 'ready', 'ready', None, '''[2025-05-12 16:20:05] server_args=ServerArgs(model_path='meta-llama/Llama-3.1-8B-Instruct', tp_size=1, log_level='info')
[2025-05-12 16:20:12 TP0] Load weight begin. avail mem=78.52 GB
[2025-05-12 16:20:22 TP0] Load weight end. type=LlamaForCausalLM, dtype=torch.bfloat16, avail mem=63.52 GB, mem usage=15.06 GB.
[2025-05-12 16:20:22 TP0] Memory pool end. avail mem=12.44 GB
[2025-05-12 16:20:22 TP0] Capture cuda graph begin. This can take up to several minutes. avail mem=11.80 GB
[2025-05-12 16:20:29 TP0] Capture cuda graph end. Time elapsed: 6.35 s. mem usage=0.46 GB. avail mem=11.34 GB.
[2025-05-12 16:20:29 TP0] max_total_num_tokens=413487, chunked_prefill_size=8192, max_prefill_tokens=16384, max_running_requests=4097, context_len=131072
[2025-05-12 16:20:41 TP0] Prefill batch. #new-seq: 2, #new-token: 17, #cached-token: 0, token usage: 0.00, #running-req: 0, #queue-req: 0
[2025-05-12 16:20:42 TP0] Decode batch. #running-req: 2, #token: 97, token usage: 0.00, cuda graph: True, gen throughput (token/s): 14.21, #queue-req: 0
 Paris. It is located in the north-central part of the country.
''')

# Weight loading's budgets scale with the checkpoint, guessed from the log where nothing measured
# it: a 405B FP8 model named in TGI's Args, whose shards print only that they wait, is still loading
# at 14 minutes; an 8B one waiting as long is stuck.
def rt6_tgi_wait(model, minutes):
    out = ['2024-09-10T08:00:00.123456Z  INFO text_generation_launcher: Args {',
           f'    model_id: "{model}",', '    revision: None,', '}',
           '2024-09-10T08:00:07.623456Z  INFO shard-manager: text_generation_launcher: Starting shard rank=0',
           '2024-09-10T08:00:07.623456Z  INFO shard-manager: text_generation_launcher: Starting shard rank=1']
    for s in range(17, minutes * 60, 30):
        for r in (0, 1):
            out.append(f'2024-09-10T08:{s // 60:02d}:{s % 60:02d}.624735Z  INFO shard-manager: '
                       f'text_generation_launcher: Waiting for shard to be ready... rank={r}')
    return '\n'.join(out) + '\n'
case('rt6_tgi_405b_waiting_14_min_is_still_loading', 'in_progress', 'weight_load', None,
     rt6_tgi_wait('meta-llama/Llama-3.1-405B-Instruct-FP8', 14))
case('rt6_tgi_8b_waiting_14_min_is_a_stall', 'stalled', 'weight_load', '*',
     rt6_tgi_wait('meta-llama/Llama-3.1-8B-Instruct', 14))
# A 163-shard checkpoint read at 2.5 s a shard is not a slow read, whatever the minutes add to.
RT6_BIG_LOAD = ['INFO 02-11 09:00:00 [api_server.py:1043] vLLM API server version 0.8.5',
                "INFO 02-11 09:00:10 [core.py:58] Initializing a V1 LLM engine (v0.8.5) with config: model='deepseek-ai/DeepSeek-R1', tensor_parallel_size=8",
                'INFO 02-11 09:00:20 [gpu_model_runner.py:1329] Starting to load model deepseek-ai/DeepSeek-R1...']
for _i in range(0, 164, 8):
    _s = 20 + int(_i * 2.5)
    RT6_BIG_LOAD.append(f'Loading safetensors checkpoint shards: {_i * 100 // 163:3d}% Completed | {_i}/163 '
                        f'[{(_s - 20) // 60:02d}:{(_s - 20) % 60:02d}<00:00,  2.50s/it]')
RT6_BIG_LOAD += ['INFO 02-11 09:07:10 [loader.py:458] Loading weights took 407.50 seconds',
                 'INFO 02-11 09:07:11 [gpu_model_runner.py:1347] Model loading took 84.20 GiB and 410.90 seconds',
                 'INFO 02-11 09:08:40 [core.py:159] init engine (profile, create kv cache, warmup model) took 88.00 seconds',
                 'INFO 02-11 09:08:41 [api_server.py:1090] Starting vLLM API server on http://0.0.0.0:8000',
                 'INFO:     Application startup complete.']
case('rt6_big_checkpoint_read_fast_is_no_slow_read', 'ready', 'ready', None, '\n'.join(RT6_BIG_LOAD) + '\n')

# docker inspect's word that the container was not OOM-killed takes a bare 137 away from host_oom.
RT6_DOCKER_LOAD = '''vllm-1  | INFO 06-10 09:41:24 [api_server.py:1287] vLLM API server version 0.9.1
vllm-1  | INFO 06-10 09:41:47 [core.py:70] Initializing a V1 LLM engine (v0.9.1) with config: model='meta-llama/Llama-3.3-70B-Instruct', tensor_parallel_size=4
vllm-1  | (VllmWorker rank=0 pid=266) INFO 06-10 09:41:56 [gpu_model_runner.py:1595] Starting to load model meta-llama/Llama-3.3-70B-Instruct...
vllm-1  | Loading safetensors checkpoint shards:   3% Completed | 1/30 [00:06<03:04,  6.37s/it]
vllm-1  | Loading safetensors checkpoint shards:   7% Completed | 2/30 [00:12<02:58,  6.38s/it]
vllm-1 exited with code 137
'''
case('rt6_docker_exit_137_with_oom_false_is_no_oom', 'crashed', 'weight_load', None, RT6_DOCKER_LOAD +
     "$ docker inspect -f 'exit={{.State.ExitCode}} oom={{.State.OOMKilled}}' vllm-1\nexit=137 oom=false\n")
case('rt6_docker_exit_137_alone_is_an_oom', 'crashed', 'weight_load', 'host_oom', RT6_DOCKER_LOAD)

# vLLM compiles inside the profile run: a worker's compiler failure there, relayed by the engine
# core's traceback through collective_rpc (its frames only say which call it waited in), crashed
# in compile, not in the profile run's kv_cache.
RT6_TP2_COMPILING = '''INFO 05-15 12:00:03 [api_server.py:1043] vLLM API server version 0.8.5
INFO 05-15 12:00:18 [core.py:58] Initializing a V1 LLM engine (v0.8.5) with config: model='meta-llama/Llama-3.1-70B-Instruct', tensor_parallel_size=2
(VllmWorker rank=0 pid=6486) INFO 05-15 12:00:31 [gpu_model_runner.py:1329] Starting to load model meta-llama/Llama-3.1-70B-Instruct...
(VllmWorker rank=1 pid=6487) INFO 05-15 12:00:31 [gpu_model_runner.py:1329] Starting to load model meta-llama/Llama-3.1-70B-Instruct...
(VllmWorker rank=0 pid=6486) INFO 05-15 12:01:13 [gpu_model_runner.py:1347] Model loading took 65.7013 GiB and 41.394465 seconds
(VllmWorker rank=1 pid=6487) INFO 05-15 12:01:13 [gpu_model_runner.py:1347] Model loading took 65.7066 GiB and 41.641311 seconds
(VllmWorker rank=0 pid=6486) INFO 05-15 12:01:14 [backends.py:420] Using cache directory: /root/.cache/vllm/torch_compile_cache/0badc0de11/rank_0_0 for vLLM's torch.compile
(VllmWorker rank=0 pid=6486) INFO 05-15 12:01:14 [backends.py:430] Dynamo bytecode transform time: 10.44 s
'''
def rt6_worker_tb(rank, tail):
    w = f'(VllmWorker rank={rank} pid={6486 + rank}) ERROR 05-15 12:01:17 [multiproc_executor.py:470] '
    return ''.join(w + l + '\n' for l in [
        'WorkerProc hit an exception.',
        'Traceback (most recent call last):',
        '  File "/usr/local/lib/python3.12/dist-packages/vllm/v1/worker/gpu_worker.py", line 223, in determine_available_memory',
        '    self.model_runner.profile_run()',
        '  File "/usr/local/lib/python3.12/dist-packages/vllm/v1/worker/gpu_model_runner.py", line 2050, in profile_run',
        '    hidden_states, last_hidden_states = self._dummy_run(self.max_num_tokens, is_profile=True)'] + tail)
RT6_CORE_RELAY = '''ERROR 05-15 12:01:18 [core.py:396] EngineCore failed to start.
ERROR 05-15 12:01:18 [core.py:396] Traceback (most recent call last):
ERROR 05-15 12:01:18 [core.py:396]   File "/usr/local/lib/python3.12/dist-packages/vllm/v1/engine/core.py", line 126, in _initialize_kv_caches
ERROR 05-15 12:01:18 [core.py:396]     available_gpu_memory = self.model_executor.determine_available_memory()
ERROR 05-15 12:01:18 [core.py:396]   File "/usr/local/lib/python3.12/dist-packages/vllm/v1/executor/abstract.py", line 76, in determine_available_memory
ERROR 05-15 12:01:18 [core.py:396]     output = self.collective_rpc("determine_available_memory")
ERROR 05-15 12:01:18 [core.py:396]   File "/usr/local/lib/python3.12/dist-packages/vllm/v1/executor/multiproc_executor.py", line 220, in collective_rpc
ERROR 05-15 12:01:18 [core.py:396]     raise result
ERROR 05-15 12:01:18 [core.py:396] {error}
'''
RT6_NO_CC = ['  File "/usr/local/lib/python3.12/dist-packages/vllm/compilation/backends.py", line 446, in __call__',
             '    PiecewiseCompileInterpreter(self.split_gm, submod_names_to_compile,',
             "torch._dynamo.exc.BackendCompilerFailed: backend='<vllm.compilation.backends.VllmBackend object at 0x7f0a1c2d3e40>' raised:",
             'RuntimeError: Failed to find C compiler. Please specify via CC environment variable.']
case('rt6_v1_compiler_failure_in_the_profile_run_is_compile', 'crashed', 'compile', 'jit_toolchain',
     RT6_TP2_COMPILING + rt6_worker_tb(0, RT6_NO_CC) + rt6_worker_tb(1, RT6_NO_CC) +
     RT6_CORE_RELAY.replace('{error}', 'RuntimeError: Failed to find C compiler. Please specify via CC environment variable.'))
# Guard: once torch.compile said it was done, an OOM in the same profile run is the profile run's.
RT6_OOM = ['  File "/usr/local/lib/python3.12/dist-packages/torch/nn/modules/module.py", line 1751, in _call_impl',
           '    return forward_call(*args, **kwargs)',
           'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 7.00 GiB. GPU 0 has a total capacity of 79.10 GiB of which 2.10 GiB is free.']
case('rt6_v1_oom_in_the_profile_run_after_compile_is_kv_cache', 'crashed', 'kv_cache', 'gpu_oom',
     RT6_TP2_COMPILING + '(VllmWorker rank=0 pid=6486) INFO 05-15 12:01:16 [monitor.py:33] torch.compile takes 12.01 s in total\n' +
     rt6_worker_tb(0, RT6_OOM) + rt6_worker_tb(1, RT6_OOM) +
     RT6_CORE_RELAY.replace('{error}', 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 7.00 GiB.'))
