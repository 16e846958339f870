# Cases for the first named cause when several causes' evidence is in one excerpt (issue 10, 2.7):
# the root error comes before what it brings down. Run by make_scenarios.py (exec'd there: case,
# vl, frames, logged, sg, pyframes, tg, SHEAD, SDIST, VHEAD, THEAD come from it). Wording from the
# engines' sources (vLLM V1 multiproc executor, torch c10d, SGLang launcher, TGI launcher, Triton).

C3_W0, C3_W1 = '(VllmWorker TP0 pid=400) ', '(VllmWorker TP1 pid=401) '
C3_LOAD = [('vllm/v1/executor/multiproc_executor.py', 'worker_main', 'worker = WorkerProc(*args, **kwargs)'),
           ('vllm/v1/worker/gpu_worker.py', 'load_model', 'self.model_runner.load_model(eep_scale_up=eep_scale_up)'),
           ('vllm/v1/worker/gpu_model_runner.py', 'load_model', 'self.model = model_loader.load_model(')]
C3_CORE = vl(logged('EngineCore failed to start.', [('vllm/v1/engine/core.py', 'run_engine_core', 'engine_core = EngineCoreProc(*args, **kwargs)'),
    ('vllm/v1/executor/multiproc_executor.py', 'wait_for_ready', 'raise e from None')],
    'Exception: WorkerProc initialization failed due to an exception in a background process. See stack trace for root cause.'), '(EngineCore_0 pid=311) ').replace('10:00:', '10:11:')
def c3_worker_dies(exc, extra_frames):
    return vl(VHEAD + [('INFO', 'gpu_model_runner.py:1953', 'Starting to load model Qwen/Qwen3-8B...')], C3_W0) + '\n' + \
        vl(logged('WorkerProc failed to start.', C3_LOAD + extra_frames, exc, f='multiproc_executor.py:559'), C3_W1).replace('10:00:', '10:01:')

# A rank's own error, then its peer's rendezvous timeout (torch's TCP store): the peer's timeout
# is a consequence of the rank that died, not a network problem; the earliest quoted error decides.
case('c3_oom_then_store_timeout', 'crashed', 'weight_load', 'gpu_oom', c3_worker_dies(
    'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 448.00 MiB. GPU 1 has a total capacity of 23.68 GiB of which 300.06 MiB is free.',
    [('torch/utils/_device.py', '__torch_function__', 'return func(*args, **kwargs)')]) + '\n' +
    'torch.distributed.DistStoreError: Timed out after 601 seconds waiting for clients. 1/2 clients joined.\n' + C3_CORE)
case('c3_missing_shard_then_store_timeout', 'crashed', 'weight_load', 'corrupt_safetensors', c3_worker_dies(
    "FileNotFoundError: [Errno 2] No such file or directory: '/models/llama-70b/model-00011-of-00030.safetensors'",
    [('vllm/model_executor/model_loader/weight_utils.py', 'safetensors_weights_iterator', 'with safe_open(st_file, framework="pt") as f:')]) + '\n' +
    '[rank0]:[E820 10:10:05.000 socket.cpp:1011] [c10d] The client socket has timed out after 600000ms while trying to connect to (127.0.0.1, 40123).\n' +
    'torch.distributed.DistStoreError: Timed out after 601 seconds waiting for clients. 1/2 clients joined.\n' + C3_CORE)

# Two nodes: a rank on node 2 ran out of GPU memory; node 1's c10d wait then times out. A
# multi-node job's timeout is a rendezvous cause only where nothing else failed first.
case('c3_multinode_oom_then_timeout', 'crashed', 'weight_load', 'gpu_oom',
    sg(["server_args=ServerArgs(model_path='m', tp_size=16, nnodes=2, node_rank=0, dist_init_addr='10.0.0.1:5000')"]) + '\n' +
    sg(SDIST + ['Load weight begin. avail mem=78.50 GB'], tp=0) + '\n' +
    sg(['Scheduler hit an exception: Traceback (most recent call last):'] + pyframes([('managers/scheduler.py', 'run_scheduler_process'), ('model_executor/model_runner.py', 'load_model')]) +
       ['torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.50 GiB.'], tp=9, m=1) + '\n' +
    sg(['[c10d] waitForInput: socket SocketImpl(fd=30, remote=[10.0.0.2]:5000) timed out after 1800000ms'], tp=0, m=31))

