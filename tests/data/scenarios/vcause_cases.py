# vLLM first causes and crash phases, vcause round (issue 10): each mechanism in more than one
# release's wording, written from vLLM's sources (V0 0.4-0.7, V1 0.8-0.11) and the libraries it
# surfaces (torch inductor, NCCL, FlashInfer). exec'd by make_scenarios.py (uses vl/v0/frames/logged).
VC_EC = '(EngineCore_DP0 pid=230) '
VC_W = '(Worker_TP{} pid={}) '
def vc_v1_loading(ec, w, tp=2):
    # An engine core that set up its message queue (distributed_init for its own rank) and workers
    # that went on to load weights.
    out = [vl(VHEAD, '(APIServer pid=1) '), vl([('INFO', 'shm_broadcast.py:289', "vLLM message queue communication handle: Handle(local_reader_ranks=[0, 1], buffer_handle=(2, 16777216, 10, 'psm_1a2b'), local_subscribe_addr='ipc:///tmp/ab', remote_subscribe_addr=None, remote_addr_ipv6=False)")], ec)]
    for r in range(tp):
        out.append(vl([('INFO', 'parallel_state.py:1165', f'rank {r} in world size {tp} is assigned as DP rank 0, PP rank 0, TP rank {r}, EP rank {r}'),
                       ('INFO', 'gpu_model_runner.py:2602', 'Starting to load model Qwen/Qwen3-8B...')], w(r)))
    return '\n'.join(out)

# A parent's report that a child died (V1 "Worker proc X died unexpectedly" from the engine core,
# V0 "Worker VllmWorkerProcess pid N died, exit code", "Engine core proc X died unexpectedly" from
# the API server) names the process that waited, not the one that failed: the crash is where the
# workers were (loading), not where the engine core's own last line left it (its message queue).
case('vc_relay_worker_died_loading', 'crashed', 'weight_load', 'host_oom', vc_v1_loading(VC_EC, lambda r: VC_W.format(r, 400 + r)) + '\n' +
     (VC_W.format(0, 400) + 'Loading safetensors checkpoint shards:  25% Completed | 1/4 [00:09<00:27,  9.10s/it]\n') +
     vl([('ERROR', 'multiproc_executor.py:154', 'Worker proc VllmWorker-1 died unexpectedly, shutting down executor.')], VC_EC) + '\nKilled')
case('vc_relay_worker_died_compile', 'crashed', 'compile', None, '\n'.join([
    vl(VHEAD, '(APIServer pid=1) '),
    vl([('INFO', 'shm_broadcast.py:289', "vLLM message queue communication handle: Handle(local_reader_ranks=[0, 1], buffer_handle=(2, 16777216, 10, 'psm_1a2b'), local_subscribe_addr='ipc:///tmp/ab', remote_subscribe_addr=None, remote_addr_ipv6=False)")], '(EngineCore_0 pid=311) '),
    vl(VLOAD + [('INFO', 'backends.py:548', "Using cache directory: /root/.cache/vllm/torch_compile_cache/1f2e3d/rank_0_0/backbone for vLLM's torch.compile"),
                ('INFO', 'backends.py:559', 'Dynamo bytecode transform time: 8.01 s')], '(VllmWorker TP0 pid=400) '),
    vl([('ERROR', 'multiproc_executor.py:146', 'Worker proc VllmWorker-0 died unexpectedly, shutting down executor.')], '(EngineCore_0 pid=311) ')]))

# Any module that cannot be imported is a package the image lacks or has in another version
# (FlashInfer selected by VLLM_ATTENTION_BACKEND, xgrammar, a model's extra dependency); the
# engine itself missing stays a bad command, its compiled ops a build mismatch.
case('vc_v06_flashinfer_module_missing', 'crashed', 'launch', 'package_mismatch', v0([
    ('INFO', 'api_server.py:528', 'vLLM API server version 0.6.3'),
    ('INFO', 'llm_engine.py:223', "Initializing an LLM engine (v0.6.3) with config: model='google/gemma-2-9b-it', dtype=torch.bfloat16"),
    ('INFO', 'selector.py:141', 'Using Flashinfer backend.')]) + '\n' + '\n'.join(frames([
    ('vllm/attention/selector.py', 'get_attn_backend', 'from vllm.attention.backends.flashinfer import FlashInferBackend'),
    ('vllm/attention/backends/flashinfer.py', '<module>', 'from flashinfer import BatchDecodeWithPagedKVCacheWrapper')],
    "ModuleNotFoundError: No module named 'flashinfer'")))
