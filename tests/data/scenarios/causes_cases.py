# Cases for the first named cause of vLLM (V0 0.4-0.7, V1 0.8-0.11+) and TGI (v0.x-v3.x) start
# failures (issue 10): each release's own message for a cause, and the ranking that makes the
# quoted error decide. Run by make_scenarios.py (exec'd there: case, vl, v0, frames, logged, tg,
# V0HEAD, VHEAD, VLOAD, THEAD and TGI_UP come from it). Wording from the engines' sources.

# A crash's cause is its error, not a warning: V0 prints "Custom allreduce is disabled because your
# platform lacks GPU P2P capability" and "... is not supported ..." on many multi-GPU starts; the
# shard file that is a git-lfs pointer (pickle's "invalid load key, 'v'") decides.
C2_V04 = [('INFO', 'api_server.py:149', 'vLLM API server version 0.4.2'),
          ('INFO', 'llm_engine.py:100', "Initializing an LLM engine (v0.4.2) with config: model='meta-llama/Llama-2-13b-hf', tensor_parallel_size=2"),
          ('WARNING', 'custom_all_reduce.py:74', 'Custom allreduce is disabled because your platform lacks GPU P2P capability or P2P test failed. To silence this warning, specify disable_custom_all_reduce=True explicitly.'),
          ('WARNING', 'config.py:1011', 'Sliding window attention is not supported by xformers; the model runs without it.')]
case('c2_v04_warning_not_cause', 'crashed', 'weight_load', 'corrupt_safetensors', v0(C2_V04 + [('INFO', 'weight_utils.py:199', "Using model weights format ['*.bin']")]) + '\n' + '\n'.join(frames([
    ('vllm/worker/model_runner.py', 'load_model', 'self.model = get_model('),
    ('vllm/model_executor/model_loader/weight_utils.py', 'pt_weights_iterator', 'state = torch.load(bin_file, map_location="cpu")'),
    ('torch/serialization.py', '_legacy_load', 'magic_number = pickle_module.load(f, **pickle_load_args)')],
    "_pickle.UnpicklingError: invalid load key, 'v'.")) + '\n')

# The same warnings in a hang: a crash-only cause ("not supported") never explains a hang; the
# P2P warning does, where NCCL set-up stopped.
case('c2_v04_hang_p2p_warning', 'stalled', 'distributed_init', 'nccl_p2p', v0(C2_V04[:2] + [
    ('INFO', 'utils.py:660', 'Found nccl from library libnccl.so.2'),
    ('INFO', 'pynccl.py:63', 'vLLM is using nccl==2.20.5'),
    ('WARNING', 'config.py:1011', 'Sliding window attention is not supported by xformers; the model runs without it.')]) + '\n' +
    v0([C2_V04[2]], m=10) + '\n')

# V0 MQLLMEngine (0.6): the tokenizer's own message
case('c2_v06_tokenizer', 'crashed', 'launch', 'tokenizer_remote_code', v0(V0HEAD) + '\n' + '\n'.join(frames([
    ('vllm/engine/multiprocessing/engine.py', 'run_mp_engine', 'engine = MQLLMEngine.from_engine_args(engine_args=engine_args,'),
    ('vllm/transformers_utils/tokenizer_group/__init__.py', 'init_tokenizer_from_configs', 'return get_tokenizer_group(parallel_config.tokenizer_pool_config,'),
    ('vllm/transformers_utils/tokenizer.py', 'get_tokenizer', 'raise RuntimeError(err_msg) from e')],
    'RuntimeError: Failed to load the tokenizer. If the tokenizer is a custom tokenizer not yet available in the HuggingFace transformers library, consider setting `trust_remote_code=True` in LLM or using the `--trust-remote-code` flag in the CLI.')) + '\n')

# transformers' words for a model id that is neither a folder nor a Hub repo (typo, private repo)
case('c2_v06_not_a_repo', 'crashed', 'launch', 'hf_download', v0(V0HEAD[:2]) + '\n' + '\n'.join(frames([
    ('vllm/transformers_utils/config.py', 'get_config', 'config = AutoConfig.from_pretrained('),
    ('transformers/utils/hub.py', 'cached_file', 'raise EnvironmentError(')],
    ["OSError: Qwen/Qwen2.5-7B-Instuct is not a local folder and is not a valid model identifier listed on 'https://huggingface.co/models'",
     "If this is a private repository, make sure to pass a token having permission to this repo either by logging in with `huggingface-cli login` or by passing `token=<your_token>`"])) + '\n')