# SGLang's launcher kills its own process tree when a child reports a failure (SIGQUIT): the shell's
# "Killed" that follows is that kill, not a host OOM; the child's error is the cause.
case('c3_sglang_self_kill', 'crashed', 'launch', 'port_in_use', sg(SHEAD) + '\n' +
    sg(['Scheduler hit an exception: Traceback (most recent call last):'] + pyframes([('managers/scheduler.py', 'run_scheduler_process'), ('utils.py', 'get_zmq_socket')]) +
       ["zmq.error.ZMQError: Address already in use (addr='tcp://127.0.0.1:30001')"], tp=0) + '\n' +
    '[2025-09-22 10:01:30] Received sigquit from a child process. It usually means the child failed.\nKilled')

# vLLM 0.10.2+ logs at ERROR, on every start, that an optional Triton kernel package is missing (it
# gates only the mxfp4 MoE path): not the error of a start that failed for another reason.
case('c3_vllm_triton_kernels_noise', 'crashed', 'launch', 'hf_download', '\n'.join([
    "INFO 08-20 10:00:00 [__init__.py:225] Automatically detected platform cuda.",
    "ERROR 08-20 10:00:01 [config.py:26] Failed to import Triton kernels. Please make sure your triton version is compatible. Error: No module named 'triton.language.target_info'",
    "ERROR 08-20 10:00:01 [gpt_oss_triton_kernels_moe.py:27] Failed to import Triton kernels. Please make sure your triton version is compatible. Error: No module named 'triton.language.target_info'"]) + '\n' +
    vl(VHEAD[:1], '(APIServer pid=1) ').replace('10:00:00', '10:00:02') + '\n' + '\n'.join('(APIServer pid=1) ' + l for l in frames(
    [('huggingface_hub/utils/_http.py', 'hf_raise_for_status', 'raise _format(GatedRepoError, message, response) from e')],
    ['huggingface_hub.errors.GatedRepoError: 403 Client Error. (Request ID: Root=1-69)', '',
     'Cannot access gated repo for url https://huggingface.co/google/gemma-3-27b-it/resolve/main/config.json.'])))

# torch's c10d warns when its IPv6 attempt fails and then binds/connects over IPv4 (TGI shards,
# vLLM workers print it on many starts): a warning, not a port in use or a rendezvous failure.
case('c3_c10d_ipv6_warning', 'crashed', 'weight_load', None, tg(THEAD) + '\n' + tg([
    ('ERROR', 'shard-manager: ', 'Shard complete standard error output:\n\n[W socket.cpp:464] [c10d] The server socket has failed to bind to [::]:29500 (errno: 98 - Address already in use).\n'
     '[W socket.cpp:697] [c10d] The client socket has failed to connect to [localhost]:29500 (errno: 99 - Cannot assign requested address).\n'
     'Traceback (most recent call last):\n  File "/opt/conda/lib/python3.11/site-packages/text_generation_server/server.py", line 200, in serve_inner\n'
     '    model = get_model_with_lora_adapters(\nKeyError: \'model.norm\'\n rank=1'),
    ('ERROR', '', 'Shard 1 failed to start'), ('INFO', '', 'Shutting down shards')], base=30) + '\nError: ShardCannotStart')

