# Crash phases of partial excerpts, vphase2 round (issue 10): written from the engines' code paths
# (vLLM V0 0.4-0.6 ModelRunner.profile_run, V1 0.8-0.11 GPUModelRunner._dummy_run/_dummy_sampler_run,
# pynccl's NCCL_CHECK, Triton's runtime/build.py, TGI's FlashCausalLM.warmup, TensorRT-LLM's
# PyTorch model engine), never from corpus logs. exec'd by make_scenarios.py.
# A "fallback.*" frame (a model's forward, or a message that names the work) places a crash only
# where no other frame of the attempt did, and like every frame only moves it forward.
_P2 = '/usr/local/lib/python3.12/dist-packages/'
def _p2_tail(fr, exc, pre=''):
    out = []
    for i, (path, fn, code) in enumerate(fr):
        out += [f'{pre}  File "{_P2}{path}", line {120 + 7 * i}, in {fn}', f'{pre}    {code}']
    return '\n'.join(out + [pre + e for e in (exc if isinstance(exc, list) else [exc])])
_P2_FWD = [('vllm/model_executor/models/qwen2.py', 'forward', 'hidden_states, residual = layer(positions, hidden_states, residual)'),
           ('torch/nn/modules/module.py', '_call_impl', 'return forward_call(*args, **kwargs)'),
           ('vllm/model_executor/models/qwen2.py', 'forward', 'hidden_states = self.mlp(hidden_states)'),
           ('vllm/model_executor/layers/activation.py', 'forward_cuda', 'out = torch.empty(output_shape, dtype=x.dtype, device=x.device)')]
_P2_OOM = 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.19 GiB of which 1.06 GiB is free.'

# Only the model's forward frames of a worker (the paste cut the engine frames above them): the
# first forward after the weights is the profile run that sizes the KV cache.
case('vp2_vllm_worker_forward_tail', 'crashed', 'kv_cache', '*',
     _p2_tail(_P2_FWD, _P2_OOM, '(VllmWorker rank=1 pid=3301) ERROR 09-14 10:00:00 [multiproc_executor.py:527] '))
# V0, no prefix at all: ModelRunner.execute_model runs first inside profile_run.
case('vp2_v0_forward_tail', 'crashed', 'kv_cache', '*', _p2_tail(
    [('vllm/worker/model_runner.py', 'execute_model', 'hidden_or_intermediate_states = model_executable(')] + _P2_FWD,
    'torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.95 GiB (GPU 0; 22.05 GiB total capacity; 19.90 GiB already allocated)'))
# A forward frame never overrides a frame that names its step: capture's frames above it win.
case('vp2_vllm_capture_over_forward', 'crashed', 'cuda_graph', '*', _p2_tail(
    [('vllm/v1/worker/gpu_model_runner.py', 'capture_model', 'self._capture_cudagraphs('),
     ('vllm/v1/worker/gpu_model_runner.py', '_dummy_run', 'outputs = self.model(')] + _P2_FWD, _P2_OOM))
# TGI: a shard's forward is the router's warm-up (the prefill that sizes the KV cache).
case('vp2_tgi_shard_forward_tail', 'crashed', 'kv_cache', '*',
     '2024-09-14T10:00:00.000000Z ERROR shard-manager: text_generation_launcher: Shard complete standard error output:\n' +
     _p2_tail([('text_generation_server/models/custom_modeling/flash_llama_modeling.py', 'forward', 'hidden_states = self.model('),
               ('text_generation_server/layers/attention/cuda.py', 'attention', 'out = torch.empty_like(query)')],
              'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 512.00 MiB.'))
# TensorRT-LLM's PyTorch backend: its first forward is the KV-cache estimation run.
case('vp2_trt_forward_tail', 'crashed', 'kv_cache', '*',
     '[09/14/2025-10:00:00] [TRT-LLM] [E] Failed to initialize executor on rank 0: CUDA out of memory.\n' +
     _p2_tail([('tensorrt_llm/_torch/pyexecutor/model_engine.py', 'forward', 'outputs = self._forward_step(inputs, gather_ids,'),
               ('tensorrt_llm/_torch/models/modeling_llama.py', 'forward', 'hidden_states = decoder_layer(')],
              'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.00 GiB.'))
# vLLM's pynccl raises "NCCL error: ..." (NCCL_CHECK) from ncclCommInitRank and its first
# all-reduce, both in distributed init; torch's Dist*Error come from init_process_group/rendezvous.
case('vp2_nccl_error_bare', 'crashed', 'distributed_init', '*', """ERROR 09-14 10:00:00 [multiproc_executor.py:397] WorkerProc failed to start.
RuntimeError: NCCL error: unhandled system error (run with NCCL_DEBUG=INFO for details)
""")
case('vp2_dist_network_error_bare', 'crashed', 'distributed_init', '*',
     '(VllmWorker rank=0 pid=3300) ERROR 09-14 10:00:00 [multiproc_executor.py:397] WorkerProc failed to start.\n'
     '(VllmWorker rank=0 pid=3300) ERROR 09-14 10:00:00 [multiproc_executor.py:397] torch.distributed.DistNetworkError: The server socket has failed to listen on any local network address. port: 29500, useIpv6: false, code: -98, name: EADDRINUSE, message: address already in use\n')
# The same message below a frame that names a later step is that step's collective failing.
case('vp2_capture_then_dist_error', 'crashed', 'cuda_graph', '*', _p2_tail(
    [('vllm/v1/worker/gpu_model_runner.py', 'capture_model', 'self._capture_cudagraphs('),
     ('torch/distributed/distributed_c10d.py', 'all_reduce', 'work = group.allreduce([tensor], opts)')],
    'torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1970, unhandled cuda error, NCCL version 2.20.5'))
# The weight loader's shape check, pasted alone.
case('vp2_attempted_load_bare', 'crashed', 'weight_load', '*',
     'AssertionError: Attempted to load weight (torch.Size([2048, 5632])) into parameter (torch.Size([1024, 5632]))\n')
# Triton builds its driver module (cuda_utils) on the first kernel's JIT compile.
case('vp2_triton_build_frames', 'crashed', 'compile', '*',
     _p2_tail([('triton/runtime/jit.py', 'run', 'kernel = self.compile(src, target=target, options=options.__dict__)'),
               ('triton/backends/nvidia/driver.py', '__init__', 'mod = compile_module_from_src(src, "cuda_utils")'),
               ('triton/runtime/build.py', '_build', 'raise RuntimeError("Failed to find C compiler. Please specify via CC environment variable.")')],
              'RuntimeError: Failed to find C compiler. Please specify via CC environment variable.', '(VllmWorker rank=0 pid=3300) ERROR 09-14 10:00:00 [multiproc_executor.py:527] '))
case('vp2_c_compiler_bare', 'crashed', 'compile', '*', """/tmp/tmpk2l8v3/main.c:5:10: fatal error: Python.h: No such file or directory
compilation terminated.
subprocess.CalledProcessError: Command '['/usr/bin/gcc', '/tmp/tmpk2l8v3/main.c', '-O3', '-shared', '-fPIC', '-o', '/tmp/tmpk2l8v3/cuda_utils.so', '-lcuda']' returned non-zero exit status 1.
""")
