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