# NCCL's own words for a CUDA allocation that failed while it set up its buffers
case('c3_nccl_cuda_oom', 'crashed', 'distributed_init', 'gpu_oom', vl(VHEAD + [
    ('INFO', 'parallel_state.py:1134', 'rank 0 in world size 2 is assigned as DP rank 0, PP rank 0, TP rank 0, EP rank 0')], C3_W0) + '\n' +
    "a1b2:400:400 [0] include/alloc.h:103 NCCL WARN Cuda failure 'out of memory'\n" +
    vl(logged('WorkerProc failed to start.', [('vllm/v1/worker/gpu_worker.py', 'init_device', 'init_worker_distributed_environment(self.vllm_config, self.rank,'),
        ('vllm/distributed/device_communicators/pynccl.py', '__init__', 'self.comm: ncclComm_t = self.nccl.ncclCommInitRank(')],
        'RuntimeError: NCCL error: unhandled cuda error (run with NCCL_DEBUG=INFO for details)', f='multiproc_executor.py:559'), C3_W0).replace('10:00:', '10:01:'))

# TensorRT-LLM's runtime checks the MPI world against the engine's TP x PP (worldConfig.cpp): an
# engine built for two GPUs started with one rank. Triton wraps it in "failed to load".
case('c3_triton_world_size', 'crashed', 'weight_load', 'parallel_layout', '\n'.join([
    'I0501 01:00:00.245480 1 pinned_memory_manager.cc:277] Pinned memory pool is successfully allocated at address 0x7f0000000000 and size 268435456',
    'I0501 01:00:01.245480 1 model_lifecycle.cc:469] loading: tensorrt_llm:1',
    '[TensorRT-LLM][INFO] Initializing MPI with thread mode 3', '[TensorRT-LLM][INFO] MPI size: 1, rank: 0',
    "E0501 01:00:05.245480 1 model_lifecycle.cc:638] failed to load 'tensorrt_llm' version 1: Internal: unexpected error when creating modelInstanceState: [TensorRT-LLM][ERROR] Assertion failed: mpiSize == tp * pp (/tmp/tritonbuild/tensorrtllm/tensorrt_llm/cpp/tensorrt_llm/runtime/worldConfig.cpp:99)",
    'error: creating server: Internal - failed to load all models']))

# vLLM 0.10's worker tag names its parallel ranks ("(VllmWorker TP1 pid=401) "): read as the rank
# behind a wrapper too (docker logs --timestamps), so the worker's own error is the one quoted.
case('c3_vllm010_tag_behind_docker', 'crashed', 'weight_load', 'corrupt_safetensors', '\n'.join(
    f'2025-08-20T10:{i // 60:02d}:{i % 60:02d}.123456789Z {l}' for i, l in enumerate(c3_worker_dies(
    "FileNotFoundError: [Errno 2] No such file or directory: '/models/llama-70b/model-00011-of-00030.safetensors'",
    [('vllm/model_executor/model_loader/weight_utils.py', 'safetensors_weights_iterator', 'with safe_open(st_file, framework="pt") as f:')]).split('\n') +
    ['torch.distributed.DistStoreError: Timed out after 601 seconds waiting for clients. 1/2 clients joined.'])))

# A restarted start: the cause's evidence in an earlier attempt may be only a warning; the judged
# attempt's quoted error for the same cause speaks for it (a warning elsewhere does not outrank it).
def c3_restart_attempt(m, crash):
    head = vl([('INFO', 'api_server.py:1805', 'vLLM API server version 0.10.1'),
               ('WARNING', '_custom_ops.py:20', "Failed to import from vllm._C with ImportError('libcudart.so.12: cannot open shared object file: No such file or directory')"),
               ('INFO', 'core.py:75', "Initializing a V1 LLM engine (v0.10.1) with config: model='Qwen/Qwen2.5-VL-7B'"),
               ('WARNING', 'registry.py:300', 'Sliding window attention is not supported by this attention backend; the model runs without it.'),
               ('INFO', 'gpu_model_runner.py:1953', 'Starting to load model Qwen/Qwen2.5-VL-7B...')]).replace('10:00:', f'10:{m:02d}:')
    if not crash:
        return head
    return head + '\n' + vl(logged('EngineCore failed to start.', [('vllm/v1/worker/gpu_model_runner.py', 'load_model', 'self.model = model_loader.load_model('),
        ('vllm/model_executor/layers/quantization/awq_marlin.py', 'create_weights', 'raise NotImplementedError(')],
        'NotImplementedError: AWQ Marlin does not support group_size = 64 with input_size_per_partition = 1408 for this layer.'), '(EngineCore_0 pid=311) ').replace('10:00:', f'10:{m:02d}:3')