case('vc_v1_xgrammar_module_missing', 'crashed', 'launch', 'package_mismatch', vl(VHEAD, '(APIServer pid=1) ') + '\n' + vl(logged('EngineCore failed to start.', [
    ('vllm/v1/engine/core.py', '__init__', 'self.structured_output_manager = StructuredOutputManager(vllm_config)'),
    ('vllm/v1/structured_output/backend_xgrammar.py', '<module>', 'import xgrammar as xgr')],
    "ModuleNotFoundError: No module named 'xgrammar'"), VC_EC))

# Inductor finding no C++ compiler (torch 2.6+ InvalidCxxCompiler, raised through InductorError
# or BackendCompilerFailed) is the missing toolchain, not a compiler bug.
case('vc_v1_inductor_no_cxx', 'crashed', 'compile', 'jit_toolchain', vl(VHEAD + VLOAD + [
    ('INFO', 'backends.py:548', "Using cache directory: /root/.cache/vllm/torch_compile_cache/77aa/rank_0_0/backbone for vLLM's torch.compile"),
    ('INFO', 'backends.py:559', 'Dynamo bytecode transform time: 5.11 s')] + logged('EngineCore failed to start.', [
    ('vllm/compilation/backends.py', 'call_module', 'self.vllm_backend.compiler_manager.compile('),
    ('torch/_inductor/compile_fx.py', 'compile_fx', 'return compile_fx('),
    ('torch/_inductor/cpp_builder.py', 'get_cpp_compiler', 'check_compiler_exist_windows(compiler)')],
    ["torch._dynamo.exc.BackendCompilerFailed: backend='<vllm.compilation.backends.VllmBackend object at 0x7f00>' raised:",
     "InvalidCxxCompiler: No working C++ compiler found in torch._inductor.config.cpp.cxx: (None, 'g++')"]), VC_EC))

# NCCL's IB transport reports a failed completion as "with error N" (2.1x) or "with status=N ...
# vendor err N" (2.2x): a transport problem, not PCIe P2P.
case('vc_nccl_ib_completion_status', 'crashed', 'distributed_init', 'nccl_transport', '\n'.join([
    vl(VHEAD, '(APIServer pid=1) '),
    vl([('INFO', 'pynccl.py:70', 'vLLM is using nccl==2.27.3')], '(RayWorkerWrapper pid=9123, ip=10.0.0.2) '),
    '(RayWorkerWrapper pid=9123, ip=10.0.0.2) n2:9123:9205 [1] transport/net_ib.cc:1696 NCCL WARN NET/IB : Got completion from peer 10.0.0.1<48231> with status=12 opcode=0 len=0 vendor err 129 (Recv) hca mlx5_0',
    vl(logged('EngineCore failed to start.', [('vllm/executor/ray_distributed_executor.py', '_run_workers', 'ray_worker_outputs = ray.get(ray_worker_outputs)')],
       ['torch.distributed.DistBackendError: NCCL error in: /pytorch/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:3356, remote process exited or there was a network error, NCCL version 2.27.3',
        'ncclRemoteError: A call failed possibly due to a network error or a remote process exiting prematurely.']), VC_EC)]))

# NCCL failing to grow its /dev/shm segment names the device as "No space left on device": the
# container's shared memory, not a full disk.
case('vc_nccl_shm_extend', 'crashed', 'distributed_init', 'dev_shm', vl(VHEAD, '(APIServer pid=1) ') + '\n' +
     '(VllmWorker TP0 pid=400) 8c2f:400:400 [0] misc/shmutils.cc:87 NCCL WARN Error: failed to extend /dev/shm/nccl-Ylf0rE to 9637892 bytes, error: No space left on device (28)\n' +
     vl(logged('WorkerProc failed to start.', [('vllm/v1/worker/gpu_worker.py', 'init_device', 'init_worker_distributed_environment(self.vllm_config, self.rank,'),
        ('vllm/distributed/device_communicators/pynccl_wrapper.py', 'NCCL_CHECK', 'raise RuntimeError(f"NCCL error: {error_str}")')],
        'RuntimeError: NCCL error: unhandled system error (run with NCCL_DEBUG=INFO for details)', f='multiproc_executor.py:559'), '(VllmWorker TP0 pid=400) '))