# V1 workers forked after CUDA was initialised (torch's words)
case('c2_v1_fork_cuda', 'crashed', 'launch', 'worker_start_method', vl(VHEAD + logged('WorkerProc failed to start.', [
    ('vllm/v1/executor/multiproc_executor.py', 'worker_main', 'worker = WorkerProc(*args, **kwargs)'),
    ('vllm/v1/worker/gpu_worker.py', 'init_device', 'torch.cuda.set_device(self.device)'),
    ('torch/cuda/__init__.py', '_lazy_init', 'raise RuntimeError(')],
    "RuntimeError: Cannot re-initialize CUDA in forked subprocess. To use CUDA with multiprocessing, you must use the 'spawn' start method",
    f='multiproc_executor.py:585'), '(VllmWorker TP0 pid=400) ') + '\n')

# An engine ERROR line that only a cause's pattern matches is still the error the verdict quotes
case('c2_v1_error_line', 'crashed', 'launch', 'worker_start_method', vl(VHEAD + [
    ('ERROR', 'multiproc_executor.py:585', "Cannot re-initialize CUDA in forked subprocess. To use CUDA with multiprocessing, you must use the 'spawn' start method"),
    ('ERROR', 'core.py:700', 'EngineCore failed to start.')]) + '\n')

# No GPU: vLLM 0.6+ found no platform; TP larger than the visible GPUs (V1 multiproc)
case('c2_v1_no_platform', 'crashed', 'launch', 'no_gpu_visible', vl([
    ('INFO', '__init__.py:239', 'No platform detected, vLLM is running on UnspecifiedPlatform')] + VHEAD[:2]) + '\n' + '\n'.join(frames([
    ('vllm/engine/arg_utils.py', 'create_engine_config', 'device_config = DeviceConfig(device=self.device)'),
    ('vllm/config.py', '__init__', 'self.device = torch.device(self.device_type)')],
    'RuntimeError: Device string must not be empty')) + '\n')
case('c2_v1_tp_gpus', 'crashed', 'launch', 'parallel_layout', vl(VHEAD) + '\n' + '\n'.join(frames([
    ('vllm/v1/executor/multiproc_executor.py', '_init_executor', 'assert self.world_size <= cuda_device_count_stateless(), (')],
    'AssertionError: please set tensor_parallel_size (4) to less than max local gpu count (2)')) + '\n')

# The packages beside the engine: a name transformers no longer (or not yet) has
case('c2_v04_import_mismatch', 'crashed', 'launch', 'package_mismatch', v0(C2_V04[:1]) + '\n' + '\n'.join(frames([
    ('vllm/entrypoints/openai/api_server.py', '<module>', 'from vllm.engine.arg_utils import AsyncEngineArgs'),
    ('vllm/transformers_utils/tokenizer.py', '<module>', 'from transformers import (AutoTokenizer, PreTrainedTokenizer,')],
    "ImportError: cannot import name 'MistralTokenizer' from 'transformers' (/usr/local/lib/python3.10/dist-packages/transformers/__init__.py)")) + '\n')

# Flags that contradict each other (pydantic's validation error, V1 0.10+)
case('c2_v1_flags', 'crashed', 'launch', 'bad_command', vl(VHEAD[:2]) + '\n' + '\n'.join(frames([
    ('vllm/engine/arg_utils.py', 'create_engine_config', 'scheduler_config = SchedulerConfig(')],
    ['pydantic_core._pydantic_core.ValidationError: 1 validation error for SchedulerConfig',
     '  Value error, max_num_batched_tokens (2048) is smaller than max_model_len (32768). This effectively limits the maximum sequence length to max_num_batched_tokens and makes vLLM reject longer sequences. Please increase max_num_batched_tokens or decrease max_model_len. [type=value_error]'])) + '\n')