case('c3_cause_from_judged_attempt', 'crashed', 'weight_load', 'model_unsupported', c3_restart_attempt(0, False) + '\n' + c3_restart_attempt(2, True))

# torch shares tensors between processes through files in /dev/shm: a full /dev/shm reads "unable to
# write to file </torch_...>: No space left on device" (the shm cause, not a full disk); DataLoader-
# style workers say "insufficient shared memory (shm)".
case('c3_torch_shm_file', 'crashed', 'weight_load', 'dev_shm', v0([('INFO', 'api_server.py:206', 'vLLM API server version 0.5.1'),
    ('INFO', 'llm_engine.py:169', "Initializing an LLM engine (v0.5.1) with config: model='m', tensor_parallel_size=2")]) + '\n' + '\n'.join(frames([
    ('vllm/executor/multiproc_gpu_executor.py', '_init_executor', 'self._run_workers("load_model")'),
    ('torch/multiprocessing/reductions.py', 'reduce_storage', 'fd, size = storage._share_fd_cpu_()')],
    'RuntimeError: unable to write to file </torch_1234_5678_0>: No space left on device (28)')))

# A local model directory without its config: Python's own words (no transformers wrapper)
case('c3_missing_local_config', 'crashed', 'launch', 'hf_download', vl(VHEAD[:2]) + '\n' + '\n'.join(frames([
    ('vllm/transformers_utils/config.py', 'get_config', 'with open(config_file) as f:')],
    "FileNotFoundError: [Errno 2] No such file or directory: '/models/Qwen3-32B/config.json'")))

# TGI's router (v2+) loads the tokenizer through Python before it binds: its failure and the
# launcher's exit in the router's words.
case('c3_tgi_router_tokenizer', 'crashed', 'http_start', 'tokenizer_remote_code', tg(TGI_UP + [
    ('ERROR', 'text_generation_router::server: ', 'router/src/server.rs:1698: Failed to import python tokenizer Python error: KeyError: \'tokenizer_class\''),
    ('ERROR', '', 'Webserver Crashed'), ('INFO', '', 'Shutting down shards')]) + '\nError: WebServer(Tokenizer("Unable to load tokenizer."))')

# A crash raised by the compiler itself (dynamo, inductor, Triton) names compile_failed when no
# more specific cause is in the excerpt; its evidence ranks below any cause's own pattern (a GPU
# that lacks the shared memory a Triton kernel asks for is gpu_arch_feature).
C3_COMPILE = [('vllm/v1/worker/gpu_model_runner.py', 'profile_run', 'hidden_states = self._dummy_run(self.max_num_tokens)'),
              ('vllm/compilation/backends.py', '__call__', 'self.split_gm = split_graph(graph, self.compilation_config.splitting_ops)'),
              ('torch/_dynamo/output_graph.py', '_call_user_compiler', 'raise BackendCompilerFailed(self.compiler_fn, e) from e')]
case('c3_compile_failed', 'crashed', 'compile', 'compile_failed', vl(VHEAD + VLOAD + VCOMP[:2] + logged('EngineCore failed to start.', C3_COMPILE,
    ["torch._dynamo.exc.Unsupported: Graph break due to unsupported builtin _operator.getitem. This function is either a Python builtin (e.g. _warnings.warn) or a third-party C/C++ Python extension."]), '(EngineCore_0 pid=311) '))
case('c3_compile_shared_memory', 'crashed', 'compile', 'gpu_arch_feature', vl(VHEAD + VLOAD + VCOMP[:2] + logged('EngineCore failed to start.', C3_COMPILE,
    ["torch._dynamo.exc.BackendCompilerFailed: backend='<vllm.compilation.backends.VllmBackend object at 0x7f2b>' raised:",
     'OutOfResources: out of resource: shared memory, Required: 135168, Hardware limit: 101376. Reducing block sizes or `num_stages` may help.']), '(EngineCore_0 pid=311) '))
