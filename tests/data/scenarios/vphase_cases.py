# vLLM crash and hang phases, vphase round (issue 10): written from vLLM's sources (V0 0.6
# LLMEngine/model_runner, V1 0.10-0.11 EngineCore/MultiprocExecutor), never from corpus logs.
# exec'd by make_scenarios.py (uses vl/v0/frames/logged and the vcause helpers).

# The engine core of a tensor-parallel start only coordinates: it logs its broadcast queue
# (distributed_init for its own rank), spawns the workers and waits. When a worker is killed while
# loading, the core's own "EngineCore failed to start." (and its traceback through wait_for_ready)
# is not a failure in the core's phase: no peer of the core got further, its workers did. The crash
# is where the workers were.
case('vph_core_failed_after_worker_killed_loading', 'crashed', 'weight_load', '*',
     vc_v1_loading(VC_EC, lambda r: VC_W.format(r, 400 + r)) + '\n' +
     (VC_W.format(0, 400) + 'Loading safetensors checkpoint shards:  50% Completed | 2/4 [00:18<00:18,  9.10s/it]\n') +
     vl([('ERROR', 'multiproc_executor.py:154', 'Worker proc VllmWorker-1 died unexpectedly, shutting down executor.')] +
        logged('EngineCore failed to start.', [
            ('vllm/v1/engine/core.py', 'run_engine_core', 'engine_core = EngineCoreProc(*args, **kwargs)'),
            ('vllm/v1/executor/abstract.py', '__init__', 'self._init_executor()'),
            ('vllm/v1/executor/multiproc_executor.py', '_init_executor', 'self.workers = WorkerProc.wait_for_ready(unready_workers)'),
            ('vllm/v1/executor/multiproc_executor.py', 'wait_for_ready', 'raise e from None')],
            'Exception: WorkerProc initialization failed due to an exception in a background process. See stack trace for root cause.'), VC_EC) + '\n' +
     vl([('ERROR', 'core_client.py:1', l) for l in frames([('vllm/v1/engine/utils.py', 'wait_for_engine_startup', 'raise RuntimeError("Engine core initialization failed. "')],
        'RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}')], '(APIServer pid=1) '))

# vLLM has no warm-up step after CUDA graph capture (no warm-up request either: startup-phases.md
# 2.2): V0's LLMEngine returns to the API server, which builds its app and starts uvicorn. A log
# that ends after "Graph capturing finished" is in the HTTP start, not in a "warmup" vLLM never has.
case('vph_v06_ends_after_graph_capture', 'in_progress', 'http_start', None, v0([
    ('INFO', 'api_server.py:528', 'vLLM API server version 0.6.3.post1'),
    ('INFO', 'llm_engine.py:237', "Initializing an LLM engine (v0.6.3.post1) with config: model='Qwen/Qwen2.5-7B-Instruct', dtype=torch.bfloat16"),
    ('INFO', 'model_runner.py:1056', 'Starting to load model Qwen/Qwen2.5-7B-Instruct...'),
    ('INFO', 'model_runner.py:1067', 'Loading model weights took 14.99 GB'),
    ('INFO', 'gpu_executor.py:122', '# GPU blocks: 2000, # CPU blocks: 4681'),
    ('INFO', 'model_runner.py:1390', "Capturing the model for CUDA graphs. This may lead to unexpected consequences if the model is not static. To run the model in eager mode, set 'enforce_eager=True' or use '--enforce-eager' in the CLI."),
    ('INFO', 'model_runner.py:1518', 'Graph capturing finished in 12 secs.')]))

# V1's compile_or_warm_up_model goes on after the capture (gpu_worker.py: capture_model(), then
# _dummy_sampler_run() to warm the sampler up and preallocate its buffers), and V1's line says
# what the graphs took ("Graph capturing finished in 12 secs, took 0.52 GiB"): the step is still
# the capture's until the engine core's "init engine ... took". V0's capture ends its engine's start
# ("... finished in 12 secs." alone). The sampler's OOM message is also raised in the profile run
# (kv_cache), so only the lines around it say which.
VPH_V1_CAPTURED = [('INFO', 'gpu_model_runner.py:2602', 'Starting to load model Qwen/Qwen3-8B...'),
                   ('INFO', 'gpu_model_runner.py:2653', 'Model loading took 15.27 GiB and 3.92 seconds'),
                   ('INFO', 'gpu_worker.py:276', 'Available KV cache memory: 50.00 GiB'),
                   ('INFO', 'kv_cache_utils.py:849', 'GPU KV cache size: 400,000 tokens'),
                   ('INFO', 'gpu_model_runner.py:2708', 'Graph capturing finished in 12 secs, took 0.52 GiB')]