# A CUDA OOM is gpu_oom wherever it happens (a bare excerpt too: the phase is not known) ...
case('c2_oom_bare', 'crashed', 'launch', 'gpu_oom', vl([
    ('ERROR', 'core.py:396', 'EngineCore failed to start.'), ('ERROR', 'core.py:396', 'Traceback (most recent call last):'),
    ('ERROR', 'core.py:396', 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.00 GiB. GPU 0 has a total capacity of 23.55 GiB of which 200.00 MiB is free.')]) + '\n')
# ... in the profile run (activations, in the KV phase) ...
case('c2_v1_oom_profile', 'crashed', 'kv_cache', 'gpu_oom', vl(VHEAD + VLOAD + logged('EngineCore failed to start.', [
    ('vllm/v1/engine/core.py', '_initialize_kv_caches', 'available_gpu_memory = self.model_executor.determine_available_memory()'),
    ('vllm/v1/worker/gpu_worker.py', 'determine_available_memory', 'self.model_runner.profile_run()'),
    ('vllm/v1/worker/gpu_model_runner.py', '_dummy_sampler_run', 'raise RuntimeError(')],
    'RuntimeError: CUDA out of memory occurred when warming up sampler with 1024 dummy requests. Please try lowering `max_num_seqs` or `gpu_memory_utilization` when initializing the engine.'),
    '(EngineCore_0 pid=311) ') + '\n')
# ... but kv_memory where the frames allocate the KV cache (V0's cache engine) ...
case('c2_v0_oom_kv_alloc', 'crashed', 'kv_cache', 'kv_memory', v0(V0HEAD + V0LOADED) + '\n' + '\n'.join(frames([
    ('vllm/engine/llm_engine.py', '_initialize_kv_caches', 'self.model_executor.initialize_cache(num_gpu_blocks, num_cpu_blocks)'),
    ('vllm/worker/worker.py', '_init_cache_engine', 'self.cache_engine = ['),
    ('vllm/worker/cache_engine.py', '_allocate_kv_cache', 'torch.zeros(kv_cache_shape,')],
    'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 23.65 GiB of which 1.29 GiB is free.')) + '\n' + MQ_FAILED + '\n')
# ... and orphan_processes where they claim the device before anything is loaded
case('c2_v1_oom_init_device', 'crashed', 'launch', 'orphan_processes', vl(VHEAD + logged('WorkerProc failed to start.', [
    ('vllm/v1/executor/multiproc_executor.py', 'worker_main', 'worker = WorkerProc(*args, **kwargs)'),
    ('vllm/v1/worker/gpu_worker.py', 'init_device', 'torch.cuda.empty_cache()'),
    ('torch/cuda/memory.py', 'empty_cache', 'torch._C._cuda_emptyCache()')],
    'RuntimeError: CUDA error: out of memory', f='multiproc_executor.py:585'), '(VllmWorker TP0 pid=400) ') + '\n')

# Ray's memory monitor killing a worker is a host-RAM OOM record, not a GPU one
case('c2_ray_host_oom', 'crashed', 'weight_load', 'host_oom', v0(V0HEAD[:1] + [
    ('INFO', 'llm_engine.py:237', "Initializing an LLM engine (v0.6.3.post1) with config: model='m', tensor_parallel_size=4"),
    ('INFO', 'model_runner.py:1056', 'Starting to load model m...')]) + '\n' +
    '(raylet) node_manager.cc:3069: 1 Workers (tasks / actors) killed due to memory pressure (OOM), 0 Workers crashed due to other reasons at node (ID: 4b1c, IP: 10.0.0.2) over the last time period.\n' +
    'ray.exceptions.OutOfMemoryError: Task was killed due to the node running low on memory.\n')

# A pod's crash loop whose container was SIGKILLed (Exit Code 137): the kill record beats the loop
case('c2_k8s_exit_137', 'crash_loop', 'weight_load', 'host_oom', vl([
    ('INFO', 'gpu_model_runner.py:1329', 'Starting to load model /models/Qwen2.5-72B...')]) +
    '\nLoading safetensors checkpoint shards:  40% Completed | 14/37 [01:10<01:55,  5.02s/it]\n'
    '    State:          Waiting\n      Reason:       CrashLoopBackOff\n    Last State:     Terminated\n'
    '      Reason:       Error\n      Exit Code:    137\n    Restart Count:  3\n')

# torch.compile's C build without Python.h (a slim image)
case('c2_v1_jit_toolchain', 'crashed', 'compile', 'jit_toolchain', vl(VHEAD + VLOAD + [VCOMP[0]] + logged('EngineCore failed to start.', [
    ('vllm/v1/worker/gpu_model_runner.py', 'profile_run', 'hidden_states = self._dummy_run(self.max_num_tokens)'),
    ('torch/_inductor/codecache.py', 'load', 'raise exc.CppCompileError(cmd, output) from e')],
    ['torch._inductor.exc.InductorError: CppCompileError: C++ compile error',
     '/tmp/torchinductor_root/ab/cab.cpp:1:10: fatal error: Python.h: No such file or directory']), '(EngineCore_0 pid=311) ') + '\n')

# TGI: the launcher's argument validation, too few GPUs for --sharded, a transformers mismatch in
# the shard, and the download step failing for a reason no pattern names
case('c2_tgi_arg_validation', 'crashed', 'launch', 'bad_command', tg([('INFO', '', 'Args { model_id: "m", max_input_length: 8000, max_batch_prefill_tokens: 4096 }')]) +
     '\nError: ArgumentValidation("`max_batch_prefill_tokens` must be >= `max_input_length`. Given: 4096 and 8000")\n')
case('c2_tgi_not_enough_gpus', 'crashed', 'launch', 'no_gpu_visible', tg([('INFO', '', 'Args { model_id: "m", sharded: Some(true), num_shard: None }'),
    ('INFO', '', 'Parsing num_shard from CUDA_VISIBLE_DEVICES/NVIDIA_VISIBLE_DEVICES/ZE_AFFINITY_MASK')]) +
    '\nError: NotEnoughCUDADevices("`sharded` is true but only found 1 CUDA devices")\n')
C2_TGI_TB = ['Traceback (most recent call last):', '  File "/opt/conda/bin/text-generation-server", line 8, in <module>', '    sys.exit(app())',
             '  File "/opt/conda/lib/python3.10/site-packages/text_generation_server/server.py", line 201, in serve_inner', '    model = get_model(',
             '  File "/opt/conda/lib/python3.10/site-packages/text_generation_server/models/__init__.py", line 30, in <module>',
             '    from text_generation_server.models.causal_lm import CausalLM']
case('c2_tgi_cannot_import', 'crashed', 'weight_load', 'package_mismatch', tg(THEAD + [('ERROR', '', 'Error when initializing model')]) + '\n' +
     '\n'.join(C2_TGI_TB + ["ImportError: cannot import name 'Cache' from 'transformers' (/opt/conda/lib/python3.10/site-packages/transformers/__init__.py)"]) + '\n' +
     tg([('ERROR', 'shard-manager: ', 'Shard complete standard error output:\n rank=0'), ('ERROR', '', 'Shard 0 failed to start'),
         ('INFO', '', 'Shutting down shards')], base=30) + '\nError: ShardCannotStart\n')
case('c2_tgi_download_failed', 'crashed', 'download', 'hf_download', tg([('INFO', '', 'Args { model_id: "bigcode/starcoder", num_shard: None }'),
    ('INFO', 'download: ', 'Starting download process.'), ('ERROR', 'download: ', 'Download encountered an error: ')]) + '\n' +
    '\n'.join(['Traceback (most recent call last):', '  File "/opt/conda/bin/text-generation-server", line 8, in <module>', '    sys.exit(app())',
               'ValueError: Could not find any weight files']) + '\n\nError: DownloadError\n')
# A shard SIGKILLed while a warning says flash attention "is not supported" on this GPU
case('c2_tgi_sigkill_over_warning', 'crashed', 'weight_load', 'host_oom', tg(THEAD + [
    ('WARNING', '', 'Could not import Flash Attention enabled models: GPU with CUDA capability 7 0 is not supported'),
    ('ERROR', 'shard-manager: ', 'Shard complete standard error output:\n rank=0'),
    ('ERROR', 'shard-manager: ', 'Shard process was signaled to shutdown with signal 9 rank=0'),
    ('ERROR', '', 'Shard 0 failed to start'), ('INFO', '', 'Shutting down shards')]) + '\nError: ShardCannotStart\n')
# A shard that exits with nothing said about why: no cause is named from the exit alone
case('c2_tgi_exit_only', 'crashed', 'weight_load', None, tg(THEAD + [('ERROR', '', 'Shard 0 failed to start'), ('INFO', '', 'Shutting down shards')]) +
     '\nError: ShardCannotStart\n')