# The attention selector refusing every backend for this GPU (0.10+ "is not valid for this
# configuration. Reason: [... 'compute capability not supported']") is the GPU's feature set.
case('vc_attn_backend_capability', 'crashed', 'weight_load', 'gpu_arch_feature', vl(VHEAD + [
    ('INFO', 'gpu_model_runner.py:2602', 'Starting to load model openai/gpt-oss-20b...')] + logged('EngineCore failed to start.', [
    ('vllm/model_executor/models/gpt_oss.py', '__init__', 'self.attn = Attention('),
    ('vllm/attention/selector.py', '_cached_get_attn_backend', 'attention_cls = current_platform.get_attn_backend_cls('),
    ('vllm/platforms/cuda.py', 'get_attn_backend_cls', 'raise ValueError(')],
    "ValueError: Selected backend _Backend.FLASHINFER is not valid for this configuration. Reason: ['compute capability not supported']"), VC_EC))

# The API server names each engine core that ended and its exit code (0.10+ "Failed core proc(s):
# {'EngineCore_DP0': -9}"): -9 is a SIGKILL, the kernel's OOM killer unless vLLM said otherwise.
case('vc_core_exit_code_sigkill', 'crashed', 'kv_cache', 'host_oom', '\n'.join([
    vl(VHEAD + VLOAD + [('INFO', 'gpu_worker.py:298', 'Available KV cache memory: 51.20 GiB')], VC_EC),
    vl([('ERROR', 'core_client.py:564', 'Engine core proc EngineCore_DP0 died unexpectedly, shutting down client.')], '(APIServer pid=1) '),
    vl(logged(None, [('vllm/v1/engine/utils.py', 'wait_for_engine_startup', 'raise RuntimeError("Engine core initialization failed. "')],
       "RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {'EngineCore_DP0': -9}"), '(APIServer pid=1) ')]))

# A chat template given as a path that cannot be opened (chat_utils, 0.5+) is a bad flag, raised
# while the serving objects are built (http_start).
case('vc_chat_template_path_missing', 'crashed', 'http_start', 'bad_command', v0([
    ('INFO', 'api_server.py:528', 'vLLM API server version 0.6.3'),
    ('INFO', 'llm_engine.py:223', "Initializing an LLM engine (v0.6.3) with config: model='/models/custom', dtype=torch.bfloat16"),
    ('INFO', 'model_runner.py:1067', 'Loading model weights took 14.9 GB'),
    ('INFO', 'model_runner.py:1512', 'Graph capturing finished in 8 secs.')]) + '\n' + '\n'.join(frames([
    ('vllm/entrypoints/openai/api_server.py', 'init_app_state', 'state.openai_serving_chat = OpenAIServingChat('),
    ('vllm/entrypoints/chat_utils.py', 'load_chat_template', 'raise ValueError(msg) from e')],
    "ValueError: The supplied chat template (./tmpl.jinja) looks like a file path, but it failed to be opened. Reason: [Errno 2] No such file or directory: './tmpl.jinja'")))

# A start that died is never "crashed in ready": V0 before 0.6.1 bound its port last, and a line
# that only a running engine prints after the bind failed does not move where it died.
case('vc_bind_failed_then_stats', 'crashed', 'http_start', 'port_in_use', v0([
    ('INFO', 'api_server.py:149', 'vLLM API server version 0.4.1'),
    ('INFO', 'llm_engine.py:98', "Initializing an LLM engine (v0.4.1) with config: model='meta-llama/Meta-Llama-3-8B-Instruct'"),
    ('INFO', 'model_runner.py:867', 'Graph capturing finished in 5 secs.')]) + '\nINFO:     Started server process [7]\nINFO:     Waiting for application startup.\nINFO:     Application startup complete.\n' +
    "ERROR:    [Errno 98] error while attempting to bind on address ('0.0.0.0', 8000): address already in use\n" +
    v0([('INFO', 'metrics.py:229', 'Avg prompt throughput: 0.0 tokens/s, Avg generation throughput: 0.0 tokens/s, Running: 0 reqs, Swapped: 0 reqs, Pending: 0 reqs, GPU KV cache usage: 0.0%, CPU KV cache usage: 0.0%')], m=1))