case('vph_v1_sampler_oom_after_capture', 'crashed', 'cuda_graph', 'gpu_oom', vl(VHEAD, '(APIServer pid=1) ') + '\n' + vl(VPH_V1_CAPTURED + [
    ('ERROR', 'core.py:708', 'EngineCore failed to start.'),
    ('ERROR', 'core.py:708', 'RuntimeError: CUDA out of memory occurred when warming up sampler with 1024 dummy requests. Please try lowering `max_num_seqs` or `gpu_memory_utilization` when initializing the engine.')],
    '(EngineCore_0 pid=311) '))
case('vph_v1_ends_after_capture', 'in_progress', 'cuda_graph', None, vl(VHEAD, '(APIServer pid=1) ') + '\n' + vl(VPH_V1_CAPTURED, '(EngineCore_0 pid=311) '))

# A notebook (Jupyter, Colab, Kaggle: vLLM's offline LLM(...)) prints IPython's traceback, not
# Python's: "File /path/x.py:162, in Worker.determine_num_available_blocks(self)" (IPython 8) or
# "/path/x.py in determine_num_available_blocks(self)" (older), so the frame table's Python form
# ('File "x.py", line N, in name') never matched and a pasted cell error was placed in launch.
def vph_ipy(frames, exc, old=False):
    out = ['---------------------------------------------------------------------------',
           exc.split(':')[0].ljust(42) + 'Traceback (most recent call last)',
           'Cell In[3], line 3' if not old else '<ipython-input-3-5f2c1d> in <module>',
           '----> 3 llm = LLM(model="mistralai/Mistral-7B-Instruct-v0.2")', '']
    for path, fn, code in frames:
        head = f'File /usr/local/lib/python3.10/dist-packages/{path}:120, in {fn}' if not old else f'/usr/local/lib/python3.10/dist-packages/{path} in {fn.split(".")[-1]}'
        out += [head, f'--> 120 {code}', '']
    return '\n'.join(out + [exc])
case('vph_notebook_profile_oom', 'crashed', 'kv_cache', 'gpu_oom', vph_ipy([
    ('vllm/entrypoints/llm.py', 'LLM.__init__(self, model, tokenizer, **kwargs)', 'self.llm_engine = LLMEngine.from_engine_args('),
    ('vllm/engine/llm_engine.py', 'LLMEngine._initialize_kv_caches(self)', 'num_gpu_blocks, num_cpu_blocks = ('),
    ('vllm/worker/worker.py', 'Worker.determine_num_available_blocks(self)', 'self.model_runner.profile_run()'),
    ('vllm/worker/model_runner.py', 'ModelRunner.profile_run(self)', 'self.execute_model(seqs, kv_caches)')],
    'OutOfMemoryError: CUDA out of memory. Tried to allocate 1.95 GiB. GPU 0 has a total capacity of 14.75 GiB of which 1.25 GiB is free.'))
case('vph_notebook_old_ipython_load', 'crashed', 'weight_load', '*', vph_ipy([
    ('vllm/entrypoints/llm.py', 'LLM.__init__(self, model, tokenizer, **kwargs)', 'self.llm_engine = LLMEngine.from_engine_args('),
    ('vllm/worker/worker.py', 'Worker.load_model(self)', 'self.model_runner.load_model()'),
    ('vllm/model_executor/models/llama.py', 'LlamaForCausalLM.load_weights(self, weights)', 'param = params_dict[name]')],
    "KeyError: 'model.layers.0.self_attn.qkv_proj.weight_scale'", old=True))