# vLLM 0.6.2+ finds no config it can read (no config.json locally, none reachable on the Hub: a
# typo, a gated or private repo, no network) and says "No supported config format found in X":
# the model could not be fetched. Behind kubectl, each restart of the pod ends the same way.
case('vc_no_config_format_pod_loop', 'crash_loop', 'launch', 'hf_download', '\n'.join([
    '$ kubectl get pods', 'NAME                                  READY   STATUS             RESTARTS      AGE',
    'vllm-llama-deployment-7c9d8f6b5-qwz8t   0/1     CrashLoopBackOff   4 (50s ago)   4m',
    '$ kubectl logs vllm-llama-deployment-7c9d8f6b5-qwz8t',
    vl(VHEAD[:1]), '\n'.join(frames([('vllm/engine/arg_utils.py', 'create_model_config', 'return ModelConfig('),
        ('vllm/transformers_utils/config.py', 'get_config', 'raise ValueError(f"No supported config format found in {model}.")')],
        'ValueError: No supported config format found in meta-llama/Llama-3.2-1B-Instruct.'))]))

# Start failures in vLLM's own words that named no cause (each raised in one place of the sources):
# the multiproc executor's world-size check (0.9+ "please ensure that world_size (N) is less than
# than max local gpu count (M)"), the scheduler's max_num_batched_tokens < max_num_seqs (verl and
# other RL rollouts set both), the default weight loader's shape assert (a checkpoint this version
# or this layout cannot read), torch's CPU allocator running out of host RAM while the checkpoint
# is read, and a CUDA library of another major version missing from the image.
case('vc_world_size_over_local_gpus', 'crashed', 'launch', 'parallel_layout', vl(VHEAD) + '\n' + vl(logged('EngineCore failed to start.', [
    ('vllm/v1/executor/multiproc_executor.py', '_init_executor', 'raise RuntimeError(')],
    'RuntimeError: please ensure that world_size (8) is less than than max local gpu count (4)'), VC_EC))
case('vc_batched_tokens_under_num_seqs', 'crashed', 'launch', 'bad_command', '\n'.join(
    ['(WorkerDict pid=91823) ' + l for l in frames([
        ('vllm/engine/arg_utils.py', 'create_engine_config', 'scheduler_config = SchedulerConfig('),
        ('vllm/config.py', '_verify_args', 'raise ValueError(')],
        'ValueError: max_num_batched_tokens (448) must be greater than or equal to max_num_seqs (1024).')]))
case('vc_weight_shape_assert', 'crashed', 'weight_load', 'model_unsupported', v0([
    ('INFO', 'llm_engine.py:232', "Initializing a V0 LLM engine (v0.7.3) with config: model='yuhuili/EAGLE3-LLaMA3.1-Instruct-8B'"),
    ('INFO', 'model_runner.py:1110', 'Starting to load model yuhuili/EAGLE3-LLaMA3.1-Instruct-8B...')]) + '\n' + '\n'.join('[rank0]: ' + l for l in frames([
    ('vllm/model_executor/models/llama.py', 'load_weights', 'weight_loader(param, loaded_weight)'),
    ('vllm/model_executor/model_loader/weight_utils.py', 'default_weight_loader', 'assert param.size() == loaded_weight.size(), (')],
    'AssertionError: Attempted to load weight (torch.Size([4096, 12288])) into parameter (torch.Size([4096, 8192]))')))
case('vc_cpu_allocator_host_ram', 'crashed', 'weight_load', 'host_oom', vl(VHEAD + VLOAD[:1] + logged('EngineCore failed to start.', [
    ('vllm/model_executor/model_loader/weight_utils.py', 'pt_weights_iterator', 'state = torch.load(bin_file, map_location="cpu", weights_only=True)')],
    "RuntimeError: [enforce fail at alloc_cpu.cpp:117] data. DefaultCPUAllocator: not enough memory: you tried to allocate 9961472000 bytes."), VC_EC))
case('vc_cuda_lib_other_major', 'crashed', 'launch', 'cuda_build_mismatch', vl(VHEAD[:1]) + '\n' + '\n'.join(frames([
    ('vllm/platforms/cuda.py', '<module>', 'import vllm._C  # noqa')],
    'ImportError: libcublas.so.11: cannot open shared object file: No such file or directory')))

# NCCL 2.18-2.21 (and RCCL) begin a communicator with "NCCL INFO comm 0x.. rank N nranks M ...
# - Init START" (2.22+ "ncclCommInitRankConfig comm ..."): the distributed init going on, so an
# advisory WARN printed once before it (RCCL's `Missing "iommu=pt"`) is not where the start ended.
case('vc_rccl_advisory_warn_then_init_hang', 'in_progress', 'distributed_init', 'nccl_p2p', v0([
    ('INFO', 'api_server.py:528', 'vLLM API server version 0.6.3'),
    ('INFO', 'llm_engine.py:223', "Initializing an LLM engine (v0.6.3) with config: model='meta-llama/Llama-3.1-8B-Instruct', tensor_parallel_size=2"),
    ('INFO', 'utils.py:1008', 'Found nccl from library librccl.so.1'),
    ('INFO', 'pynccl.py:63', 'vLLM is using nccl==2.20.5')]) + '\n' + '\n'.join([
    'mi:3001:3001 [0] NCCL INFO Bootstrap : Using eno1:192.168.1.20<0>',
    'mi:3001:3001 [0] /src/rccl/src/init.cc:213 NCCL WARN Missing "iommu=pt" from kernel command line which can lead to system instablity or hang!',
    'mi:3001:3001 [0] NCCL INFO NET/Socket : Using [0]eno1:192.168.1.20<0>',
    'mi:3001:3001 [0] NCCL INFO comm 0x55d1c0 rank 0 nranks 2 cudaDev 0 busId 3000 commId 0x6b1c2d - Init START',
    'mi:3001:3001 [0] NCCL INFO Channel 00/02 :    0   1',
    'mi:3001:3001 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC']))

# A start whose last lines are huggingface_hub's own bars is in the Hub download, whichever phase
# the engine fetches in (vLLM and SGLang inside the loader): "Fetching N files"
# (snapshot_download), per-file bars ("model-00002-of-00030.safetensors: 41%|..."), hub 0.1x
# "Downloading (…)". A download still in progress names no failure (hf_download needs a stall),
# only that the start downloads its checkpoint.
case('vc_hub_bars_stuck_in_loader', 'in_progress', 'download', 'hub_download_at_start', vl(VHEAD + VLOAD[:1] + [
    ('INFO', 'weight_utils.py:296', "Using model weights format ['*.safetensors']")], VC_EC) + '\n' + '\n'.join([
    VC_EC + 'Fetching 17 files:   0%|          | 0/17 [00:00<?, ?it/s]',
    VC_EC + 'model-00001-of-00017.safetensors: 100%|██████████| 3.96G/3.96G [00:41<00:00, 95.1MB/s]',
    VC_EC + 'model-00002-of-00017.safetensors:  23%|██▎       | 912M/3.96G [00:40<22:10, 2.29MB/s]']))

# torchrun's elastic agent reports a child it lost ("failed (exitcode: -9) local_rank: 0",
# "Signal 9 (SIGKILL) received by PID N" in ChildFailedError's summary): vLLM run under torchrun
# (external_launcher, RL trainers) killed by the OOM killer while loading.
case('vc_torchrun_child_sigkill', 'crashed', 'weight_load', 'host_oom', vl([
    ('INFO', 'llm_engine.py:221', "Initializing a V1 LLM engine (v0.10.1.1) with config: model='Qwen/Qwen2.5-7B-Instruct', distributed_executor_backend=external_launcher"),
    ('INFO', 'gpu_model_runner.py:1953', 'Starting to load model Qwen/Qwen2.5-7B-Instruct...')]) + '\n' + '\n'.join([
    'E1017 10:02:00.871000 4411 torch/distributed/elastic/multiprocessing/api.py:874] failed (exitcode: -9) local_rank: 0 (pid: 4479) of binary: /usr/bin/python3',
    'torch.distributed.elastic.multiprocessing.errors.ChildFailedError: ', 'Root Cause (first observed failure):', '[0]:',
    '  exitcode  : -9 (pid: 4479)', '  traceback : Signal 9 (SIGKILL) received by PID 4479']))