# Newest vLLM logs a step's end once per node (logger.info_once(..., scope="local"): "Model loading
# took", "Graph capturing finished"), while every worker logs "Starting to load model". Worker_TP1
# then looks as if it never finished loading. But the profile run and the capture are all-reduces
# every tensor-parallel rank does together: a peer seen doing them with lines of its own shows
# TP1 had got there too. A hang is where TP0 is; a crash of TP1 with no frames is where TP0 was.
# (Data-parallel engine cores are not in lockstep: vph leaves their placement as it was.)
def vph_once_per_node(tail):
    lines = [vl(VHEAD, '(APIServer pid=1) ')]
    for r in range(2):
        lines.append(vl([('INFO', 'parallel_state.py:1165', f'rank {r} in world size 2 is assigned as DP rank 0, PP rank 0, TP rank {r}, EP rank {r}'),
                         ('INFO', 'gpu_model_runner.py:2602', 'Starting to load model Qwen/Qwen3-32B...')], VC_W.format(r, 400 + r)))
    lines.append(vl([('INFO', 'gpu_model_runner.py:2653', 'Model loading took 30.59 GiB memory and 21.36 seconds')] + VCOMP +
                    [('INFO', 'gpu_worker.py:255', 'Memory profiling takes 5.21 seconds'), ('INFO', 'gpu_worker.py:276', 'Available KV cache memory: 8.10 GiB')] + tail,
                    VC_W.format(0, 400)))
    return '\n'.join(lines)
case('vph_once_per_node_hang_in_profile', 'in_progress', 'kv_cache', None, vph_once_per_node([]))
case('vph_once_per_node_peer_fails_in_capture', 'crashed', 'cuda_graph', '*', vph_once_per_node(
    [('INFO', 'kv_cache_utils.py:849', 'GPU KV cache size: 282,688 tokens')]) + '\n' +
    VC_W.format(0, 400) + 'Capturing CUDA graphs (mixed prefill-decode, PIECEWISE):  40%|████      | 27/67 [00:09<00:13,  2.95it/s]\n' +
    vl([('ERROR', 'multiproc_executor.py:654', 'WorkerProc hit an exception.'),
        ('ERROR', 'multiproc_executor.py:654', 'RuntimeError: CUDA error: an illegal memory access was encountered')], VC_W.format(1, 401)))
# Lockstep is within one tensor-parallel group: data parallelism with tensor parallelism names its
# workers Worker_DP0_TP0 ... Worker_DP1_TP1; DP0 capturing says nothing of DP1, whose TP1 failed
# loading (its own frames say so too).
case('vph_dp2_tp2_other_group_ahead', 'crashed', 'weight_load', 'gpu_oom', '\n'.join(
    [vl(VHEAD, '(APIServer pid=1) ')] +
    [vl([('INFO', 'gpu_model_runner.py:2602', 'Starting to load model Qwen/Qwen3-30B-A3B...')], f'(Worker_DP{d}_TP{r} pid={400 + 10 * d + r}) ') for d in range(2) for r in range(2)] +
    [vl([('INFO', 'gpu_model_runner.py:2653', 'Model loading took 28.50 GiB memory and 20.10 seconds'), ('INFO', 'gpu_worker.py:276', 'Available KV cache memory: 30.10 GiB')], '(Worker_DP0_TP0 pid=400) '),
     '(Worker_DP0_TP0 pid=400) Capturing CUDA graphs (mixed prefill-decode, PIECEWISE):  20%|██        | 13/67 [00:04<00:18,  2.95it/s]',
     vl(logged('WorkerProc failed to start.', [
         ('vllm/v1/executor/multiproc_executor.py', 'worker_main', 'worker = WorkerProc(*args, **kwargs)'),
         ('vllm/v1/worker/gpu_worker.py', 'load_model', 'self.model_runner.load_model(eep_scale_up=eep_scale_up)'),
         ('vllm/model_executor/layers/fused_moe/layer.py', 'weight_loader', 'expert_data.copy_(loaded_weight)')],
         'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 768.00 MiB. GPU 3 has a total capacity of 79.15 GiB of which 65.81 MiB is free.',
         f='multiproc_executor.py:559'), '(Worker_DP1_TP1 pid=411) ')]))