# torch (2.2+) lists every process holding memory on the GPU in its OOM message: two processes
# with gigabytes each is another server or a leftover run on the same GPU, not a model too big.
case('vc_oom_lists_two_processes', 'crashed', 'kv_cache', 'orphan_processes', vl(VHEAD + VLOAD + logged('EngineCore failed to start.', [
    ('vllm/v1/worker/gpu_worker.py', 'determine_available_memory', 'self.model_runner.profile_run()'),
    ('vllm/v1/worker/gpu_model_runner.py', 'profile_run', 'hidden_states = self._dummy_run(self.max_num_tokens)')],
    'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.02 GiB. GPU 0 has a total capacity of 47.41 GiB of which 312.44 MiB is free. Process 88121 has 21.50 GiB memory in use. Process 90410 has 25.58 GiB memory in use. Of the allocated memory 24.90 GiB is allocated by PyTorch, and 210.11 MiB is reserved by PyTorch but unallocated.'), VC_EC))

# NCCL's own allocations failing ("NCCL WARN Failed to CUDA calloc async 24 bytes", "Failed to
# CUDA malloc N bytes") are the GPU out of memory inside communicator set-up, whatever exception
# torch or vLLM's pynccl raises around them ("unhandled cuda error").
case('vc_nccl_cuda_calloc_failed', 'crashed', 'distributed_init', 'gpu_oom', vl(VHEAD, '(APIServer pid=1) ') + '\n' +
     '(VllmWorker TP1 pid=401) a1b2:401:401 [1] include/alloc.h:124 NCCL WARN Failed to CUDA calloc async 24 bytes\n' +
     vl(logged('WorkerProc failed to start.', [('vllm/v1/worker/gpu_worker.py', 'init_device', 'init_worker_distributed_environment(self.vllm_config, self.rank,'),
        ('vllm/distributed/device_communicators/pynccl_wrapper.py', 'NCCL_CHECK', 'raise RuntimeError(f"NCCL error: {error_str}")')],
        'RuntimeError: NCCL error: unhandled cuda error (run with NCCL_DEBUG=INFO for details)', f='multiproc_executor.py:559'), '(VllmWorker TP1 pid=401) '))

# A crash raised inside the custom all-reduce (vLLM's and SGLang's custom_all_reduce.py:
# registering the graph buffers at the end of a capture, the IPC handle exchange) with an
# exception that names nothing more specific ("CUDA error: invalid argument") is the custom
# all-reduce; an OOM or a P2P error raised there still names itself first.
case('vc_custom_ar_register_graph_buffers', 'crashed', 'cuda_graph', 'custom_allreduce', vl(VHEAD + VLOAD + [
    ('INFO', 'kv_cache_utils.py:853', 'Maximum concurrency for 40,960 tokens per request: 6.90x')], VC_EC) + '\n' +
    (VC_W.format(0, 400) + 'Capturing CUDA graph shapes:  100%|██████████| 67/67 [00:21<00:00,  3.11it/s]\n') +
    vl(logged('WorkerProc hit an exception.', [
        ('vllm/v1/worker/gpu_model_runner.py', 'capture_model', 'with graph_capture(device=self.device):'),
        ('vllm/distributed/parallel_state.py', 'graph_capture', 'with self.device_communicator.ca_comm.capture():'),
        ('vllm/distributed/device_communicators/custom_all_reduce.py', 'capture', 'self.register_graph_buffers()'),
        ('vllm/distributed/device_communicators/custom_all_reduce.py', 'register_graph_buffers', 'ops.register_graph_buffers(self._ptr, handles, offsets)')],
        ['RuntimeError: CUDA error: invalid argument', 'Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.'], f='multiproc_executor.py:671'), VC_W.format(0, 400)))

# vLLM checks the tool-call and reasoning parser names against its registries (0.6-0.8 at
# argument validation; later also when the serving objects are built, after the engine is up):
# a misspelt or another engine's parser name is a bad flag.
case('vc_tool_parser_name', 'crashed', 'launch', 'bad_command', vl(VHEAD[:2], '(APIServer pid=1) ') + '\n' + '\n'.join(frames([
    ('vllm/entrypoints/openai/api_server.py', 'run_server', 'validate_parsed_serve_args(args)'),
    ('vllm/entrypoints/openai/cli_args.py', 'validate_parsed_serve_args', 'raise KeyError(')],
    "KeyError: 'invalid tool call parser: qwen25 (chose from { deepseek_v3, hermes, llama3_json, mistral, qwen3_coder, qwen3_xml })'")))
case('vc_reasoning_parser_after_ready', 'crashed', 'http_start', 'bad_command', vl(VHEAD + VLOAD + [
    ('INFO', 'core.py:214', 'init engine (profile, create kv cache, warmup model) took 58.12 seconds')], VC_EC) + '\n' + vl(logged(None, [
    ('vllm/entrypoints/openai/api_server.py', 'init_app_state', 'state.openai_serving_chat = OpenAIServingChat('),
    ('vllm/reasoning/abs_reasoning_parsers.py', 'get_reasoning_parser', 'raise KeyError(')],
    'KeyError: "Reasoning parser \'qwen25\' not found."'), '(APIServer pid=1) '))

# More of vLLM's and torch's own words: the GPU faulting (uncorrectable ECC error: a new cause,
# gpu_fault), torch's "CUDA unknown error - this may be due to an incorrectly set up environment"
# (the container's or host's GPU set-up, e.g. nvidia-uvm gone after a suspend), torch failing to
# mmap a checkpoint ("Cannot allocate memory (12)": host RAM), vLLM's own trust_remote_code advice
# for a config it cannot load, AWQ checkpoints of another bit width.
case('vc_ecc_uncorrectable_capture', 'crashed', 'cuda_graph', 'gpu_fault', vl(VHEAD + VLOAD + [
    ('INFO', 'kv_cache_utils.py:853', 'Maximum concurrency for 40,960 tokens per request: 6.90x')] + logged('EngineCore failed to start.', [
    ('vllm/v1/worker/gpu_model_runner.py', 'capture_model', 'self._dummy_run(num_tokens, skip_attn=skip_attn)')],
    'RuntimeError: CUDA error: uncorrectable ECC error encountered'), VC_EC))
case('vc_cuda_unknown_error_env', 'crashed', 'launch', 'no_gpu_visible', vl(VHEAD) + '\n' + vl(logged('EngineCore failed to start.', [
    ('vllm/v1/worker/gpu_worker.py', 'init_device', 'torch.cuda.set_device(self.device)'),
    ('torch/cuda/__init__.py', '_lazy_init', 'torch._C._cuda_init()')],
    'RuntimeError: CUDA unknown error - this may be due to an incorrectly set up environment, e.g. changing env variable CUDA_VISIBLE_DEVICES after program start. Setting the available devices to be zero.'), VC_EC))
case('vc_mmap_enomem_loading', 'crashed', 'weight_load', 'host_oom', vl(VHEAD + VLOAD[:1] + logged('EngineCore failed to start.', [
    ('vllm/model_executor/model_loader/weight_utils.py', 'safetensors_weights_iterator', 'state_dict = load_file(st_file)')],
    'RuntimeError: unable to mmap 4966280704 bytes from file </models/Qwen3-8B/model-00001-of-00005.safetensors>: Cannot allocate memory (12)'), VC_EC))
case('vc_model_config_trust_remote_code', 'crashed', 'launch', 'tokenizer_remote_code', vl(VHEAD[:2], '(APIServer pid=1) ') + '\n' + '\n'.join(frames([
    ('vllm/transformers_utils/config.py', 'get_config', 'raise RuntimeError(err_msg) from e')],
    'RuntimeError: Failed to load the model config. If the model is a custom model not yet available in the HuggingFace transformers library, consider setting `trust_remote_code=True` in LLM or using the `--trust-remote-code` flag in the CLI.')))
case('vc_awq_bits', 'crashed', 'weight_load', 'model_unsupported', v0([
    ('INFO', 'llm_engine.py:223', "Initializing an LLM engine (v0.6.3) with config: model='org/Llama-3-8B-AWQ-8bit', quantization=awq"),
    ('INFO', 'model_runner.py:1056', 'Starting to load model org/Llama-3-8B-AWQ-8bit...')]) + '\n' + '\n'.join(frames([
    ('vllm/model_executor/model_loader/loader.py', '_get_quantization_config', 'quant_config = get_quant_config(model_config, load_config)'),
    ('vllm/model_executor/layers/quantization/awq.py', '__init__', 'raise ValueError(')],
    'ValueError: Currently, only 4-bit weight quantization is supported for AWQ, but got 8 bits.')))
