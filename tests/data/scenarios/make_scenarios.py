#!/usr/bin/env python3
# Writes tests/data/scenarios/*.log and expect.json: synthetic startup logs, one per failure class,
# in the engines' wording (from their sources and ../shared/docs, never from corpus logs).
# Usage: tests/data/scenarios/make_scenarios.py   (then review the diff and run tests/scenario_test.cc)
import json, os
cases = []
def case(name, state, phase, cause, text):
    cases.append((name, state, phase, cause, text.strip('\n') + '\n'))
V = "INFO 08-20 10:00:{s:02d} [{f}] {m}"
def vl(lines, tag=''):
    out = []
    for i, (lvl, f, m) in enumerate(lines):
        out.append(f"{tag}{lvl} 08-20 10:{i//60:02d}:{i%60:02d} [{f}] {m}")
    return '\n'.join(out)
VHEAD = [('INFO','api_server.py:1805','vLLM API server version 0.10.1'),
         ('INFO','utils.py:326','non-default args: {\'model\': \'Qwen/Qwen3-8B\', \'tensor_parallel_size\': 2}'),
         ('INFO','core.py:75','Initializing a V1 LLM engine (v0.10.1) with config: model=\'Qwen/Qwen3-8B\'')]
VLOAD = [('INFO','gpu_model_runner.py:1953','Starting to load model Qwen/Qwen3-8B...'),
         ('INFO','default_loader.py:262','Loading weights took 20.10 seconds'),
         ('INFO','gpu_model_runner.py:2007','Model loading took 15.27 GiB and 21.02 seconds')]
VCOMP = [('INFO','backends.py:548',"Using cache directory: /root/.cache/vllm/torch_compile_cache/abc/rank_0_0/backbone for vLLM's torch.compile"),
         ('INFO','backends.py:559','Dynamo bytecode transform time: 4.10 s'),
         ('INFO','monitor.py:34','torch.compile takes 14.20 s in total')]
VKV = [('INFO','gpu_worker.py:276','Available KV cache memory: 50.00 GiB'),
       ('INFO','kv_cache_utils.py:849','GPU KV cache size: 400,000 tokens'),
       ('INFO','kv_cache_utils.py:853','Maximum concurrency for 40,960 tokens per request: 9.77x')]
def tb(frames, exc, lvl='ERROR', f='core.py:700'):
    L = [(lvl, f, 'EngineCore failed to start.'), (lvl, f, 'Traceback (most recent call last):')]
    for path, fn in frames:
        L.append((lvl, f, f'  File "/usr/local/lib/python3.12/dist-packages/{path}", line 100, in {fn}'))
        L.append((lvl, f, '    x = y()'))
    L.append((lvl, f, exc))
    return L

case('v1_compile_crash', 'crashed', 'compile', 'compile_failed', vl(VHEAD+VLOAD+VCOMP[:2]+tb(
    [('vllm/v1/engine/core.py','__init__'),('vllm/v1/engine/core.py','_initialize_kv_caches'),
     ('vllm/v1/worker/gpu_worker.py','determine_available_memory'),('vllm/v1/worker/gpu_model_runner.py','profile_run'),
     ('vllm/compilation/backends.py','__call__'),('torch/_inductor/compile_fx.py','compile_fx')],
    "torch._inductor.exc.InductorError: CalledProcessError: Command '['/usr/bin/gcc']' returned non-zero exit status 1."), '(EngineCore_0 pid=311) '))
case('v1_graph_shapes', 'crashed', 'cuda_graph', 'illegal_memory_access', vl(VHEAD+VLOAD+VCOMP+VKV) +
     '\nCapturing CUDA graph shapes:  12%|█▏        | 8/67 [00:02<00:16,  3.62it/s]\n' +
     vl(tb([('vllm/v1/worker/gpu_model_runner.py','_dummy_run')], 'RuntimeError: CUDA error: an illegal memory access was encountered')))
case('v1_graph_mixed', 'crashed', 'cuda_graph', 'illegal_memory_access', vl(VHEAD+VLOAD+VCOMP+VKV) +
     '\nCapturing CUDA graphs (mixed prefill-decode, PIECEWISE):  45%|████▌     | 30/67 [00:05<00:06,  5.90it/s]\n' +
     vl(tb([('vllm/v1/worker/gpu_model_runner.py','_dummy_run')], 'RuntimeError: CUDA error: an illegal memory access was encountered')))
case('v1_kv_nomem', 'crashed', 'kv_cache', 'kv_memory', vl(VHEAD+VLOAD+VCOMP+tb(
    [('vllm/v1/engine/core.py','_initialize_kv_caches'),('vllm/v1/core/kv_cache_utils.py','check_enough_kv_cache_memory')],
    "ValueError: To serve at least one request with the models's max seq len (131072), (16.00 GiB KV cache is needed, which is larger than the available KV cache memory (9.50 GiB). Based on the available memory, the estimated maximum model length is 77000. Try increasing `gpu_memory_utilization` or decreasing `max_model_len` when initializing the engine.")))
case('v1_load_oom', 'crashed', 'weight_load', 'gpu_oom', vl(VHEAD+VLOAD[:1]+tb(
    [('vllm/v1/worker/gpu_model_runner.py','load_model'),('vllm/model_executor/model_loader/base_loader.py','load_model'),
     ('vllm/model_executor/models/qwen3.py','__init__'),('torch/utils/_device.py','__torch_function__')],
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.16 GiB. GPU 0 has a total capacity of 23.53 GiB of which 738.94 MiB is free.")))
case('v1_worker_load_fail', 'crashed', 'weight_load', 'gpu_arch_feature', vl(VHEAD+[('INFO','parallel_state.py:1134','rank 0 in world size 2 is assigned as DP rank 0, PP rank 0, TP rank 0, EP rank 0')]+VLOAD[:1]+
    [('ERROR','multiproc_executor.py:585','WorkerProc failed to start.'),('ERROR','multiproc_executor.py:585','Traceback (most recent call last):'),
     ('ERROR','multiproc_executor.py:585','  File "/usr/local/lib/python3.12/dist-packages/vllm/v1/executor/multiproc_executor.py", line 559, in worker_main'),
     ('ERROR','multiproc_executor.py:585','    worker = WorkerProc(*args, **kwargs)'),
     ('ERROR','multiproc_executor.py:585','  File "/usr/local/lib/python3.12/dist-packages/vllm/v1/worker/gpu_worker.py", line 214, in load_model'),
     ('ERROR','multiproc_executor.py:585','    self.model_runner.load_model(eep_scale_up=eep_scale_up)'),
     ('ERROR','multiproc_executor.py:585',"NotImplementedError: Quantization method fp4 is not supported on this GPU"),
     ('ERROR','core.py:700','EngineCore failed to start.')], '(Worker_TP0 pid=400) '))
case('v1_dist_hang', 'stalled', 'distributed_init', '*', vl(VHEAD+[
    ('DEBUG','parallel_state.py:1000','world_size=2 rank=0 local_rank=0 distributed_init_method=tcp://127.0.0.1:39423 backend=nccl'),
    ('INFO','utils.py:1','Found nccl from library libnccl.so.2'),('INFO','pynccl.py:70','vLLM is using nccl==2.21.5')]) +
    '\n' + vl([('DEBUG','core.py:1','Waiting for 1 local, 0 remote core engine proc(s) to start.')]*1).replace('10:00:00','10:15:00'))
case('v1_ready', 'ready', 'ready', None, vl(VHEAD+VLOAD+VCOMP+VKV+[
    ('INFO','gpu_model_runner.py:2500','Graph capturing finished in 6 secs, took 0.53 GiB'),
    ('INFO','core.py:210','init engine (profile, create kv cache, warmup model) took 44.51 seconds'),
    ('INFO','api_server.py:1','Starting vLLM API server 0 on http://0.0.0.0:8000'),
    ('INFO','launcher.py:1','Available routes are:')]) + '\nINFO:     Started server process [1]\nINFO:     Waiting for application startup.\nINFO:     Application startup complete.\n')
case('v1_addr_in_use', 'crashed', 'http_start', 'port_in_use', vl(VHEAD+VLOAD+VCOMP+VKV+[
    ('INFO','core.py:210','init engine (profile, create kv cache, warmup model) took 44.51 seconds'),
    ('INFO','api_server.py:1','Starting vLLM API server 0 on http://0.0.0.0:8000'),
    ('ERROR','api_server.py:1',"[Errno 98] error while attempting to bind on address ('0.0.0.0', 8000): address already in use")]))
case('v0_mp_nccl_hang', 'stalled', 'distributed_init', '*', """INFO 08-20 10:00:00 api_server.py:206] vLLM API server version 0.5.1
INFO 08-20 10:00:01 llm_engine.py:169] Initializing an LLM engine (v0.5.1) with config: model='m'
(VllmWorkerProcess pid=11) INFO 08-20 10:00:05 multiproc_worker_utils.py:215] Worker ready; awaiting tasks
INFO 08-20 10:00:06 utils.py:737] Found nccl from library libnccl.so.2
INFO 08-20 10:00:06 pynccl.py:63] vLLM is using nccl==2.20.5
(VllmWorkerProcess pid=11) INFO 08-20 10:00:06 pynccl.py:63] vLLM is using nccl==2.20.5
INFO 08-20 10:12:00 shm_broadcast.py:1] No available shared memory broadcast block found in 60 second.
""")
case('v1_hf_download_fail', 'crashed', 'launch', 'hf_download', vl(VHEAD[:2]) + '\n' + '''Traceback (most recent call last):
  File "/usr/local/lib/python3.12/dist-packages/huggingface_hub/utils/_http.py", line 409, in hf_raise_for_status
    response.raise_for_status()
requests.exceptions.HTTPError: 401 Client Error: Unauthorized for url: https://huggingface.co/meta-llama/Llama-3.1-8B/resolve/main/config.json
huggingface_hub.errors.GatedRepoError: 401 Client Error. Cannot access gated repo for url https://huggingface.co/meta-llama/Llama-3.1-8B/resolve/main/config.json.
''')
# SGLang
def sg(lines, tp=None, h=10, m=0):
    out = []
    for i, l in enumerate(lines):
        tag = f' TP{tp}' if tp is not None else ''
        out.append(f'[2025-09-22 {h:02d}:{m+i//60:02d}:{i%60:02d}{tag}] {l}')
    return '\n'.join(out)
SHEAD = ["server_args=ServerArgs(model_path='Qwen/Qwen3-30B', tp_size=2)"]
SDIST = ['Init torch distributed begin.', 'sglang is using nccl==2.21.5', 'Init torch distributed ends. mem usage=0.13 GB']
SLOAD = ['Load weight begin. avail mem=78.00 GB', 'Load weight end. type=Qwen3MoeForCausalLM, dtype=torch.bfloat16, avail mem=20.00 GB, mem usage=58.00 GB.']
SKV = ['KV Cache is allocated. #tokens: 46611, K size: 1.42 GB, V size: 1.42 GB', 'Memory pool end. avail mem=2.09 GB']
case('sg_graph_oom', 'crashed', 'cuda_graph', 'gpu_oom', sg(SHEAD) + '\n' + sg(SDIST+SLOAD+SKV+['Capture cuda graph begin. This can take up to several minutes. avail mem=1.45 GB',
    'Scheduler hit an exception: Traceback (most recent call last):',
    '  File "/sgl-workspace/sglang/python/sglang/srt/model_executor/cuda_graph_runner.py", line 300, in capture',
    '    self.capture_one_batch_size(bs, forward)',
    'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.'], tp=0))
case('sg_kv_negative', 'crashed', 'kv_cache', 'kv_memory', sg(SHEAD) + '\n' + sg(SDIST+SLOAD+[
    'max_total_tokens=131072 is larger than the profiled value -561981. Use the profiled value instead.',
    'Scheduler hit an exception: Traceback (most recent call last):',
    '  File "/sgl-workspace/sglang/python/sglang/srt/model_executor/model_runner.py", line 900, in init_memory_pool',
    '    raise RuntimeError(',
    'RuntimeError: Not enough memory. Please try to increase --mem-fraction-static.'], tp=0))
case('sg_dist_hang', 'stalled', 'distributed_init', 'nccl_p2p', sg(SHEAD) + '\n' + sg(SDIST[:2], tp=0) + '\n' + sg(SDIST[:2], tp=1) +
    '\n[2025-09-22 10:12:00] Waiting for scheduler to be ready...\n')
case('sg_multinode_hang', 'crashed', 'distributed_init', 'rendezvous', sg(["server_args=ServerArgs(model_path='m', tp_size=16, nnodes=2, node_rank=0, dist_init_addr='10.0.0.1:5000')"]) + '\n' + sg(SDIST[:2], tp=0) +
    '\n[2025-09-22 10:40:00 TP0] [c10d] waitForInput: socket SocketImpl(fd=30, remote=[10.0.0.2]:5000) timed out after 1800000ms\n')
case('sg_warmup_crash', 'crashed', 'warmup', 'illegal_memory_access', sg(SHEAD) + '\n' + sg(SDIST+SLOAD+SKV+['Capture cuda graph begin.', 'Capture cuda graph end. Time elapsed: 7.23 s. mem usage=0.93 GB. avail mem=1.00 GB.',
    'max_total_num_tokens=46611, chunked_prefill_size=2048'], tp=0) + '\n' + sg(['INFO:     Started server process [3207]', 'INFO:     Application startup complete.', 'INFO:     Uvicorn running on http://0.0.0.0:30000 (Press CTRL+C to quit)',
    'INFO:     127.0.0.1:1 - "GET /get_model_info HTTP/1.1" 200 OK', 'Prefill batch. #new-seq: 1, #new-token: 6', 'Scheduler hit an exception: Traceback (most recent call last):',
    '  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 1000, in event_loop_normal', '    result = self.run_batch(batch)',
    'RuntimeError: CUDA error: an illegal memory access was encountered'], m=1))
case('sg_jit_stall', 'stalled', 'compile', 'cold_jit', sg(SHEAD) + '\n' + sg(SDIST+SLOAD+SKV+['Entering DeepGEMM JIT Pre-Compile session. It may take a long time (typically 10-20 mins) if you have not run `sglang.compile_deep_gemm`.'], tp=0) + '\n[2025-09-22 11:30:00] Waiting for scheduler\n')
case('sg_load_slow_ok', 'ready', 'ready', 'slow_weight_reads', sg(SHEAD) + '\n' + sg(SDIST+['Load weight begin. avail mem=78.00 GB'], tp=0) + '\nLoading safetensors checkpoint shards:  50% Completed | 2/4 [02:56<02:57, 88.81s/it]\n' + sg(SLOAD[1:]+SKV+['Capture cuda graph begin.', 'Capture cuda graph end. Time elapsed: 7.23 s.', 'max_total_num_tokens=46611'], tp=0, m=6) + '\n' + sg(['INFO:     Uvicorn running on http://0.0.0.0:30000', 'The server is fired up and ready to roll!'], m=7))
case('sg_model_import', 'crashed', 'weight_load', 'model_unsupported', sg(SHEAD) + '\n' + sg(SDIST+['Load weight begin. avail mem=78.00 GB', 'Scheduler hit an exception: Traceback (most recent call last):',
    '  File "/sgl-workspace/sglang/python/sglang/srt/model_loader/loader.py", line 300, in load_model', '    model = _initialize_model(',
    '  File "/sgl-workspace/sglang/python/sglang/srt/model_loader/utils.py", line 80, in get_model_architecture', '    raise ValueError(',
    "ValueError: Model architectures ['Qwen3NextForCausalLM'] are not supported for now."], tp=0))
case('sg_safetensors', 'crashed', 'weight_load', 'corrupt_safetensors', sg(SHEAD) + '\n' + sg(SDIST+['Load weight begin. avail mem=78.00 GB', 'Scheduler hit an exception: Traceback (most recent call last):',
    '  File "/sgl-workspace/sglang/python/sglang/srt/model_loader/weight_utils.py", line 500, in safetensors_weights_iterator', '    with safe_open(st_file, framework="pt") as f:',
    "safetensors_rust.SafetensorError: Error while deserializing header: MetadataIncompleteBuffer"], tp=0))
# TGI
def tg(lines, base=0):
    out=[]
    for i,(lvl,who,m) in enumerate(lines):
        s=base+i
        # the router's own lines carry its target (text_generation_router...), not the launcher's
        tgt = '' if 'text_generation_' in who else 'text_generation_launcher: '
        out.append(f'2024-05-01T01:{s//60:02d}:{s%60:02d}.618817Z  {lvl} {who}{tgt}{m}')
    return '\n'.join(out)
THEAD=[('INFO','','Args { model_id: "m", num_shard: Some(2) }'),('INFO','download: ','Starting download process.'),
       ('INFO','download: ','Files are already present on the host. Skipping download.'),('INFO','download: ','Successfully downloaded weights.'),
       ('INFO','shard-manager: ','Starting shard rank=0'),('INFO','shard-manager: ','Starting shard rank=1')]
case('tgi_shard_oom', 'crashed', 'weight_load', 'gpu_oom', tg(THEAD+[('INFO','shard-manager: ','Waiting for shard to be ready... rank=0'),
    ('ERROR','shard-manager: ','Shard complete standard error output:\n\ntorch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 224.00 MiB'),
    ('ERROR','','Shard 0 failed to start'),('INFO','','Shutting down shards'),('ERROR','', 'Error: ShardCannotStart')]))
case('tgi_warmup_oom', 'crashed', 'kv_cache', '*', tg(THEAD+[('INFO','shard-manager: ','Shard ready in 20.1s rank=0'),('INFO','shard-manager: ','Shard ready in 20.3s rank=1'),
    ('INFO','','Starting Webserver'),('INFO','text_generation_router: ','Warming up model'),
    ('ERROR','warmup{max_input_length=4095 max_prefill_tokens=4096}:warmup: text_generation_client: ','Server error: Not enough memory to handle 4096 prefill tokens. You need to decrease `--max-batch-prefill-tokens`'),
    ('ERROR','', 'Error: WarmupError')]).replace('text_generation_launcher: Warming up model','text_generation_router: Warming up model'))
case('tgi_shard_hang', 'in_progress', 'weight_load', '*', tg(THEAD) + '\n' + tg([('INFO','shard-manager: ','Waiting for shard to be ready... rank=0')]*1, base=600))
# TRT-LLM
case('trt_deserialize', 'crashed', 'weight_load', 'trt_version_mismatch', '''I0501 01:00:00.000 1 server.cc:100] Loading model tensorrt_llm
[TensorRT-LLM][INFO] Loaded engine size: 8745 MiB
[TensorRT-LLM][ERROR] 6: The engine plan file is not compatible with this version of TensorRT, expecting library version 10.3.0.26 got 10.1.0.27, please rebuild.
[TensorRT-LLM][ERROR] Assertion failed: Failed to deserialize cuda engine (/app/tensorrt_llm/cpp/tensorrt_llm/runtime/tllmRuntime.cpp:200)
E0501 01:00:05.000 1 model_lifecycle.cc:638] failed to load 'tensorrt_llm' version 1: Internal: unexpected error when creating modelInstanceState
error: creating server: Internal - failed to load all models
''')
# ---- TGI across versions (launcher/src/main.rs, router, server/text_generation_server: v0.x-v3.x)
def tgj(lines, base=0):
    # --json-output: one JSON object per line; the shard's stderr is inside the message.
    out = []
    for i, (lvl, span, m) in enumerate(lines):
        s = base + i
        o = {"timestamp": f"2024-05-01T01:{s//60:02d}:{s%60:02d}.618817Z", "level": lvl, "fields": {"message": m}, "target": "text_generation_launcher"}
        if span is not None:
            o["span"] = {"rank": span, "name": "shard-manager"}
            o["spans"] = [{"rank": span, "name": "shard-manager"}]
        out.append(json.dumps(o))
    return '\n'.join(out)
TGI_OOM_TB = ['Traceback (most recent call last):',
    '  File "/opt/conda/bin/text-generation-server", line 8, in <module>', '    sys.exit(app())',
    '  File "/opt/conda/lib/python3.10/site-packages/text_generation_server/server.py", line 201, in serve_inner', '    model = get_model(',
    '  File "/opt/conda/lib/python3.10/site-packages/text_generation_server/models/__init__.py", line 300, in get_model', '    return FlashLlama(',
    '  File "/opt/conda/lib/python3.10/site-packages/text_generation_server/utils/weights.py", line 90, in get_sharded', '    tensor = tensor.to(device=self.device)',
    'torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 448.00 MiB. GPU 0 has a total capacty of 22.19 GiB of which 120.50 MiB is free.']
# v0.2-v0.8: the shard's stderr follows "Shard N failed to start:" on its own lines
case('tgi_v0_failed_start', 'crashed', 'weight_load', 'gpu_oom', tg([('INFO','','Args { model_id: "m", num_shard: Some(2) }'),
    ('INFO','','Sharding model on 2 processes'),('INFO','','Starting download process.'),
    ('INFO','download: ','Files are already present on the host. Skipping download.'),('INFO','','Successfully downloaded weights.'),
    ('INFO','','Starting shard 0'),('INFO','','Starting shard 1'),('INFO','','Waiting for shard 0 to be ready...'),
    ('INFO','','Waiting for shard 1 to be ready...'),('ERROR','','Shard 1 failed to start:')]) + '\n' + '\n'.join(TGI_OOM_TB) + '\n' +
    tg([('INFO','','Shutting down shards')], base=20))
# v1-v3 --json-output: the shard's stderr is one message with line breaks
case('tgi_json_shard_oom', 'crashed', 'weight_load', 'gpu_oom', tgj([('INFO', None, 'Args { model_id: "m", num_shard: Some(2) }'),
    ('INFO', None, 'Starting download process.'), ('INFO', None, 'Files are already present on the host. Skipping download.'),
    ('INFO', None, 'Successfully downloaded weights.'), ('INFO', 0, 'Starting shard'), ('INFO', 1, 'Starting shard'),
    ('INFO', 0, 'Waiting for shard to be ready...'), ('INFO', 1, 'Waiting for shard to be ready...'),
    ('ERROR', 0, 'Shard complete standard error output:\n\n' + '\n'.join(TGI_OOM_TB)),
    ('ERROR', None, 'Shard 0 failed to start'), ('INFO', None, 'Shutting down shards')]))
TGI_UP = THEAD+[('INFO','shard-manager: ','Shard ready in 20.1s rank=0'),('INFO','shard-manager: ','Shard ready in 20.3s rank=1'),('INFO','','Starting Webserver')]
# v2/v3: the router's warm-up fails; the router exits with its error and the launcher sees it die
# (the prefill's activations do not fit beside the weights: v1+ sizes the KV cache only after it)
case('tgi_v2_warmup_prefill', 'crashed', 'kv_cache', 'gpu_oom', tg(TGI_UP+[('INFO','text_generation_router_v3: backends/v3/src/lib.rs:125: ','Warming up model'),
    ('ERROR','','Method Warmup encountered an error.')]) + '''
Traceback (most recent call last):
  File "/usr/src/server/text_generation_server/models/flash_causal_lm.py", line 1520, in warmup
    _, _batch, _ = self.generate_token(batch)
torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.50 GiB. GPU 0 has a total capacity of 23.68 GiB of which 1.12 GiB is free.

The above exception was the direct cause of the following exception:

Traceback (most recent call last):
  File "/usr/src/server/text_generation_server/server.py", line 125, in Warmup
    batch, max_input_tokens, max_total_tokens = self.model.warmup(batch)
RuntimeError: Not enough memory to handle 4096 prefill tokens. You need to decrease `--max-batch-prefill-tokens`
''' + tg([('ERROR','warmup{max_input_length=None max_prefill_tokens=4096 max_total_tokens=None max_batch_size=None}:warmup: text_generation_router_v3::client: backends/v3/src/client/mod.rs:45: ','Server error: Not enough memory to handle 4096 prefill tokens. You need to decrease `--max-batch-prefill-tokens`')], base=40) + '''
Error: Backend(Warmup(Generation("Not enough memory to handle 4096 prefill tokens. You need to decrease `--max-batch-prefill-tokens`")))
''' + tg([('ERROR','','Webserver Crashed'),('INFO','','Shutting down shards'),('INFO','shard-manager: ','Terminating shard rank=0')], base=41) + '\nError: WebserverFailed\n')
# a shard killed by the kernel: signal 9 (host RAM)
case('tgi_shard_sigkill', 'crashed', 'weight_load', 'host_oom', tg(THEAD+[('INFO','shard-manager: ','Waiting for shard to be ready... rank=0'),
    ('ERROR','shard-manager: ','Shard complete standard error output:\n rank=0'),
    ('ERROR','shard-manager: ','Shard process was signaled to shutdown with signal 9 rank=0'),
    ('ERROR','','Shard 0 failed to start'),('INFO','','Shutting down shards')]) + '\nError: ShardCannotStart\n')
# signal 7 (SIGBUS): NCCL's shared-memory segment ran past a small /dev/shm
case('tgi_shard_sigbus', 'crashed', 'weight_load', 'dev_shm', tg(THEAD+[('INFO','shard-manager: ','Waiting for shard to be ready... rank=1'),
    ('ERROR','shard-manager: ','Shard complete standard error output:\n rank=1'),
    ('ERROR','shard-manager: ','Shard process was signaled to shutdown with signal 7 rank=1'),
    ('ERROR','','Shard 1 failed to start'),('INFO','','Shutting down shards')]) + '\nError: ShardCannotStart\n')
# the download step fails (gated repository)
case('tgi_download_gated', 'crashed', 'download', 'hf_download', tg([('INFO','','Args { model_id: "meta-llama/Llama-3.1-8B", num_shard: None }'),
    ('INFO','download: ','Starting check and download process for meta-llama/Llama-3.1-8B'),
    ('ERROR','download: ','Download encountered an error: ')]) + '''
Traceback (most recent call last):
  File "/opt/conda/lib/python3.11/site-packages/huggingface_hub/utils/_http.py", line 406, in hf_raise_for_status
    response.raise_for_status()
huggingface_hub.errors.GatedRepoError: 401 Client Error. Cannot access gated repo for url https://huggingface.co/meta-llama/Llama-3.1-8B/resolve/main/config.json.

Error: DownloadError
''')
# a shard dies after the webserver started (during the router's warm-up): "Shard N crashed"
case('tgi_shard_crashed_warmup', 'crashed', 'kv_cache', 'illegal_memory_access', tg(TGI_UP+[('INFO','text_generation_router: router/src/main.rs:320: ','Warming up model'),
    ('ERROR','shard-manager: ','Shard complete standard error output:')]) + '''

RuntimeError: CUDA error: an illegal memory access was encountered rank=1
''' + tg([('ERROR','','Shard 1 crashed'),('INFO','','Terminating webserver'),('INFO','','Waiting for webserver to gracefully shutdown'),('INFO','','webserver terminated'),
    ('INFO','','Shutting down shards')], base=30) + '\nError: ShardFailed\n')
# v3: the whole way to "Connected"
case('tgi_v3_ready', 'ready', 'ready', None, tg(TGI_UP+[('INFO','text_generation_router_v3: backends/v3/src/lib.rs:125: ','Warming up model'),
    ('INFO','','KV-cache blocks: 120000, size: 1'),('INFO','','Cuda Graphs are enabled for sizes [32, 16, 8, 4, 2, 1]'),
    ('INFO','text_generation_router_v3: backends/v3/src/lib.rs:137: ','Setting max batch total tokens to 120000'),
    ('INFO','text_generation_router::server: router/src/server.rs:2302: ','Connected')]))
# "Connected" comes before the router binds its port: a bind failure after it is a crash in http_start
case('tgi_port_in_use', 'crashed', 'http_start', 'port_in_use', tg(TGI_UP+[('INFO','text_generation_router::server: router/src/server.rs:1600: ','Warming up model'),
    ('INFO','text_generation_router::server: router/src/server.rs:1620: ','Setting max batch total tokens to 120000'),
    ('INFO','text_generation_router::server: router/src/server.rs:2302: ','Connected'),
    ('ERROR','text_generation_router::server: router/src/server.rs:2325: ','Failed to bind to 0.0.0.0:80: Address already in use (os error 98)'),
    ('ERROR','','Webserver Crashed'),('INFO','','Shutting down shards')]) + '\nError: WebserverFailed\n')
# flash-attention v2 on a pre-Ampere GPU: the warm-up's first forward raises (its cause is the GPU
# lacking a feature: gpu_arch_feature on main, not this branch's business)
case('tgi_flash_pre_ampere', 'crashed', 'kv_cache', '*', tg(TGI_UP+[('INFO','text_generation_router: router/src/main.rs:320: ','Warming up model'),
    ('ERROR','','Method Warmup encountered an error.')]) + '''
Traceback (most recent call last):
  File "/opt/conda/lib/python3.10/site-packages/text_generation_server/models/flash_causal_lm.py", line 900, in warmup
    _, batch, _ = self.generate_token(batch)
RuntimeError: FlashAttention only supports Ampere GPUs or newer.
''' + tg([('ERROR','warmup{max_input_length=1024 max_prefill_tokens=4096}:warmup: text_generation_client: router/client/src/lib.rs:33: ','Server error: FlashAttention only supports Ampere GPUs or newer.')], base=40) + '''
Error: Warmup(Generation("FlashAttention only supports Ampere GPUs or newer."))
''' + tg([('ERROR','','Webserver Crashed'),('INFO','','Shutting down shards')], base=41) + '\nError: WebserverFailed\n')

# ---- TensorRT-LLM across versions: the Triton tensorrtllm_backend (C++ runtime, glog lines), trtllm-serve
# with the PyTorch backend (Python logger, MPI workers), and engines built by trtllm-build
def trt(lines, sec=0):
    # the Python logger: "[MM/DD/YYYY-HH:MM:SS] [TRT-LLM] [I] msg"; C++ lines ('C', msg) have no time
    out = []
    for i, (lvl, m) in enumerate(lines):
        s = sec + i
        if lvl == 'C':
            out.append(f'[TensorRT-LLM][INFO] {m}')
        elif lvl == 'CE':
            out.append(f'[TensorRT-LLM][ERROR] {m}')
        elif lvl == '':
            out.append(m)
        else:
            out.append(f'[05/01/2025-01:{s//60:02d}:{s%60:02d}] [TRT-LLM] [{lvl}] {m}')
    return '\n'.join(out)
def triton(lines, sec=0):
    # Triton's glog prefix: "I0501 01:00:00.000000 1 file.cc:N] msg"
    out = []
    for i, (lvl, f, m) in enumerate(lines):
        s = sec + i
        out.append(f'{lvl}0501 01:{s//60:02d}:{s%60:02d}.245480 100348 {f}] {m}' if f else m)
    return '\n'.join(out)
TRITON_HEAD = [('I','pinned_memory_manager.cc:277','Pinned memory pool is successfully allocated at address 0x7f0000000000 and size 268435456'),
    ('I','cuda_memory_manager.cc:107','CUDA memory pool is created on device 0 with size 67108864'),
    ('I','model_lifecycle.cc:461','loading: tensorrt_llm:1'),
    ('I','backend_model_instance.cc:69','TRITONBACKEND_ModelInstanceInitialize: tensorrt_llm_0_0 (GPU device 0)')]
TRT_CPP_LOAD = [('C','Initializing MPI with thread mode 3'),('C','MPI size: 1, rank: 0'),('C','Rank 0 is using GPU 0'),
    ('C','TRTGptModel maxNumSequences: 64'),('C','TRTGptModel maxBatchSize: 64'),('C','Loaded engine size: 15337 MiB'),
    ('C','[MemUsageChange] Allocated 1134.01 MiB for execution context memory.'),
    ('C','[MemUsageChange] TensorRT-managed allocation in IExecutionContext creation: CPU +0, GPU +0, now: CPU 0, GPU 15320 (MiB)'),
    ('C','[MemUsageChange] Allocated 43.29 MB GPU memory for runtime buffers.'),('C','[MemUsageChange] Allocated 180.30 MB GPU memory for decoder.')]
# the KV cache does not fit after the engine: cudaMalloc fails while the pool is allocated
case('trt_triton_kv_oom', 'crashed', 'kv_cache', 'kv_memory', triton(TRITON_HEAD) + '\n' + trt(TRT_CPP_LOAD + [
    ('C','Memory usage when calculating max tokens in paged kv cache: total: 23.68 GiB, available: 0.03 GiB'),
    ('C','Number of blocks in KV cache primary pool: 12'),
    ('CE','CUDA runtime error in ::cudaMallocAsync(ptr, n, mCudaStream->get()): out of memory (/app/tensorrt_llm/cpp/tensorrt_llm/runtime/tllmBuffers.h:125)')]) + '\n' +
    triton([('E','model_lifecycle.cc:642',"failed to load 'tensorrt_llm' version 1: Internal: unexpected error when creating modelInstanceState: [TensorRT-LLM][ERROR] CUDA runtime error in ::cudaMallocAsync(ptr, n, mCudaStream->get()): out of memory (/app/tensorrt_llm/cpp/tensorrt_llm/runtime/tllmBuffers.h:125)"),
    ('I','server.cc:307','Waiting for in-flight requests to complete.'),
    ('','','error: creating server: Internal - failed to load all models')], sec=40) + '\n')
# Triton with the tensorrtllm_backend all the way to its listeners
case('trt_triton_ready', 'ready', 'ready', None, triton(TRITON_HEAD) + '\n' + trt(TRT_CPP_LOAD + [
    ('C','Memory usage when calculating max tokens in paged kv cache: total: 79.10 GiB, available: 63.62 GiB'),
    ('C','Number of blocks in KV cache primary pool: 4607'),('C','Max KV cache pages per sequence: 65'),('C','Number of tokens per block: 64.'),
    ('C','[MemUsageChange] Allocated 62.99 GiB for max tokens in paged KV cache (294848).')]) + '\n' +
    triton([('I','model_lifecycle.cc:818',"successfully loaded 'tensorrt_llm'"),
    ('I','grpc_server.cc:2466','Started GRPCInferenceService at 0.0.0.0:8001'),('I','http_server.cc:4636','Started HTTPService at 0.0.0.0:8000'),
    ('I','http_server.cc:320','Started Metrics Service at 0.0.0.0:8002')], sec=60) + '\n')
TRT_SERVE_HEAD = [('', '[TensorRT-LLM] TensorRT-LLM version: 1.1.0rc3'), ('I','Using LLM with PyTorch backend'),
    ('', 'rank 0 using MpiPoolSession to spawn MPI processes'),
    ('I','Generating a new HMAC key for server proxy_request_queue'),('C','Refreshed the MPI local session'),
    ('I','ATTENTION RUNTIME FEATURES:  AttentionRuntimeFeatures(chunked_prefill=False, cache_reuse=True, has_speculative_draft_tokens=False, chunk_size=8192)'),
    ('I','Use 63.32 GB for model weights.')]
TRT_SERVE_LOADED = [('', 'Loading safetensors weights in parallel: 100%|██████████| 15/15 [00:00<00:00, 81.92it/s]'),
    ('', 'Loading weights: 100%|██████████| 801/801 [00:46<00:00, 17.29it/s]'), ('', 'Model init total -- 49.14s'),
    ('I','max_seq_len is not specified, using inferred value 131072'),('I','Using Sampler: TorchSampler')]
TRT_SERVE_KV = [('C','Number of tokens per block: 32.'),('C','[MemUsageChange] Allocated 0.56 GiB for max tokens in paged KV cache (8224).'),
    ('I','max_seq_len=8224, max_num_requests=64, max_num_tokens=8192, max_batch_size=64'),('I','cache_transceiver is disabled')]
def trt_tb(frames, exc, first):
    L = [('E', first), ('E', 'Traceback (most recent call last):')]
    for path, fn in frames:
        L.append(('', f'  File "/usr/local/lib/python3.12/dist-packages/tensorrt_llm/{path}", line 100, in {fn}'))
        L.append(('', '    x = y()'))
    L.append(('', exc))
    return L
TRT_WORKER_END = [('E','Executor worker initialization error: Traceback (most recent call last):'), ('', 'RuntimeError: Executor worker returned error')]
# trtllm-serve (PyTorch backend): a worker runs out of GPU memory while loading weights
case('trt_serve_load_oom', 'crashed', 'weight_load', 'gpu_oom', trt(TRT_SERVE_HEAD + [('', 'Loading weights:  45%|████▌     | 360/801 [00:21<00:26, 17.29it/s]')] + trt_tb(
    [('executor/worker.py','worker_main'),('_torch/pyexecutor/py_executor_creator.py','create_py_executor'),('_torch/pyexecutor/model_engine.py','__init__'),
     ('_torch/pyexecutor/model_engine.py','_load_model'),('_torch/models/modeling_utils.py','load_weights')],
    'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.00 GiB. GPU 0 has a total capacity of 79.19 GiB of which 512.00 MiB is free.',
    'Failed to initialize executor on rank 0: CUDA out of memory. Tried to allocate 1.00 GiB.') + TRT_WORKER_END))
# the executor's own memory monitor names the component it could not create: the KV cache
case('trt_serve_executor_oom_kv', 'crashed', 'kv_cache', 'kv_memory', trt(TRT_SERVE_HEAD + TRT_SERVE_LOADED + [
    ('E','Failed to initialize executor on rank 0: Executor creation failed due to insufficient GPU memory.'),
    ('', ''), ('', 'The following component could not be created: Initial KV Cache (temporary for KV cache size estimation)'),
    ('', 'Total GPU memory (GiB): 79.19'), ('', 'Free GPU memory before component creation attempt (GiB): 0.35'), ('', ''),
    ('', 'Previously created components and free GPU memory before/after creation (GiB):'), ('', 'Model: 78.50 / 14.20'),
    ('', 'Sampler: 14.20 / 0.35')] + TRT_WORKER_END))
# CUDA graph capture fails in the PyTorch backend's warm-up
case('trt_serve_graph_crash', 'crashed', 'cuda_graph', 'graph_capture_incompatible', trt(TRT_SERVE_HEAD + TRT_SERVE_LOADED + TRT_SERVE_KV + [
    ('I','[Autotuner] Autotuning process starts ...'),('I','[Autotuner] Cache size after warmup is 28'),('I','[Autotuner] Autotuning process ends'),
    ('I','Creating CUDA graph instances for 11 batch sizes.'),('I','Run generation only CUDA graph warmup for batch size=64, draft_len=0')] + trt_tb(
    [('executor/worker.py','worker_main'),('_torch/pyexecutor/py_executor_creator.py','create_py_executor'),('_torch/pyexecutor/_util.py','create_py_executor_instance'),
     ('_torch/pyexecutor/model_engine.py','warmup'),('_torch/pyexecutor/model_engine.py','_run_cuda_graph_warmup'),('_torch/pyexecutor/model_engine.py','_capture_generation_cuda_graphs')],
    'RuntimeError: CUDA error: operation not permitted when stream is capturing',
    'Failed to initialize executor on rank 0: CUDA error: operation not permitted when stream is capturing') + TRT_WORKER_END))
# the autotuner's kernels do not support this GPU: a feature the GPU lacks (FP4 before SM100)
case('trt_serve_autotune_unsupported', 'crashed', 'compile', 'gpu_arch_feature', trt(TRT_SERVE_HEAD + TRT_SERVE_LOADED + TRT_SERVE_KV + [
    ('I','[Autotuner] Autotuning process starts ...')] + trt_tb(
    [('executor/worker.py','worker_main'),('_torch/pyexecutor/model_engine.py','warmup'),('_torch/pyexecutor/model_engine.py','_run_autotuner_warmup')],
    'RuntimeError: Only SM100 is supported by FP4 block scale MOE',
    'Failed to initialize executor on rank 0: Only SM100 is supported by FP4 block scale MOE') + TRT_WORKER_END))
# trtllm-serve all the way: two KV passes (estimation, then the real pool), autotuner and graphs twice, uvicorn
case('trt_serve_ready', 'ready', 'ready', None, trt(TRT_SERVE_HEAD + TRT_SERVE_LOADED + TRT_SERVE_KV + [
    ('I','[Autotuner] Autotuning process starts ...'),('I','[Autotuner] Autotuning process ends'),
    ('I','Creating CUDA graph instances for 11 batch sizes.'),('I','Run generation only CUDA graph warmup for batch size=64, draft_len=0'),
    ('I','Memory used after loading model weights (inside torch) in memory usage profiling: 63.52 GiB'),
    ('I','Peak memory during memory usage profiling (torch + non-torch): 113.65 GiB, available KV cache memory when calculating max tokens: 5.95 GiB, fraction is set 0.9, kv size is 73728. device total memory 119.70 GiB, , tmp kv_mem 0.56 GiB'),
    ('I','Estimated max memory in KV cache : 5.95 GiB'),
    ('C','[MemUsageChange] Allocated 5.95 GiB for max tokens in paged KV cache (86720).'),
    ('I','[Autotuner] Autotuning process starts ...'),('I','[Autotuner] Autotuning process ends'),
    ('I','Creating CUDA graph instances for 11 batch sizes.'),('I','Run generation only CUDA graph warmup for batch size=1, draft_len=0'),
    ('I','Setting PyTorch memory fraction to 0.5983721838660735 (71.62367630004883 GiB)'),
    ('', 'INFO:     Started server process [41]'),('', 'INFO:     Waiting for application startup.'),('', 'INFO:     Application startup complete.'),
    ('', 'INFO:     Uvicorn running on http://0.0.0.0:8355 (Press CTRL+C to quit)')]))
# an MPI rank is killed by the kernel while loading: mpirun reports the signal
case('trt_mpi_rank_killed', 'crashed', 'weight_load', 'host_oom', trt([('', '[TensorRT-LLM] TensorRT-LLM version: 0.21.0'), ('I','Using LLM with PyTorch backend'),
    ('I','start MpiSession with 4 workers'),('C','MPI size: 4, MPI local size: 4, rank: 0'),('C','Rank 0 is using GPU 0'),
    ('I','Prefetching 140.00GB checkpoint files.'),
    ('', 'Loading safetensors weights in parallel:  20%|██        | 6/30 [01:10<04:40, 11.70s/it]'),
    ('', '--------------------------------------------------------------------------'),
    ('', 'Primary job  terminated normally, but 1 process returned'),
    ('', 'a non-zero exit code. Per user-direction, the job has been aborted.'),
    ('', '--------------------------------------------------------------------------'),
    ('', 'mpirun noticed that process rank 2 with PID 0 on node gpu-node-1 exited on signal 9 (Killed).')]))
# the Python logger of TensorRT-LLM 0.x with several MPI ranks, and TensorRT's own logger: a deserialisation failure
case('trt_python_runtime_deserialize', 'crashed', 'weight_load', 'trt_version_mismatch', '''[05/01/2024-01:00:00] [TRT-LLM] [MPI_Rank 0] [I] Engine version 0.9.0 found in the config file, assuming engine(s) built by new builder API.
[05/01/2024-01:00:01] [TRT-LLM] [MPI_Rank 0] [I] Loading engine from /engines/rank0.engine
[05/01/2024-01:00:09] [TRT] [E] 1: [stdArchiveReader.cpp::StdArchiveReader::32] Error Code 1: Serialization (Serialization assertion magicTagRead == kMAGIC_TAG failed.Magic tag does not match)
[05/01/2024-01:00:09] [TRT] [E] 4: [runtime.cpp::deserializeCudaEngine::65] Error Code 4: Internal Error (Engine deserialization failed.)
Traceback (most recent call last):
  File "/app/tensorrt_llm/examples/run.py", line 500, in main
    runner = runner_cls.from_dir(**runner_kwargs)
AssertionError: Failed to deserialize cuda engine
''')
# the C++ runtime's newer prefix: a time, "[TRT-LLM]", a one-letter level and a rank
case('trt_cpp_new_prefix', 'crashed', 'kv_cache', 'kv_memory', '''05-01-2026 01:00:00.100000 [TRT-LLM] [I] [0] Loaded engine size: 8745 MiB
05-01-2026 01:00:05.100000 [TRT-LLM] [I] [0] Memory usage when calculating max tokens in paged kv cache: total: 23.68 GiB, available: 0.03 GiB
05-01-2026 01:00:05.200000 [TRT-LLM] [E] [0] CUDA runtime error in ::cudaMalloc(ptr, n): out of memory (/src/tensorrt_llm/cpp/tensorrt_llm/runtime/tllmBuffers.h:125)
RuntimeError: [TensorRT-LLM][ERROR] CUDA runtime error in ::cudaMalloc(ptr, n): out of memory
''')

# the LLM API's TensorRT backend (0.1x): it builds the engine itself, a step the log counts
case('trt_llmapi_build_oom', 'crashed', 'compile', 'gpu_oom', trt([('', '[TensorRT-LLM] TensorRT-LLM version: 0.16.0'),
    ('', 'Loading Model: [1/2]\tLoading HF model to memory'),
    ('', 'Loading checkpoint shards: 100%|██████████| 4/4 [00:48<00:00, 12.14s/it]'), ('', 'Time: 60.944s'),
    ('', 'Loading Model: [2/2]\tBuilding TRT-LLM engine'),
    ('I','Set dtype to bfloat16.'),
    ('', '[05/01/2025-01:10:00] [TRT] [E] 1: [defaultAllocator.cpp::allocate::20] Error Code 1: Cuda Runtime (out of memory)'),
    ('', 'Traceback (most recent call last):'),
    ('', '  File "/usr/local/lib/python3.12/dist-packages/tensorrt_llm/llmapi/llm_utils.py", line 400, in _build_engine'),
    ('', '    self._engine = build(self.model, copied_build_config)'),
    ('', 'RuntimeError: Failed to build the engine')]))
# TensorRT-LLM's hang detector ends a start whose executor stopped checkpointing
case('trt_hang_detected', 'crashed', 'cuda_graph', '*', trt(TRT_SERVE_HEAD + TRT_SERVE_LOADED + TRT_SERVE_KV + [
    ('I','Creating CUDA graph instances for 11 batch sizes.'),('I','Run generation only CUDA graph warmup for batch size=64, draft_len=0')]) +
    '\n' + trt([('E','Hang detected after 300 seconds.'),('E','HangDetector: self-SIGKILL; relying on the launcher to propagate to peer ranks.')], sec=400))
# TGI's router warm-up, cut off while the shards capture CUDA graphs: still capturing them (the
# shard's graph line begins cuda_graph, as in every other engine)
case('tgi_warmup_graphs', 'in_progress', 'cuda_graph', '*', tg(TGI_UP+[('INFO','text_generation_router_v3: backends/v3/src/lib.rs:125: ','Warming up model')]) +
    '\n' + tg([('INFO','','KV-cache blocks: 120000, size: 1'),('INFO','','Cuda Graphs are enabled for sizes [32, 16, 8, 4, 2, 1]')], base=12))

# v0.9 sized the KV cache before the warm-up prefill: its message names both budgets
case('tgi_v09_warmup_total', 'crashed', 'kv_cache', 'kv_memory', tg([('INFO','','Args { model_id: "m", num_shard: Some(2), max_batch_total_tokens: Some(32000) }'),
    ('INFO','','Starting download process.'),('INFO','','Successfully downloaded weights.'),
    ('INFO','','Starting shard 0'),('INFO','','Starting shard 1'),('INFO','','Shard 0 ready in 30.2s'),('INFO','','Shard 1 ready in 30.4s'),
    ('INFO','','Starting Webserver'),('INFO','text_generation_router: router/src/main.rs:213: ','Warming up model'),
    ('ERROR','','Method Warmup encountered an error.')]) + '''
Traceback (most recent call last):
  File "/opt/conda/lib/python3.9/site-packages/text_generation_server/models/flash_causal_lm.py", line 730, in warmup
    raise RuntimeError(
RuntimeError: Not enough memory to handle 32000 total tokens with 4096 prefill tokens. You need to decrease `--max-batch-total-tokens` or `--max-batch-prefill-tokens`
''' + tg([('ERROR','','Webserver Crashed'),('INFO','','Shutting down shards')], base=40) + '\nError: WebserverFailed\n')

# an excerpt that starts at the shard's traceback: its frames (torch.distributed set up as the shard
# starts) say distributed init, not what "ShardCannotStart" says; a second TGI holds MASTER_PORT
case('tgi_excerpt_master_port', 'crashed', 'distributed_init', 'port_in_use', '''Traceback (most recent call last):
  File "/opt/conda/lib/python3.10/site-packages/text_generation_server/server.py", line 196, in serve_inner
    model = get_model(
  File "/opt/conda/lib/python3.10/site-packages/text_generation_server/models/__init__.py", line 410, in get_model
    return FlashLlama(
  File "/opt/conda/lib/python3.10/site-packages/text_generation_server/models/flash_llama.py", line 40, in __init__
    self.process_group, rank, world_size = initialize_torch_distributed()
  File "/opt/conda/lib/python3.10/site-packages/text_generation_server/utils/dist.py", line 92, in initialize_torch_distributed
    torch.distributed.init_process_group(
  File "/opt/conda/lib/python3.10/site-packages/torch/distributed/distributed_c10d.py", line 1141, in init_process_group
    store, rank, world_size = next(rendezvous_iterator)
RuntimeError: The server socket has failed to listen on any local network address. The server socket has failed to bind to [::]:29500 (errno: 98 - Address already in use). The server socket has failed to bind to 0.0.0.0:29500 (errno: 98 - Address already in use).
 rank=0
Error: ShardCannotStart
''')

# the engine's config.json comes from another TensorRT-LLM version: parsing it fails before the engine
# is read, inside Triton's model instance initialisation (model_init)
case('trt_triton_config_mismatch', 'crashed', 'weight_load', 'trt_version_mismatch', triton(TRITON_HEAD) + '\n' + trt([
    ('C','Initializing MPI with thread mode 3'),('C','MPI size: 1, rank: 0')]) + '\n' + triton([
    ('E','model_lifecycle.cc:638',"failed to load 'tensorrt_llm' version 1: Internal: unexpected error when creating modelInstanceState: [json.exception.out_of_range.403] key 'kv_cache_type' not found"),
    ('','','error: creating server: Internal - failed to load all models')], sec=10) + '\n')

# OpenMPI cannot set up its shared-memory transport in a container with a small /dev/shm
case('trt_mpi_shm', 'crashed', 'distributed_init', 'dev_shm', trt([('', '[TensorRT-LLM] TensorRT-LLM version: 0.21.0'), ('I','Using LLM with PyTorch backend'),
    ('I','start MpiSession with 2 workers'),
    ('', '--------------------------------------------------------------------------'),
    ('', 'A system call failed during shared memory initialization that should'),
    ('', 'not have.  It is likely that your MPI job will now either abort or'),
    ('', 'experience performance degradation.'),
    ('', '  Error:             No space left on device (errno 28)'),
    ('', '--------------------------------------------------------------------------'),
    ('', 'It looks like MPI_INIT failed for some reason; your parallel process is'),
    ('', 'likely to abort.')]))
# TGI 1.x: a model class that only exists with flash-attention v2 ("requires flash attn v2")
case('tgi_mistral_flash_v2', 'crashed', 'weight_load', 'model_unsupported', tg(THEAD[:5]+[
    ('WARN','shard-manager: ','Could not import Mistral model: Mistral model requires flash attn v2 rank=0'),
    ('ERROR','shard-manager: ','Error when initializing model')]) + '''
Traceback (most recent call last):
  File "/opt/conda/lib/python3.9/site-packages/text_generation_server/server.py", line 159, in serve_inner
    model = get_model(
  File "/opt/conda/lib/python3.9/site-packages/text_generation_server/models/__init__.py", line 264, in get_model
    raise NotImplementedError("Mistral model requires flash attention v2")
NotImplementedError: Mistral model requires flash attention v2
''' + tg([('ERROR','','Shard 0 failed to start'),('INFO','','Shutting down shards')], base=30) + '\nError: ShardCannotStart\n')

# a slow Hub download: each "Download: [i/n]" is progress, so minutes per file are slow, not a stall
case('tgi_download_slow_progress', 'in_progress', 'download', '*', tg([('INFO','','Args { model_id: "m", num_shard: None }'),
    ('INFO','download: ','Starting check and download process for m'),('INFO','download: ','Download file: model-00001-of-00004.safetensors')]) + '\n' +
    tg([('INFO','download: ','Downloaded /data/models--m/snapshots/abc/model-00001-of-00004.safetensors in 0:06:00.'),('INFO','download: ','Download: [1/4] -- ETA: 0:18:00'),
        ('INFO','download: ','Download file: model-00002-of-00004.safetensors')], base=360) + '\n' +
    tg([('INFO','download: ','Downloaded /data/models--m/snapshots/abc/model-00002-of-00004.safetensors in 0:06:00.'),('INFO','download: ','Download: [2/4] -- ETA: 0:12:00'),
        ('INFO','download: ','Download file: model-00003-of-00004.safetensors')], base=720))

# Triton launched by mpirun --tag-output with two ranks: each rank's lines carry "[1,R]<stream>:"
def tagged(rank, stream, lines):
    return '\n'.join(f'[1,{rank}]<{stream}>:{l}' for l in lines.split('\n'))
case('trt_mpirun_tagged_kv_oom', 'crashed', 'kv_cache', 'kv_memory', '\n'.join([
    tagged(0, 'stdout', trt([('C','MPI size: 2, rank: 0'),('C','TRTGptModel maxNumSequences: 64'),('C','Loaded engine size: 8745 MiB')])),
    tagged(1, 'stdout', trt([('C','MPI size: 2, rank: 1'),('C','TRTGptModel maxNumSequences: 64'),('C','Loaded engine size: 8745 MiB')])),
    tagged(0, 'stdout', trt([('C','Memory usage when calculating max tokens in paged kv cache: total: 23.68 GiB, available: 9.10 GiB')])),
    tagged(1, 'stdout', trt([('C','Memory usage when calculating max tokens in paged kv cache: total: 23.68 GiB, available: 0.02 GiB')])),
    tagged(1, 'stderr', trt([('CE','CUDA runtime error in ::cudaMalloc(ptr, n): out of memory (/app/tensorrt_llm/cpp/tensorrt_llm/runtime/tllmBuffers.h:125)')])),
    tagged(0, 'stdout', trt([('C','[MemUsageChange] Allocated 8.19 GiB for max tokens in paged KV cache (120000).')])),
    '--------------------------------------------------------------------------',
    'Primary job  terminated normally, but 1 process returned',
    'a non-zero exit code. Per user-direction, the job has been aborted.']) + '\n')
# crash loops in the words of the supervisors
VCRASH = vl(VHEAD+[('INFO','gpu_model_runner.py:1953','Starting to load model m...')] + tb([('vllm/v1/worker/gpu_worker.py','init_device')],
    'ValueError: Free memory on device cuda:0 (0.41/79.18 GiB) on startup is less than desired GPU memory utilization (0.9, 71.26 GiB). Decrease GPU memory utilization or reduce GPU memory used by other processes.'))
case('k8s_describe_restart_count', 'crash_loop', '*', '*', VCRASH + '''
$ kubectl describe pod vllm-0
    State:          Waiting
      Reason:       CrashLoopBackOff
    Last State:     Terminated
      Reason:       Error
      Exit Code:    1
    Ready:          False
    Restart Count:  5
  Warning  BackOff    2m (x20 over 7m)  kubelet  Back-off restarting failed container vllm in pod vllm-0
''')
case('k8s_get_pods', 'crash_loop', '*', '*', VCRASH + '''
$ kubectl get pods
NAME                     READY   STATUS             RESTARTS      AGE
vllm-deployment-abc-1    0/1     CrashLoopBackOff   4 (30s ago)   2m49s
''')
case('k8s_backoff_only', 'crash_loop', '*', '*', VCRASH + '''
  Warning  BackOff  3m (x12 over 6m)  kubelet  Back-off restarting failed container vllm in pod vllm-0_default(abc)
''')
case('docker_restarting', 'crash_loop', '*', '*', VCRASH + '''
$ docker ps
CONTAINER ID   IMAGE                    COMMAND                  CREATED         STATUS                         PORTS     NAMES
1a2b3c4d5e6f   vllm/vllm-openai:latest  "vllm serve m"           3 minutes ago   Restarting (1) 8 seconds ago             vllm
''')
case('systemd_paste', 'crash_loop', '*', '*', '''Mar 09 12:00:00 host systemd[1]: Started vllm.service - vLLM.
''' + '\n'.join('Mar 09 12:00:%02d host vllm[100]: %s' % (i+1, l) for i, l in enumerate(VCRASH.split('\n'))) + '''
Mar 09 12:01:00 host systemd[1]: vllm.service: Main process exited, code=exited, status=1/FAILURE
Mar 09 12:01:00 host systemd[1]: vllm.service: Failed with result 'exit-code'.
Mar 09 12:01:30 host systemd[1]: vllm.service: Scheduled restart job, restart counter is at 3.
Mar 09 12:01:30 host systemd[1]: Stopped vllm.service - vLLM.
Mar 09 12:01:30 host systemd[1]: Started vllm.service - vLLM.
''')
case('v1_free_memory', 'crashed', 'launch', 'orphan_processes', vl(VHEAD + tb([('vllm/v1/executor/multiproc_executor.py','worker_main'),('vllm/v1/worker/gpu_worker.py','init_device')],
    'ValueError: Free memory on device cuda:0 (0.41/79.18 GiB) on startup is less than desired GPU memory utilization (0.9, 71.26 GiB). Decrease GPU memory utilization or reduce GPU memory used by other processes.')))
case('v1_dist_init_fail', 'crashed', 'distributed_init', '*', vl(VHEAD + tb([('vllm/v1/worker/gpu_worker.py','init_device'),('vllm/v1/worker/gpu_worker.py','init_worker_distributed_environment'),('vllm/distributed/parallel_state.py','init_distributed_environment'),('torch/distributed/c10d_logger.py','wrapper')],
    'torch.distributed.DistStoreError: Timed out after 601 seconds waiting for clients. 1/2 clients joined.')))
def restarted(text, k):
    """The same lines printed again by the k-th restart: every time of day k * 5 minutes later (a
    copy with the first run's times is the same paste twice, not a restart)."""
    import re as _re
    def shift(m):
        t = int(m.group(1)) * 3600 + int(m.group(2)) * 60 + int(m.group(3)) + k * 300
        return '%02d:%02d:%02d' % (t // 3600 % 24, t // 60 % 60, t % 60)
    return _re.sub(r'(?<![\d:])(\d\d):(\d\d):(\d\d)(?![\d:])', shift, text)
def restarts(text, n, sep='\n'):
    return sep.join(restarted(text, k) for k in range(n))
VC3 = restarts(VCRASH, 3)
case('docker_logs_three_banners', 'crash_loop', '*', '*', VC3)
SGC = sg(SHEAD) + '\n' + sg(SDIST+['Load weight begin. avail mem=78.00 GB', 'Scheduler hit an exception: Traceback (most recent call last):', "ValueError: bad config"], tp=0)
case('sg_three_banners', 'crash_loop', 'weight_load', '*', restarts(SGC, 3))
# ---- causes, one per row of hang-causes.md, in the engines' words
def sgcrash(err_lines, pre=SDIST+['Load weight begin. avail mem=78.00 GB']):
    return sg(SHEAD) + '\n' + sg(pre + ['Scheduler hit an exception: Traceback (most recent call last):'] + err_lines, tp=0)
case('c_p2p_hang', 'stalled', 'distributed_init', 'nccl_p2p', sg(SHEAD) + '\n' + sg(['Init torch distributed begin.', 'sglang is using nccl==2.21.5',
    'NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC', 'NCCL INFO Channel 01/0 : 0[0] -> 1[1] via P2P/IPC'], tp=0) + '\n[2025-09-22 10:20:00] Waiting for scheduler\n')
case('c_nvls', 'stalled', 'distributed_init', 'nccl_transport', sg(SHEAD) + '\n' + sg(['Init torch distributed begin.', 'sglang is using nccl==2.21.5',
    'NCCL INFO NVLS Bind mem 0x7f0000000000 UC handle 0x1 MC handle 0x2 size 1073741824'], tp=0) + '\n[2025-09-22 10:20:00] Waiting for scheduler\n')
case('c_shm', 'crashed', 'distributed_init', 'dev_shm', sgcrash(['RuntimeError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:275, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5',
    'ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error.', 'Last error:', 'Error while creating shared memory segment /dev/shm/nccl-abc (size 9637888)'], pre=['Init torch distributed begin.']))
case('c_hf_gated', 'crashed', '*', 'hf_download', vl(VHEAD[:2]) + '\n' + '''Traceback (most recent call last):
  File "/usr/local/lib/python3.12/dist-packages/huggingface_hub/utils/_http.py", line 409, in hf_raise_for_status
    response.raise_for_status()
requests.exceptions.HTTPError: 401 Client Error: Unauthorized for url: https://huggingface.co/meta-llama/Llama-3.1-8B/resolve/main/config.json
huggingface_hub.errors.GatedRepoError: 401 Client Error. Cannot access gated repo for url https://huggingface.co/meta-llama/Llama-3.1-8B/resolve/main/config.json.
''')
case('c_hf_offline', 'crashed', '*', 'hf_download', vl(VHEAD[:2]) + '\n' + '''Traceback (most recent call last):
OSError: We couldn't connect to 'https://huggingface.co' to load this file, couldn't find it in the cached files and it looks like Qwen/Qwen3-8B is not the path to a directory containing a file named config.json.
''')
case('c_hf_stall', 'stalled', 'download', 'hf_download', '''2024-05-01T01:00:00.618817Z  INFO text_generation_launcher: Args { model_id: "m" }
2024-05-01T01:00:01.618817Z  INFO download: text_generation_launcher: Starting download process.
2024-05-01T01:00:02.618817Z  INFO text_generation_launcher: Download file: model-00001-of-00004.safetensors
2024-05-01T01:30:02.618817Z  WARN text_generation_launcher: Waiting for download
''')
case('c_host_oom', 'crashed', '*', 'host_oom', sg(SHEAD) + '\n' + sg(SDIST + ['Load weight begin. avail mem=78.00 GB'], tp=0) + '\n' + sg(['Received sigquit from a child process. It usually means the child failed.'], m=3) + '\n[Mon Sep 22 10:03:00 2025] Out of memory: Killed process 4242 (python3) total-vm:900000000kB\n')
case('c_skew', 'crashed', 'weight_load', 'rank_load_skew', sgcrash(["ValueError: TP rank 1 could finish the model loading, but there are other ranks that didn't finish loading. It is likely due to unexpected failures (e.g. OOM) or a slow node."]))
case('c_mtp', 'crashed', '*', 'mtp_hybrid', sgcrash(["ValueError: Speculative decoding for Qwen3_5MoeForConditionalGeneration is not compatible with radix cache when using --mamba-scheduler-strategy no_buffer. To use radix cache with speculative decoding, please use --mamba-scheduler-strategy extra_buffer and set SGLANG_ENABLE_SPEC_V2=1."], pre=[]))
case('c_remote_code', 'crashed', '*', 'tokenizer_remote_code', vl(VHEAD[:2]) + '\n' + '''Traceback (most recent call last):
ValueError: The repository for deepseek-ai/DeepSeek-V3 contains custom code which must be executed to correctly load the model. You can inspect the repository content at https://hf.co/deepseek-ai/DeepSeek-V3. Please pass the argument `trust_remote_code=True` to allow custom code to be run.
''')
case('c_stale_handle', 'crashed', '*', 'shared_jit_cache', sgcrash(["OSError: [Errno 116] Stale file handle: '/nfs/cache/triton/abc'"]))
case('c_fabric', 'crashed', '*', 'host_platform', vl(VHEAD[:2]) + '\n' + '''Traceback (most recent call last):
RuntimeError: Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions before calling NumCudaDevices() that might have already set an error? Error 802: system not yet initialized
''')
case('c_driver', 'crashed', '*', 'cuda_build_mismatch', vl(VHEAD[:2]) + '\n' + '''Traceback (most recent call last):
RuntimeError: The NVIDIA driver on your system is too old (found version 11040). Please update your GPU driver by downloading and installing a new version from the URL: http://www.nvidia.com/Download/index.aspx
''')
case('c_nokernel', 'crashed', '*', 'cuda_build_mismatch', sgcrash(["RuntimeError: CUDA error: no kernel image is available for execution on the device", "CUDA kernel errors might be asynchronously reported at some other API call"]))
# vllm/_C built against another torch: a torch C++ symbol it needs is missing (the packages
# disagree; a CUDA runtime symbol would be the build's mismatch with CUDA).
case('c_undefined_symbol', 'crashed', '*', 'package_mismatch', vl(VHEAD[:2]) + '\n' + '''Traceback (most recent call last):
ImportError: /usr/local/lib/python3.12/dist-packages/vllm/_C.abi3.so: undefined symbol: _ZN3c1017RegisterOperatorsD1Ev
''')
case('c_corrupt', 'crashed', 'weight_load', 'corrupt_safetensors', vl(VHEAD + VLOAD[:1]) + '\n' + '''Traceback (most recent call last):
safetensors_rust.SafetensorError: Error while deserializing header: HeaderTooLarge
''')
case('c_graph_hang', 'stalled', 'cuda_graph', 'cuda_graph_hang', sg(SHEAD) + '\n' + sg(SDIST+SLOAD+SKV+['Capture cuda graph begin. This can take up to several minutes. avail mem=1.45 GB'], tp=0) + '\n[2025-09-22 10:30:00] Waiting for scheduler\n')
case('c_port_zmq', 'crashed', '*', 'port_in_use', sgcrash(["zmq.error.ZMQError: Address already in use (addr='tcp://127.0.0.1:30001')"], pre=[]))
case('c_rendezvous_refused', 'crashed', 'distributed_init', 'rendezvous', sg(["server_args=ServerArgs(model_path='m', tp_size=16, nnodes=2, node_rank=1, dist_init_addr='10.0.0.1:5000')"]) + '\n' + sg(['Init torch distributed begin.', 'Scheduler hit an exception: Traceback (most recent call last):', 'torch.distributed.DistNetworkError: The client socket has failed to connect to [10.0.0.1]:5000 (errno: 110 - Connection timed out).'], tp=8))
# a warning that mentions "not supported" must not outrank the crash's own error
case('c_warning_vs_oom', 'crashed', 'weight_load', 'gpu_oom', vl(VHEAD + [('WARNING','config.py:1','Sliding window attention is not supported for this backend; disabling it.')] + VLOAD[:1] + tb(
    [('vllm/v1/worker/gpu_model_runner.py','load_model')], "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.16 GiB. GPU 0 has a total capacity of 23.53 GiB of which 738.94 MiB is free.")))
case('c_warning_vs_p2p', 'crashed', 'cuda_graph', 'illegal_memory_access', vl(VHEAD + [('WARNING','custom_all_reduce.py:1',"Custom allreduce is disabled because your platform lacks GPU P2P capability or P2P test failed. To silence this warning, specify disable_custom_all_reduce=True explicitly.")] + VLOAD + VCOMP + VKV) +
     '\nCapturing CUDA graphs (mixed prefill-decode, PIECEWISE):  45%|████▌     | 30/67 [00:05<00:06,  5.90it/s]\n' +
     vl(tb([('vllm/v1/worker/gpu_model_runner.py','_dummy_run')], 'RuntimeError: CUDA error: an illegal memory access was encountered')))
# ---- wrapped formats
BASE_SG = sg(SHEAD) + '\n' + sg(SDIST+SLOAD+SKV+['Capture cuda graph begin.'], tp=0) + '\n[2025-09-22 10:30:00] Waiting for scheduler'
def wrap(fn): return '\n'.join(fn(l) for l in BASE_SG.split('\n')) + '\n'
# A wrapper stamps each line when it was written: the engine's own time, here (the container runs in UTC).
import re as _re
def ts_of(l):
    m = _re.search(r'\[(\d{4})-(\d\d)-(\d\d) (\d\d:\d\d:\d\d)', l)
    return m.groups() if m else ('2025', '09', '22', '10:00:00')
def iso(l): y, mo, d, hms = ts_of(l); return f'{y}-{mo}-{d}T{hms}'
def syslog_ts(l): y, mo, d, hms = ts_of(l); return f'Sep {d} {hms}'
case('w_stern', 'stalled', 'cuda_graph', '*', wrap(lambda l: 'sglang-7d9f-abcde sglang ' + l))
case('w_stern_ts', 'stalled', 'cuda_graph', '*', wrap(lambda l: 'sglang-7d9f-abcde sglang ' + iso(l) + '.123456789Z ' + l))
case('w_kubectl_prefix', 'stalled', 'cuda_graph', '*', wrap(lambda l: '[pod/sglang-7d9f-abcde/sglang] ' + l))
case('w_compose', 'stalled', 'cuda_graph', '*', wrap(lambda l: 'sglang-1  | ' + l))
case('w_docker_ts', 'stalled', 'cuda_graph', '*', wrap(lambda l: iso(l) + '.123456789Z ' + l))
case('w_k8s_json', 'stalled', 'cuda_graph', '*', wrap(lambda l: json.dumps({"log": l + "\n", "stream": "stderr", "time": "2025-09-22T10:00:00.1Z"})))
case('w_cri', 'stalled', 'cuda_graph', '*', wrap(lambda l: iso(l) + '.123456789+00:00 stderr F ' + l))
case('w_journal_cat', 'stalled', 'cuda_graph', '*', wrap(lambda l: l))
case('w_loki', 'stalled', 'cuda_graph', '*', wrap(lambda l: iso(l) + 'Z {app="sglang", pod="sglang-0"} ' + l))
case('w_syslog', 'stalled', 'cuda_graph', '*', wrap(lambda l: syslog_ts(l) + ' gpu-node-1 sglang[4242]: ' + l))
case('w_ray', 'stalled', 'cuda_graph', '*', wrap(lambda l: '(ServeReplica:default:SGLang pid=4242) ' + l))
case('w_linenum', 'stalled', 'cuda_graph', '*', '\n'.join('%4d  %s' % (i+1, l) for i, l in enumerate(BASE_SG.split('\n'))) + '\n')
case('w_ansi', 'stalled', 'cuda_graph', '*', wrap(lambda l: '\x1b[36m' + l + '\x1b[0m'))
case('w_quote_gt', 'stalled', 'cuda_graph', '*', wrap(lambda l: '> ' + l))
# ---- worker RPC method names say where a worker failed
case('v0_worker_method_load', 'crashed', 'weight_load', 'gpu_oom', '''INFO 08-20 10:00:00 api_server.py:206] vLLM API server version 0.6.1
INFO 08-20 10:00:01 llm_engine.py:169] Initializing an LLM engine (v0.6.1) with config: model='m'
(VllmWorkerProcess pid=11) INFO 08-20 10:00:05 multiproc_worker_utils.py:215] Worker ready; awaiting tasks
INFO 08-20 10:00:06 pynccl.py:63] vLLM is using nccl==2.20.5
(VllmWorkerProcess pid=11) ERROR 08-20 10:00:30 multiproc_worker_utils.py:226] Exception in worker VllmWorkerProcess while processing method load_model.
(VllmWorkerProcess pid=11) ERROR 08-20 10:00:30 multiproc_worker_utils.py:226] Traceback (most recent call last):
(VllmWorkerProcess pid=11) ERROR 08-20 10:00:30 multiproc_worker_utils.py:226] torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 448.00 MiB.
''')
case('v1_rpc_kv', 'crashed', 'kv_cache', '*', vl(VHEAD + VLOAD + [
    ('ERROR','core.py:700','EngineCore failed to start.'), ('ERROR','core.py:700','Traceback (most recent call last):'),
    ('ERROR','core.py:700','  File "/usr/local/lib/python3.12/dist-packages/vllm/v1/engine/core.py", line 100, in _initialize_kv_caches'),
    ('ERROR','core.py:700','    available_gpu_memory = self.model_executor.determine_available_memory()'),
    ('ERROR','core.py:700','  File "/usr/local/lib/python3.12/dist-packages/vllm/v1/executor/abstract.py", line 100, in determine_available_memory'),
    ('ERROR','core.py:700','    output = self.collective_rpc("determine_available_memory")'),
    ('ERROR','core.py:700','  File "/usr/local/lib/python3.12/dist-packages/vllm/v1/executor/multiproc_executor.py", line 100, in collective_rpc'),
    ('ERROR','core.py:700','    raise RuntimeError(f"Worker failed with error \'{e}\', please check the stack trace above for the root cause")'),
    ('ERROR','core.py:700',"RuntimeError: Worker failed with error 'CUDA error: an illegal memory access was encountered', please check the stack trace above for the root cause")]))
case('v1_rpc_graph', 'crashed', 'cuda_graph', '*', vl(VHEAD + VLOAD + VCOMP + VKV + [
    ('ERROR','core.py:700','EngineCore failed to start.'), ('ERROR','core.py:700','Traceback (most recent call last):'),
    ('ERROR','core.py:700','  File "/usr/local/lib/python3.12/dist-packages/vllm/v1/engine/core.py", line 100, in _initialize_kv_caches'),
    ('ERROR','core.py:700','    self.model_executor.initialize_from_config(kv_cache_configs)'),
    ('ERROR','core.py:700','  File "/usr/local/lib/python3.12/dist-packages/vllm/v1/executor/abstract.py", line 100, in initialize_from_config'),
    ('ERROR','core.py:700','    self.collective_rpc("compile_or_warm_up_model")'),
    ('ERROR','core.py:700',"RuntimeError: Worker failed with error 'NCCL error: unhandled cuda error', please check the stack trace above for the root cause")]))
def vt(lines):
    out=[]
    for i,(tag,lvl,f,m) in enumerate(lines):
        out.append(f"({tag}) {lvl} 08-20 10:{i//60:02d}:{i%60:02d} [{f}] {m}")
    return '\n'.join(out)
TP2 = [('APIServer pid=1','INFO','api_server.py:1805','vLLM API server version 0.10.1'),
       ('EngineCore_0 pid=20','INFO','core.py:75','Initializing a V1 LLM engine (v0.10.1) with config: model=m'),
       ('VllmWorker rank=0 pid=30','INFO','parallel_state.py:1134','rank 0 in world size 2 is assigned as DP rank 0, PP rank 0, TP rank 0, EP rank 0'),
       ('VllmWorker rank=1 pid=31','INFO','parallel_state.py:1134','rank 1 in world size 2 is assigned as DP rank 0, PP rank 0, TP rank 1, EP rank 0'),
       ('VllmWorker rank=0 pid=30','INFO','gpu_model_runner.py:1953','Starting to load model m...'),
       ('VllmWorker rank=1 pid=31','INFO','gpu_model_runner.py:1953','Starting to load model m...'),
       ('VllmWorker rank=0 pid=30','INFO','gpu_model_runner.py:2007','Model loading took 15.27 GiB and 21.02 seconds'),
       ('VllmWorker rank=1 pid=31','INFO','gpu_model_runner.py:2007','Model loading took 15.27 GiB and 21.02 seconds'),
       ('VllmWorker rank=0 pid=30','INFO','monitor.py:34','torch.compile takes 14.20 s in total'),
       ('VllmWorker rank=1 pid=31','INFO','monitor.py:34','torch.compile takes 14.20 s in total'),
       ('VllmWorker rank=0 pid=30','INFO','gpu_worker.py:276','Available KV cache memory: 50.00 GiB'),
       ('EngineCore_0 pid=20','INFO','kv_cache_utils.py:849','GPU KV cache size: 400,000 tokens'),
       ('EngineCore_0 pid=20','INFO','kv_cache_utils.py:853','Maximum concurrency for 40,960 tokens per request: 9.77x')]
case('v1_tp2_graph_crash', 'crashed', 'cuda_graph', '*', vt(TP2) + '\n(VllmWorker rank=0 pid=30) Capturing CUDA graphs:  20%|██  | 13/67 [00:03<00:12]\n' + vt([
       ('VllmWorker rank=1 pid=31','ERROR','multiproc_executor.py:527','WorkerProc hit an exception.'),
       ('VllmWorker rank=1 pid=31','ERROR','multiproc_executor.py:527','Traceback (most recent call last):'),
       ('VllmWorker rank=1 pid=31','ERROR','multiproc_executor.py:527',"RuntimeError: NCCL error: unhandled cuda error"),
       ('EngineCore_0 pid=20','ERROR','core.py:700','EngineCore failed to start.'),
       ('APIServer pid=1','ERROR','api_server.py:1','RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}')]))
case('v1_tp2_load_crash_other_rank', 'crashed', 'weight_load', 'gpu_oom', vt(TP2[:6] + [
       ('VllmWorker rank=1 pid=31','ERROR','multiproc_executor.py:527','WorkerProc failed to start.'),
       ('VllmWorker rank=1 pid=31','ERROR','multiproc_executor.py:527','Traceback (most recent call last):'),
       ('VllmWorker rank=1 pid=31','ERROR','multiproc_executor.py:527','torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.00 GiB.'),
       ('VllmWorker rank=0 pid=30','INFO','gpu_model_runner.py:2007','Model loading took 15.27 GiB and 21.02 seconds'),
       ('EngineCore_0 pid=20','ERROR','core.py:700','EngineCore failed to start.')]))
# ---- vLLM's engine is ready before its server: an error in between is a crash in http_start
case('v1_chat_template_crash', 'crashed', 'http_start', '*', vl(VHEAD+VLOAD+VCOMP+VKV+[
    ('INFO','core.py:210','init engine (profile, create kv cache, warmup model) took 44.51 seconds'),
    ('INFO','api_server.py:1','Supported_tasks: [\'generate\']')]) + '''
Traceback (most recent call last):
  File "/usr/local/lib/python3.12/dist-packages/vllm/entrypoints/openai/api_server.py", line 1400, in init_app_state
    resolved_chat_template = load_chat_template(args.chat_template)
ValueError: The supplied chat template string (/models/template.jinja) appears path-like, but doesn't exist!
''')
case('v1_ready_then_request_error', 'ready', 'ready', '*', vl(VHEAD+VLOAD+VCOMP+VKV+[
    ('INFO','core.py:210','init engine (profile, create kv cache, warmup model) took 44.51 seconds'),
    ('INFO','api_server.py:1','Starting vLLM API server 0 on http://0.0.0.0:8000')]) + '''
INFO:     Started server process [1]
INFO:     Waiting for application startup.
INFO:     Application startup complete.
''' + vl([('ERROR','serving_chat.py:1','Error in preprocessing prompt inputs'), ('ERROR','serving_chat.py:1','ValueError: This model\'s maximum context length is 4096 tokens.')]))

# ---- SGLang's other subprocesses die in the same words as its scheduler
case('sg_dp_controller_crash', 'crashed', 'weight_load', '*', sg(SHEAD) + '\n' + sg(SDIST+['Load weight begin. avail mem=78.00 GB'], tp=0) + '\n' + sg(['DataParallelController hit an exception: Traceback (most recent call last):', 'RuntimeError: Rank 1 scheduler died during initialization'], m=1))
case('sg_scheduler_dead', 'crashed', 'weight_load', '*', sg(SHEAD) + '\n' + sg(SDIST+['Load weight begin. avail mem=78.00 GB'], tp=0) + '\n' + sg(['Rank 0 scheduler is dead. Please check if there are relevant logs.'], m=1))

# ---- vLLM's API server is up once its own access log or its periodic stats logger speaks (the
# stats task starts in the server's lifespan), even where the excerpt lost "Application startup"
case('v0_stats_ready', 'ready', 'ready', '*', vl([('INFO','llm_engine.py:237','Initializing an LLM engine (v0.6.3) with config: model=\'meta-llama/Llama-3.1-8B\''),
    ('INFO','model_runner.py:1060','Starting to load model meta-llama/Llama-3.1-8B...'),
    ('INFO','model_runner.py:1071','Loading model weights took 14.99 GB'),
    ('INFO','gpu_executor.py:122','# GPU blocks: 27000, # CPU blocks: 2048'),
    ('INFO','model_runner.py:1400','Capturing the model for CUDA graphs. This may lead to unexpected consequences if the model is not static.'),
    ('INFO','model_runner.py:1524','Graph capturing finished in 12 secs.'),
    ('INFO','metrics.py:349','Avg prompt throughput: 0.0 tokens/s, Avg generation throughput: 0.0 tokens/s, Running: 0 reqs, Swapped: 0 reqs, Pending: 0 reqs, GPU KV cache usage: 0.0%, CPU KV cache usage: 0.0%.')]))
case('v1_health_probe_ready', 'ready', 'ready', '*', vl(VHEAD+VLOAD+VCOMP+VKV+[
    ('INFO','gpu_model_runner.py:2708','Graph capturing finished in 9 secs, took 0.55 GiB')]) +
    '\nINFO:     10.1.2.3:50512 - "GET /health HTTP/1.1" 200 OK\n')
# ---- Docker Compose says when a service's container died ("NAME exited with code N"): the attempt
# ended there, even where the engine printed nothing (SIGKILL = 137 is the kernel's OOM killer's mark)
BASE_V = vl(VHEAD + VLOAD[:1]) + '\nLoading safetensors checkpoint shards:  40% Completed | 2/5 [00:30<00:45, 15.0s/it]'
case('w_compose_exit_oom', 'crashed', 'weight_load', 'host_oom', '\n'.join('vllm-1  | ' + l for l in BASE_V.split('\n')) + '\nvllm-1 exited with code 137\n')
case('w_compose_exit_loop', 'crash_loop', 'weight_load', '*', restarts('\n'.join('vllm-1  | ' + l for l in BASE_V.split('\n')) + '\nvllm-1 exited with code 1\n', 2, ''))

# ---- causes outside the hang table: no GPU visible, a full disk, a read-only cache, a parallel layout
# that does not divide the model, a context longer than the model's, a GPU that lacks a feature
case('c_no_gpu', 'crashed', '*', 'no_gpu_visible', vl(VHEAD[:2]) + '''
Traceback (most recent call last):
  File "/usr/local/lib/python3.12/dist-packages/vllm/engine/arg_utils.py", line 1000, in create_engine_config
    device_config = DeviceConfig(device=self.device)
RuntimeError: Failed to infer device type
''')
case('c_no_gpu_sg', 'crashed', '*', 'no_gpu_visible', sgcrash(['RuntimeError: No CUDA GPUs are available'], pre=['Init torch distributed begin.']))
case('c_disk_full', 'crashed', 'compile', 'disk_full', vl(VHEAD+VLOAD+VCOMP[:2]+tb(
    [('vllm/compilation/backends.py','__call__'),('torch/_inductor/codecache.py','write_atomic')],
    "OSError: [Errno 28] No space left on device: '/root/.cache/vllm/torch_compile_cache/abc/rank_0_0/inductor_cache/tmp1'")))
case('c_shm_not_disk', 'crashed', 'distributed_init', 'dev_shm', sgcrash(['RuntimeError: NCCL error: unhandled system error',
    'Error while creating shared memory segment /dev/shm/nccl-x3 (size 9637888): No space left on device'], pre=['Init torch distributed begin.']))
case('c_cache_ro', 'crashed', '*', 'cache_not_writable', sgcrash(["PermissionError: [Errno 13] Permission denied: '/home/sglang/.cache/flashinfer'"]))
case('c_cache_rofs', 'crashed', '*', 'cache_not_writable', vl(VHEAD[:2]) + '''
Traceback (most recent call last):
OSError: [Errno 30] Read-only file system: '/.cache/huggingface'
''')
case('c_tp_heads', 'crashed', '*', 'parallel_layout', vl(VHEAD[:2]) + '''
Traceback (most recent call last):
  File "/usr/local/lib/python3.12/dist-packages/vllm/config.py", line 900, in verify_with_parallel_config
    raise ValueError(
ValueError: Total number of attention heads (40) must be divisible by tensor parallel size (3).
''')
case('c_tgi_shards', 'crashed', '*', 'parallel_layout', tg(THEAD+[('INFO','shard-manager: ','Waiting for shard to be ready... rank=0'),
    ('ERROR','shard-manager: ','Shard complete standard error output:\n\nAssertionError: `num_heads` must be divisible by `num_shards` (got `num_heads`: 40 and `num_shards`: 3'),
    ('ERROR','','Shard 0 failed to start'),('INFO','','Shutting down shards'),('ERROR','', 'Error: ShardCannotStart')]))
case('c_ctx_long', 'crashed', '*', 'context_too_long', vl(VHEAD[:2]) + '''
Traceback (most recent call last):
ValueError: User-specified max_model_len (262144) is greater than the derived max_model_len (max_position_embeddings=131072 or model_max_length=None in model's config.json). To allow overriding this maximum, set the env var VLLM_ALLOW_LONG_MAX_MODEL_LEN=1.
''')
case('c_bf16_old_gpu', 'crashed', '*', 'gpu_arch_feature', vl(VHEAD[:2]) + '''
Traceback (most recent call last):
ValueError: Bfloat16 is only supported on GPUs with compute capability of at least 8.0. Your Tesla T4 GPU has compute capability 7.5. You can use float16 instead by explicitly setting the `dtype` flag in CLI, for example: --dtype=half.
''')
case('c_quant_capability', 'crashed', 'weight_load', 'gpu_arch_feature', vl(VHEAD+VLOAD[:1]) + '''
Traceback (most recent call last):
ValueError: The quantization method fp8 is not supported for the current GPU. Minimum capability: 89. Current capability: 86.
''')

# ---- supervisord inside the image: its own lines start and end each attempt
SUP_V = vl(VHEAD + VLOAD[:1]) + '\nLoading safetensors checkpoint shards:  40% Completed | 2/5 [00:30<00:45, 15.0s/it]'
case('sup_loop', 'crash_loop', 'weight_load', 'restart_loop',
     restarts("2025-08-20 10:00:00,100 INFO spawned: 'vllm' with pid 42\n" + SUP_V + "\n2025-08-20 10:01:00,100 WARN exited: vllm (exit status 1; not expected)\n", 2, '') +
     "2025-08-20 10:08:00,100 INFO gave up: vllm entered FATAL state, too many start retries too quickly\n")
case('sup_sigkill', 'crashed', 'weight_load', 'host_oom',
     "2025-08-20 10:00:00,100 INFO spawned: 'vllm' with pid 42\n" + SUP_V + "\n2025-08-20 10:01:00,100 WARN exited: vllm (terminated by SIGKILL; not expected)\n")
# ---- Kubernetes events: a liveness/startup probe that kills a slow start ends the attempt and restarts it
case('k8s_probe_kill', 'crashed', 'weight_load', 'restart_loop', SUP_V + '''
Events:
  Type     Reason     Age                From     Message
  ----     ------     ----               ----     -------
  Warning  Unhealthy  40s (x3 over 60s)  kubelet  Liveness probe failed: Get "http://10.1.2.3:8000/health": dial tcp 10.1.2.3:8000: connect: connection refused
  Normal   Killing    40s                kubelet  Container vllm failed liveness probe, will be restarted
''')

# ---- one clock per log: the engine logs in its container's zone (UTC+8 here), the wrapper in UTC;
# mixing the two would turn the 8 h offset into a stall
def shift8(l):
    y, mo, d, hms = ts_of(l); h = (int(hms[:2]) + 8) % 24
    return l.replace(f'{y}-{mo}-{d} {hms}', f'{y}-{mo}-{d} {h:02d}{hms[2:]}', 1)
BASE_SG_RUN = sg(SHEAD) + '\n' + sg(SDIST+SLOAD+SKV+['Capture cuda graph begin.'], tp=0)
case('w_docker_ts_zone', 'in_progress', 'cuda_graph', '*', '\n'.join(iso(l) + '.123456789Z ' + shift8(l) for l in BASE_SG_RUN.split('\n')) +
     '\n' + iso(BASE_SG_RUN.split('\n')[-1]) + '.223456789Z Capturing batches (bs=256 avail_mem=2.00 GB):   2%|▏         | 1/52 [00:01<00:51,  1.00it/s]\n')

# ---- SGLang across releases (swords): the same phases and failures in each era's wording, from
# the sources of 0.1/0.2 ("[gpu_id=0]", no time), 0.3 ("[10:00:01 TP0]", time only), 0.4/0.5 and
# 2026 main (`sglang serve`)
def sgt(lines, tp=None, m=0):
    return '\n'.join(f'[10:{m+i//60:02d}:{i%60:02d}{" TP%d" % tp if tp is not None else ""}] {l}' for i, l in enumerate(lines))
def gid(lines): return '\n'.join('[gpu_id=0] ' + l for l in lines)
def pyframes(fr, root='/usr/local/lib/python3.10/dist-packages/sglang/srt'):
    return [x for path, fn in fr for x in (f'  File "{root}/{path}", line 100, in {fn}', '    x = y()')]
UVI = ['INFO:     Started server process [1234]', 'INFO:     Waiting for application startup.', 'INFO:     Application startup complete.',
       'INFO:     Uvicorn running on http://127.0.0.1:30000 (Press CTRL+C to quit)']
S02_UP = "server_args=ServerArgs(model_path='meta-llama/Meta-Llama-3-8B-Instruct', tp_size=1, mem_fraction_static=0.88)\n" + gid([
    'Set cuda device.', 'Init nccl begin.', 'Load weight begin. avail mem=78.50 GB',
    'Load weight end. type=LlamaForCausalLM, dtype=torch.bfloat16, avail mem=63.43 GB', 'Memory pool end. avail mem=7.41 GB',
    'Capture cuda graph begin. This can take up to several minutes.',
    'max_total_num_tokens=444139, max_prefill_tokens=16384, max_running_requests=4095, context_len=8192']) + '\n' + '\n'.join(UVI + [
    'INFO:     127.0.0.1:52742 - "GET /get_model_info HTTP/1.1" 200 OK']) + '\n[gpu_id=0] Prefill batch. #new-seq: 1, #new-token: 7, #cached-token: 0, cache hit rate: 0.00%, #running-req: 0, #queue-req: 0'
case('sg02_ready', 'ready', 'ready', None, S02_UP + '\nINFO:     127.0.0.1:52748 - "POST /generate HTTP/1.1" 200 OK\nThe server is fired up and ready to roll!\n')
case('sg02_warmup_oom', 'crashed', 'warmup', 'gpu_oom', S02_UP + '\n' + '\n'.join(['Exception in ModelTpServer:', 'Traceback (most recent call last):'] +
    pyframes([('managers/controller/tp_worker.py', 'exposed_step'), ('managers/controller/tp_worker.py', 'forward_step'), ('managers/controller/tp_worker.py', 'forward_prefill_batch')]) +
    ['torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.91 GiB. GPU 0 has a total capacity of 79.15 GiB of which 1.20 GiB is free.']))
S03 = sgt(["server_args=ServerArgs(model_path='m', tp_size=2)"])
case('sg03_tp_server_load', 'crashed', 'weight_load', '*', S03 + '\n' + sgt(['Init nccl begin.'], tp=0) + '\n' + sgt(['Init nccl begin.', 'Load weight begin. avail mem=38.60 GB', 'Exception in run_tp_server:', 'Traceback (most recent call last):'] +
    pyframes([('managers/tp_worker.py', 'run_tp_server'), ('managers/tp_worker.py', '__init__'), ('model_executor/model_runner.py', '__init__'), ('model_executor/model_runner.py', 'load_model')]) +
    ["KeyError: 'model.layers.0.mlp.experts.w2_weight'"], tp=1) + '\n' + sgt(['Initialization failed. controller_init_state: Traceback (most recent call last):'], m=1))
case('sg03_graph_failed', 'crashed', 'cuda_graph', 'gpu_oom', S03 + '\n' + sgt(['Init nccl begin.', 'Load weight begin. avail mem=38.60 GB', 'Load weight end. type=LlamaForCausalLM, dtype=torch.bfloat16, avail mem=30.12 GB',
    'Memory pool end. avail mem=3.10 GB', 'Capture cuda graph begin. This can take up to several minutes.'], tp=0) + '\n' + sgt(['Initialization failed. controller_init_state: Traceback (most recent call last):'] +
    pyframes([('managers/controller_single.py', 'start_controller_process'), ('managers/tp_worker.py', '__init__'), ('model_executor/model_runner.py', '__init__'),
              ('model_executor/model_runner.py', 'init_cuda_graphs'), ('model_executor/cuda_graph_runner.py', 'capture')]) +
    ['Exception: Capture cuda graph failed: CUDA out of memory. Tried to allocate 1.00 GiB.', 'Possible solutions:', '1. disable cuda graph by --disable-cuda-graph',
     '2. set --mem-fraction-static to a smaller value', '3. disable torch compile by not using --enable-torch-compile'], m=1))
# the hard watchdog (0.4: "Watchdog timeout (...)", 2026: "..., self.soft=False)") kills the server; the soft one only waits
S04_UP = sg(SHEAD) + '\n' + sg(SDIST+SLOAD+SKV+['Capture cuda graph begin.', 'Capture cuda graph end. Time elapsed: 7.23 s', 'max_total_num_tokens=46611, chunked_prefill_size=2048'], tp=0) + '\n' + sg(UVI + [
    'INFO:     127.0.0.1:1 - "GET /get_model_info HTTP/1.1" 200 OK'], m=1) + '\n' + sg(['Prefill batch. #new-seq: 1, #new-token: 7, #cached-token: 0'], tp=0, m=2)
case('sg04_watchdog_kill', 'crashed', 'warmup', '*', S04_UP + '\n' + sg(['Watchdog timeout (self.watchdog_timeout=300)'], tp=0, m=7) + '\n' + sg(['Received sigquit from a child process. It usually means the child failed.'], m=8))
case('sg05_soft_watchdog_stall', 'stalled', 'warmup', '*', S04_UP + '\n' + sg(['Scheduler watchdog timeout (self.watchdog_timeout=300, self.soft=True)'], tp=0, m=7) + '\n' +
     sg(['Scheduler watchdog timeout (self.watchdog_timeout=300, self.soft=True)'], tp=0, m=17))
case('sg04_scheduler_dead_sigkill', 'crashed', 'weight_load', 'host_oom', sg(SHEAD) + '\n' + sg(SDIST+['Load weight begin. avail mem=78.00 GB'], tp=0) + '\n' + sg([
    'Rank 0 scheduler is dead. Please check if there are relevant logs.', 'Exit code: -9', 'Traceback (most recent call last):'] +
    pyframes([('server.py', 'launch_server'), ('server.py', '_launch_subprocesses')]) + ['EOFError'], m=2))
# 2026 main: elapsed= figures, "Capture target decode CUDA graph", the warm-up's GET /model_info; /health answers 503 until warm
S26 = sg(["server_args=ServerArgs(model_path='Qwen/Qwen3-8B', tp_size=1, skip_server_warmup=False)"]) + '\n' + sg(['Init torch distributed begin.', 'Init torch distributed ends. elapsed=1.12 s, mem usage=0.13 GB',
    'Load weight begin. avail mem=78.00 GB', 'Load weight end. elapsed=4.58 s, type=Qwen3ForCausalLM, dtype=torch.bfloat16, avail mem=62.26 GB, mem usage=15.47 GB.',
    'KV Cache is allocated. dtype: torch.bfloat16, #tokens: 400000, K size: 27.47 GB, V size: 27.47 GB', 'Memory pool end. avail mem=6.10 GB',
    'Capture cuda graph begin. This can take up to several minutes. avail mem=6.00 GB', 'Capture target decode CUDA graph end. elapsed=16.40 s, mem usage=0.52 GB, avail mem=5.48 GB.',
    'max_total_num_tokens=400000, chunked_prefill_size=8192, max_prefill_tokens=16384, max_running_requests=4096, context_len=40960, available_gpu_mem=5.48 GB'], tp=0) + '\n' + sg(UVI, m=1)
case('sg26_ready', 'ready', 'ready', None, S26 + '\n' + sg(['INFO:     127.0.0.1:5 - "GET /model_info HTTP/1.1" 200 OK', 'Prefill batch, #new-seq: 1, #new-token: 7',
    'INFO:     127.0.0.1:6 - "POST /generate HTTP/1.1" 200 OK', 'The server is fired up and ready to roll!'], m=2))
case('sg26_health_503_stall', 'stalled', 'warmup', '*', S26 + '\n' + sg(['INFO:     127.0.0.1:5 - "GET /model_info HTTP/1.1" 200 OK'], m=2) + '\n' +
     '\n'.join(sg([f'INFO:     10.0.0.9:4{k} - "GET /health HTTP/1.1" 503 Service Unavailable'], m=mm) for k, mm in enumerate([3, 6, 9, 12, 15, 18])))
# speculative decoding: the draft worker loads and captures its own graphs after the target's
SSPEC = ["server_args=ServerArgs(model_path='meta-llama/Llama-3.1-8B-Instruct', speculative_algorithm='EAGLE3', speculative_draft_model_path='jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B')"]
SSPEC_UP = SDIST + SLOAD + SKV + ['Capture cuda graph begin. This can take up to several minutes. avail mem=8.00 GB', 'Capture cuda graph end. Time elapsed: 9.10 s. mem usage=1.14 GB. avail mem=6.86 GB.',
    'Load weight begin. avail mem=6.80 GB', 'Load weight end. type=LlamaForCausalLMEagle3, dtype=torch.bfloat16, avail mem=5.90 GB, mem usage=0.90 GB.',
    'Capture draft cuda graph begin. This can take up to several minutes. avail mem=5.80 GB']
case('sg_eagle_draft_graph_oom', 'crashed', 'cuda_graph', 'gpu_oom', sg(SSPEC) + '\n' + sg(SSPEC_UP + ['Scheduler hit an exception: Traceback (most recent call last):'] +
    pyframes([('managers/scheduler.py', 'run_scheduler_process'), ('managers/scheduler.py', '__init__'), ('managers/scheduler.py', 'init_model_worker'), ('managers/scheduler.py', 'maybe_init_draft_worker'),
              ('speculative/eagle_worker.py', '__init__'), ('speculative/eagle_worker.py', 'init_cuda_graphs'), ('speculative/eagle_draft_cuda_graph_runner.py', '__init__')]) +
    ['Exception: Capture cuda graph failed: CUDA out of memory. Tried to allocate 2.00 GiB.'], tp=0))
case('sg_eagle_ready', 'ready', 'ready', None, sg(SSPEC) + '\n' + sg(SSPEC_UP + ['Capture draft cuda graph end. Time elapsed: 3.02 s. mem usage=0.43 GB. avail mem=5.37 GB.',
    'Capture draft extend cuda graph begin. This can take up to several minutes. avail mem=5.37 GB', 'Capture draft extend cuda graph end. Time elapsed: 1.20 s. mem usage=0.24 GB. avail mem=5.13 GB.',
    'max_total_num_tokens=46611, chunked_prefill_size=2048'], tp=0) + '\n' + sg(UVI + ['INFO:     127.0.0.1:1 - "GET /get_model_info HTTP/1.1" 200 OK', 'The server is fired up and ready to roll!'], m=1))
# the draft's own capture is a cuda_graph phase of its own, after the target's graphs and the draft's weights
case('sg_eagle_draft_graph_hang', 'stalled', 'cuda_graph', 'cuda_graph_hang', sg(SSPEC) + '\n' + sg(SSPEC_UP, tp=0) + '\n[2025-09-22 10:30:00] Waiting for scheduler\n')
# the server dies right after the hard watchdog's line: the excerpt ends there
case('sg04_watchdog_kill_only', 'crashed', 'warmup', '*', S04_UP + '\n' + sg(['Watchdog timeout (self.watchdog_timeout=300)'], tp=0, m=7))
# data-parallel attention: the scheduler of rank DP1 TP1 fails setting up its DP group
case('sg_dp_attention_dist', 'crashed', 'distributed_init', '*', sg(["server_args=ServerArgs(model_path='deepseek-ai/DeepSeek-V3', tp_size=8, dp_size=8, enable_dp_attention=True)"]) + '\n' +
     '\n'.join(f'[2025-09-22 10:00:0{r} DP{r} TP{r}] Init torch distributed begin.' for r in range(2)) + '\n' +
     '\n'.join('[2025-09-22 10:00:05 DP1 TP1] ' + l if i == 0 else l for i, l in enumerate(['Scheduler hit an exception: Traceback (most recent call last):'] +
        pyframes([('managers/scheduler.py', 'run_scheduler_process'), ('managers/scheduler.py', '__init__'), ('managers/tp_worker.py', '__init__'), ('model_executor/model_runner.py', '__init__'),
                  ('model_executor/model_runner.py', 'init_torch_distributed'), ('layers/dp_attention.py', 'initialize_dp_attention')]) +
        ['torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:3356, unhandled cuda error'])) +
     '\n[2025-09-22 10:00:06] Received sigquit from a child process. It usually means the child failed.\n')
# PD disaggregation: the prefill server's KV transfer engine fails after its graphs are captured; and a prefill server that warms up
SPD = ["server_args=ServerArgs(model_path='Qwen/Qwen3-8B', disaggregation_mode='prefill', disaggregation_transfer_backend='mooncake')"]
SPD_UP = SDIST + SLOAD + SKV + ['Capture cuda graph begin.', 'Capture cuda graph end. Time elapsed: 7.23 s', 'max_total_num_tokens=46611, chunked_prefill_size=2048']
case('sg_pd_mooncake_init', 'crashed', 'http_start', '*', sg(SPD) + '\n' + sg(SPD_UP + ['Mooncake Transfer Engine initialization failed.', 'Scheduler hit an exception: Traceback (most recent call last):'] +
    pyframes([('managers/scheduler.py', 'run_scheduler_process'), ('managers/scheduler.py', '__init__'), ('managers/scheduler.py', 'init_disaggregation'),
              ('disaggregation/mooncake/conn.py', '__init__'), ('disaggregation/mooncake/transfer_engine.py', '__init__'), ('disaggregation/mooncake/transfer_engine.py', 'initialize')]) +
    ['RuntimeError: Mooncake Transfer Engine initialization failed.'], tp=0))
case('sg_pd_prefill_ready', 'ready', 'ready', None, sg(SPD) + '\n' + sg(SPD_UP, tp=0) + '\n' + sg(UVI + ['INFO:     127.0.0.1:1 - "GET /model_info HTTP/1.1" 200 OK',
    "End of prefill disaggregation mode warmup with status 200, resp: [{'text': ' Paris', 'meta_info': {}}]", 'The server is fired up and ready to roll!'], m=1))
# 0.5: the KV pool does not fit, said only by the exception (no frames, no profiled-value line)
case('sg05_kv_message_only', 'crashed', 'kv_cache', 'kv_memory', sg(SHEAD) + '\n' + sg(SDIST + SLOAD + ['Scheduler hit an exception: Traceback (most recent call last):',
    'RuntimeError: Not enough memory. Please try to increase --mem-fraction-static. Current value: mem_fraction_static=0.55'], tp=0))
# 0.5: SGLang's own JIT kernels build lazily; a build that fails inside graph capture is reported in the
# phase its line names (cuda_graph), as corpus labels do for torch.compile inside capture
case('sg05_jit_kernel_build', 'crashed', 'cuda_graph', '*', sg(SHEAD) + '\n' + sg(SDIST + SLOAD + SKV + ['Capture cuda graph begin. This can take up to several minutes. avail mem=2.00 GB',
    'Scheduler hit an exception: Traceback (most recent call last):'] + pyframes([('model_executor/model_runner.py', 'init_device_graphs'), ('model_executor/cuda_graph_runner.py', 'capture'),
    ('layers/rotary_embedding.py', 'forward_cuda'), ('../jit_kernel/rope.py', 'apply_rope'), ('../jit_kernel/utils.py', 'load_jit')]) +
    ["RuntimeError: Error building extension 'sgl_jit_rope': ninja: build stopped: subcommand failed."], tp=0).replace('/srt/../jit_kernel/', '/jit_kernel/'))

# ---- vLLM in each release's own words (issue 10, 2.7): V0 0.4-0.7 (LLMEngine/MQLLMEngine,
# multiproc and Ray executors) and V1 0.8-0.11+ (EngineCore, WorkerProc), one case per failure.
# Wording and call paths are from vLLM's sources of those releases (docs/rules.md, "vLLM").
PY = '/usr/local/lib/python3.12/dist-packages/'
def v0(lines, tag='', m=0):
    # V0 up to 0.7 prints "LEVEL MM-DD HH:MM:SS file.py:N] msg" (no brackets before the file).
    return '\n'.join(f'{tag}{lv} 08-20 10:{m+i//60:02d}:{i%60:02d} {f}] {msg}' for i, (lv, f, msg) in enumerate(lines))
def frames(fr, exc):
    # A raw Python traceback: [(path under site-packages, function, source line)], then the exception lines.
    out = ['Traceback (most recent call last):']
    for path, fn, code in fr:
        out += [f'  File "{PY}{path}", line 100, in {fn}', f'    {code}']
    return out + (exc if isinstance(exc, list) else [exc])
def logged(head, fr, exc, lv='ERROR', f='core.py:700'):
    # The same traceback written through vLLM's logger (logger.exception): one record per line.
    return [(lv, f, l) for l in ([head] if head else []) + frames(fr, exc)]
F_CORE = [('vllm/v1/engine/core.py', 'run_engine_core', 'engine_core = EngineCoreProc(*args, **kwargs)'),
          ('vllm/v1/engine/core.py', '__init__', 'super().__init__(vllm_config, executor_class, log_stats,'),
          ('vllm/v1/engine/core.py', '__init__', 'self.model_executor = executor_class(vllm_config)'),
          ('vllm/executor/executor_base.py', '__init__', 'self._init_executor()')]
F_CORE_KV = F_CORE[:2] + [('vllm/v1/engine/core.py', '__init__', 'num_gpu_blocks, num_cpu_blocks, kv_cache_config = \\'),
                          ('vllm/v1/engine/core.py', '_initialize_kv_caches', 'available_gpu_memory = self.model_executor.determine_available_memory()')]
F_V0_MQ = [('vllm/engine/multiprocessing/engine.py', 'run_mp_engine', 'engine = MQLLMEngine.from_engine_args(engine_args=engine_args,'),
           ('vllm/engine/multiprocessing/engine.py', 'from_engine_args', 'return cls(ipc_path=ipc_path,'),
           ('vllm/engine/multiprocessing/engine.py', '__init__', 'self.engine = LLMEngine(*args, **kwargs)'),
           ('vllm/engine/llm_engine.py', '__init__', 'self.model_executor = executor_class(vllm_config=vllm_config, )')]
V0HEAD = [('INFO', 'api_server.py:528', 'vLLM API server version 0.6.3.post1'),
          ('INFO', 'api_server.py:529', "args: Namespace(host=None, port=8000, model='Qwen/Qwen2.5-7B-Instruct', tensor_parallel_size=1)"),
          ('INFO', 'api_server.py:166', 'Multiprocessing frontend to use ipc:///tmp/4b1c3f6e for IPC Path.'),
          ('INFO', 'api_server.py:179', 'Started engine process with PID 412'),
          ('INFO', 'llm_engine.py:237', "Initializing an LLM engine (v0.6.3.post1) with config: model='Qwen/Qwen2.5-7B-Instruct', speculative_config=None")]
MQ_FAILED = '\n'.join(frames([('vllm/entrypoints/openai/api_server.py', 'build_async_engine_client_from_engine_args', 'raise RuntimeError(')],
                             'RuntimeError: Engine process failed to start. See stack trace for the root cause.'))
case('v0_mq_load_oom', 'crashed', 'weight_load', 'gpu_oom', v0(V0HEAD + [('INFO', 'model_runner.py:1056', 'Starting to load model Qwen/Qwen2.5-7B-Instruct...')]) +
     '\nProcess SpawnProcess-1:\n' + '\n'.join(frames(F_V0_MQ + [
         ('vllm/executor/executor_base.py', '__init__', 'self._init_executor()'),
         ('vllm/executor/gpu_executor.py', '_init_executor', 'self.driver_worker.load_model()'),
         ('vllm/worker/worker.py', 'load_model', 'self.model_runner.load_model()'),
         ('vllm/worker/model_runner.py', 'load_model', 'self.model = get_model(model_config=self.model_config,'),
         ('vllm/model_executor/model_loader/loader.py', 'load_model', 'model = _initialize_model(model_config, self.load_config,'),
         ('vllm/model_executor/models/qwen2.py', '__init__', 'self.model = Qwen2Model(config, cache_config, quant_config)'),
         ('torch/utils/_device.py', '__torch_function__', 'return func(*args, **kwargs)')],
         'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 260.00 MiB. GPU 0 has a total capacity of 23.65 GiB of which 129.31 MiB is free.')) + '\n' + MQ_FAILED + '\n')
V0LOADED = [('INFO', 'model_runner.py:1056', 'Starting to load model Qwen/Qwen2.5-7B-Instruct...'),
            ('INFO', 'weight_utils.py:243', "Using model weights format ['*.safetensors']"),
            ('INFO', 'model_runner.py:1067', 'Loading model weights took 14.2487 GB')]
F_V0_KV = [('vllm/engine/llm_engine.py', '__init__', 'self._initialize_kv_caches()'),
           ('vllm/engine/llm_engine.py', '_initialize_kv_caches', 'self.model_executor.initialize_cache(num_gpu_blocks, num_cpu_blocks)'),
           ('vllm/executor/gpu_executor.py', 'initialize_cache', 'self.driver_worker.initialize_cache(num_gpu_blocks, num_cpu_blocks)'),
           ('vllm/worker/worker.py', 'initialize_cache', 'raise_if_cache_size_invalid(num_gpu_blocks,'),
           ('vllm/worker/worker.py', 'raise_if_cache_size_invalid', 'raise ValueError(')]
# V0 logs the block count and the concurrency line before the worker checks them: the check that
# fails still belongs to the KV cache, not to the CUDA graphs that would come next.
case('v0_kv_max_seq_len', 'crashed', 'kv_cache', 'kv_memory', v0(V0HEAD + V0LOADED + [
    ('INFO', 'worker.py:232', 'Memory profiling results: total_gpu_memory=23.65GiB initial_memory_usage=14.75GiB peak_torch_memory=15.62GiB memory_usage_post_profile=14.81GiB non_torch_memory=0.55GiB kv_cache_size=5.12GiB gpu_memory_utilization=0.90'),
    ('INFO', 'gpu_executor.py:122', '# GPU blocks: 5993, # CPU blocks: 4681'),
    ('INFO', 'gpu_executor.py:126', 'Maximum concurrency for 131072 tokens per request: 0.73x')]) + '\nProcess SpawnProcess-1:\n' + '\n'.join(frames(F_V0_MQ + F_V0_KV,
    "ValueError: The model's max seq len (131072) is larger than the maximum number of tokens that can be stored in KV cache (95888). Try increasing `gpu_memory_utilization` or decreasing `max_model_len` when initializing the engine.")) + '\n' + MQ_FAILED + '\n')
case('v05_no_cache_blocks', 'crashed', 'kv_cache', 'kv_memory', v0([
    ('INFO', 'api_server.py:206', 'vLLM API server version 0.5.3.post1'),
    ('INFO', 'llm_engine.py:176', "Initializing an LLM engine (v0.5.3.post1) with config: model='m'"),
    ('INFO', 'model_runner.py:680', 'Starting to load model m...'),
    ('INFO', 'model_runner.py:692', 'Loading model weights took 22.3521 GB'),
    ('INFO', 'gpu_executor.py:102', '# GPU blocks: 0, # CPU blocks: 2048')]) + '\n' + '\n'.join(frames(
    [('vllm/entrypoints/openai/api_server.py', 'build_async_engine_client', 'engine = AsyncLLMEngine.from_engine_args('),
     ('vllm/engine/async_llm_engine.py', '_init_engine', 'return engine_class(*args, **kwargs)')] + F_V0_KV[:4],
    'ValueError: No available memory for the cache blocks. Try increasing `gpu_memory_utilization` when initializing the engine.')) + '\n')
case('v0_profile_oom', 'crashed', 'kv_cache', '*', v0(V0HEAD + V0LOADED) + '\nProcess SpawnProcess-1:\n' + '\n'.join(frames(F_V0_MQ + [
    ('vllm/engine/llm_engine.py', '__init__', 'self._initialize_kv_caches()'),
    ('vllm/engine/llm_engine.py', '_initialize_kv_caches', 'self.model_executor.determine_num_available_blocks())'),
    ('vllm/worker/worker.py', 'determine_num_available_blocks', 'self.model_runner.profile_run()'),
    ('vllm/worker/model_runner.py', 'profile_run', 'self.execute_model(model_input, kv_caches, intermediate_tensors)'),
    ('vllm/worker/model_runner.py', 'execute_model', 'hidden_or_intermediate_states = model_executable('),
    ('vllm/model_executor/models/qwen2.py', 'forward', 'hidden_states = self.model(input_ids, positions, kv_caches,')],
    'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 4.63 GiB. GPU 0 has a total capacity of 23.65 GiB of which 2.02 GiB is free.')) + '\n' + MQ_FAILED + '\n')
VMP = '(VllmWorkerProcess pid=511) '
case('v0_mp_graph_oom', 'crashed', 'cuda_graph', 'gpu_oom', v0(V0HEAD[:2] + [V0HEAD[4]] + V0LOADED + [
    ('INFO', 'gpu_executor.py:122', '# GPU blocks: 5993, # CPU blocks: 4681'),
    ('INFO', 'model_runner.py:1385', "Capturing the model for CUDA graphs. This may lead to unexpected consequences if the model is not static. To run the model in eager mode, set 'enforce_eager=True' or use '--enforce-eager' in the CLI.")]) + '\n' +
    v0(logged('Exception in worker VllmWorkerProcess while processing method initialize_cache.', [
        ('vllm/executor/multiproc_worker_utils.py', '_run_worker_process', 'output = executor(*args, **kwargs)'),
        ('vllm/worker/worker.py', 'initialize_cache', 'self._warm_up_model()'),
        ('vllm/worker/worker.py', '_warm_up_model', 'self.model_runner.capture_model(self.gpu_cache)'),
        ('vllm/worker/model_runner.py', 'capture_model', 'graph_runner.capture(**capture_inputs)'),
        ('vllm/worker/model_runner.py', 'capture', 'with torch.cuda.graph(self._graph, pool=memory_pool, stream=stream):')],
        'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 128.00 MiB.', f='multiproc_worker_utils.py:233'), tag=VMP, m=1) + '\n')
RAYW = '(RayWorkerWrapper pid=1890, ip=10.0.0.2) '
case('v05_ray_init_device_gloo', 'crashed', 'distributed_init', 'rendezvous', v0([
    ('INFO', 'api_server.py:219', 'vLLM API server version 0.5.3.post1'),
    ('INFO', 'llm_engine.py:176', "Initializing an LLM engine (v0.5.3.post1) with config: model='m', tensor_parallel_size=16")]) + '\n' +
    v0(logged('Error executing method init_device. This might cause deadlock in distributed execution.', [
        ('vllm/worker/worker_base.py', 'execute_method', 'return executor(*args, **kwargs)'),
        ('vllm/worker/worker.py', 'init_device', 'init_worker_distributed_environment(self.parallel_config, self.rank,'),
        ('vllm/worker/worker.py', 'init_worker_distributed_environment', 'init_distributed_environment(parallel_config.world_size, rank,'),
        ('vllm/distributed/parallel_state.py', 'init_distributed_environment', 'torch.distributed.init_process_group('),
        ('torch/distributed/distributed_c10d.py', 'new_group', 'pg, pg_store = _new_process_group_helper(')],
        'RuntimeError: Gloo connectFullMesh failed with [../third_party/gloo/gloo/transport/tcp/pair.cc:144] no error', f='worker_base.py:382'), tag=RAYW, m=1) + '\n')
case('v05_ray_placement_wait', 'stalled', 'launch', 'rendezvous', v0([
    ('INFO', 'api_server.py:219', 'vLLM API server version 0.5.4'),
    ('INFO', 'config.py:813', 'Defaulting to use ray for distributed inference')]) + '\n' +
    '\n'.join(f"INFO 08-20 10:{s//60:02d}:{s%60:02d} ray_utils.py:174] Waiting for creating a placement group of specs for {w} seconds. specs=[{{'node:10.0.0.1': 0.001, 'GPU': 1.0}}, {{'GPU': 1.0}}]. Check `ray status` to see if you have enough resources."
              for s, w in ((12, 10), (32, 30), (72, 70), (152, 150), (312, 310), (632, 630))) + '\n')
case('v05_mp_worker_sigkill', 'crashed', 'weight_load', 'host_oom', v0([
    ('INFO', 'api_server.py:219', 'vLLM API server version 0.5.4'),
    ('INFO', 'llm_engine.py:176', "Initializing an LLM engine (v0.5.4) with config: model='m', tensor_parallel_size=2"),
    ('INFO', 'model_runner.py:720', 'Starting to load model m...')]) + '\n' + v0([
    ('INFO', 'model_runner.py:720', 'Starting to load model m...')], tag=VMP) + '\n' + v0([
    ('ERROR', 'multiproc_worker_utils.py:120', 'Worker VllmWorkerProcess pid 511 died, exit code: -9'),
    ('INFO', 'multiproc_worker_utils.py:123', 'Killing local vLLM worker processes')], m=2) + '\n')
# Where an unknown architecture is refused moved: 0.5 looks it up when loading, 0.6 and V1 when the
# config is built, before any engine process.
case('v05_arch_at_load', 'crashed', 'weight_load', 'model_unsupported', v0([
    ('INFO', 'api_server.py:219', 'vLLM API server version 0.5.4'),
    ('INFO', 'llm_engine.py:176', "Initializing an LLM engine (v0.5.4) with config: model='m'")]) + '\n' + '\n'.join(frames([
    ('vllm/executor/gpu_executor.py', '_init_executor', 'self.driver_worker.load_model()'),
    ('vllm/worker/worker.py', 'load_model', 'self.model_runner.load_model()'),
    ('vllm/worker/model_runner.py', 'load_model', 'self.model = get_model(model_config=self.model_config,'),
    ('vllm/model_executor/model_loader/loader.py', '_initialize_model', 'model_class, _ = get_model_architecture(model_config)'),
    ('vllm/model_executor/model_loader/utils.py', 'get_model_architecture', 'raise ValueError(')],
    "ValueError: Model architectures ['Qwen2VLForConditionalGeneration'] are not supported for now. Supported architectures: ['AquilaModel', 'LlamaForCausalLM']")) + '\n')
case('v06_arch_at_config', 'crashed', 'launch', 'model_unsupported', v0(V0HEAD[:2]) + '\n' + '\n'.join(frames([
    ('vllm/entrypoints/openai/api_server.py', 'build_async_engine_client_from_engine_args', 'engine_config = engine_args.create_engine_config()'),
    ('vllm/engine/arg_utils.py', 'create_engine_config', 'model_config = self.create_model_config()'),
    ('vllm/config.py', '__init__', 'self.multimodal_config = self._init_multimodal_config('),
    ('vllm/model_executor/models/registry.py', 'inspect_model_cls', 'return self._raise_for_unsupported(architectures)'),
    ('vllm/model_executor/models/registry.py', '_raise_for_unsupported', 'raise ValueError(')],
    "ValueError: Model architectures ['Gemma3ForConditionalGeneration'] are not supported for now. Supported architectures: dict_keys(['AquilaModel'])")) + '\n')
# 0.6 binds the API port before it builds the engine (vllm#8204): a port in use is a launch failure.
case('v06_port_early_bind', 'crashed', 'launch', 'port_in_use', v0(V0HEAD[:2]) + '\n' + '\n'.join(frames([
    ('vllm/entrypoints/openai/api_server.py', 'run_server', 'sock = create_server_socket(sock_addr)'),
    ('vllm/entrypoints/openai/api_server.py', 'create_server_socket', 'sock.bind(addr)')], 'OSError: [Errno 98] Address already in use')) + '\n')

# V1
V1API = [('INFO', 'api_server.py:1896', 'vLLM API server version 0.11.0'),
         ('INFO', 'utils.py:233', "non-default args: {'model_tag': 'Qwen/Qwen3-8B', 'model': 'Qwen/Qwen3-8B'}"),
         ('INFO', 'model.py:547', 'Resolved architecture: Qwen3ForCausalLM'),
         ('INFO', 'model.py:1510', 'Using max model len 40960')]
V1CORE = [('INFO', 'core.py:644', 'Waiting for init message from front-end.'),
          ('INFO', 'core.py:77', "Initializing a V1 LLM engine (v0.11.0) with config: model='Qwen/Qwen3-8B'")]
def v1(lines, tag): return vl(lines, tag)
API, CORE = '(APIServer pid=1) ', '(EngineCore_DP0 pid=20) '
CORE_FAILED = vl([('ERROR', 'api_server.py:1', l) for l in frames([
    ('vllm/v1/engine/utils.py', 'launch_core_engines', 'wait_for_engine_startup('),
    ('vllm/v1/engine/utils.py', 'wait_for_engine_startup', 'raise RuntimeError(')],
    "RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}")], API)
# Since 0.10 the worker takes its memory snapshot after distributed init: the free-memory check
# still fails the start at the device claim, before any model work (the corpus labels say launch).
case('v1_free_memory_after_dist', 'crashed', 'launch', 'orphan_processes', v1(V1API, API) + '\n' + v1(V1CORE + [
    ('INFO', 'parallel_state.py:1165', 'world_size=1 rank=0 local_rank=0 distributed_init_method=tcp://10.0.0.5:40123 backend=nccl'),
    ('INFO', 'parallel_state.py:1208', 'rank 0 in world size 1 is assigned as DP rank 0, PP rank 0, TP rank 0, EP rank 0')] +
    logged('EngineCore failed to start.', F_CORE + [
        ('vllm/v1/executor/uniproc_executor.py', '_init_executor', 'self.driver_worker.init_device()'),
        ('vllm/worker/worker_base.py', 'init_device', 'self.worker.init_device()  # type: ignore'),
        ('vllm/v1/worker/gpu_worker.py', 'init_device', 'self.requested_memory = request_memory(init_snapshot, self.cache_config)'),
        ('vllm/utils/mem_utils.py', 'request_memory', 'raise ValueError(')],
        'ValueError: Free memory on device cuda:0 (21.3/79.19 GiB) on startup is less than desired GPU memory utilization (0.9, 71.27 GiB). Decrease GPU memory utilization or reduce GPU memory used by other processes.'), CORE) + '\n' + CORE_FAILED + '\n')
W0 = '(Worker pid=31) '
case('v1_worker_nccl_init_fail', 'crashed', 'distributed_init', '*', v1(V1API, API) + '\n' + v1(V1CORE, CORE) + '\n' + v1(
    logged('WorkerProc failed to start.', [
        ('vllm/v1/executor/multiproc_executor.py', 'worker_main', 'worker = WorkerProc(*args, **kwargs)'),
        ('vllm/v1/executor/multiproc_executor.py', '__init__', 'self.worker.init_device()'),
        ('vllm/v1/worker/gpu_worker.py', 'init_device', 'init_worker_distributed_environment('),
        ('vllm/distributed/parallel_state.py', 'initialize_model_parallel', '_TP = init_model_parallel_group('),
        ('vllm/distributed/device_communicators/pynccl.py', '__init__', 'self.comm: ncclComm_t = self.nccl.ncclCommInitRank('),
        ('vllm/distributed/device_communicators/pynccl_wrapper.py', 'NCCL_CHECK', 'raise RuntimeError(f"NCCL error: {error_str}")')],
        'RuntimeError: NCCL error: unhandled system error (run with NCCL_DEBUG=INFO for details)', f='multiproc_executor.py:597'), W0) + '\n' +
    v1(logged('EngineCore failed to start.', F_CORE + [('vllm/v1/executor/multiproc_executor.py', '_init_executor', 'self.workers = WorkerProc.wait_for_ready(unready_workers)'),
        ('vllm/v1/executor/multiproc_executor.py', 'wait_for_ready', 'raise e from None')],
        'Exception: WorkerProc initialization failed due to an exception in a background process. See stack trace for root cause.'), CORE) + '\n' + CORE_FAILED + '\n')
V1LOAD = [('INFO', 'gpu_model_runner.py:2602', 'Starting to load model Qwen/Qwen3-8B...'),
          ('INFO', 'default_loader.py:267', 'Loading weights took 3.10 seconds'),
          ('INFO', 'gpu_model_runner.py:2653', 'Model loading took 15.27 GiB and 3.92 seconds')]
V1COMP = [('INFO', 'backends.py:548', "Using cache directory: /root/.cache/vllm/torch_compile_cache/abc/rank_0_0/backbone for vLLM's torch.compile"),
          ('INFO', 'backends.py:559', 'Dynamo bytecode transform time: 4.10 s'),
          ('INFO', 'backends.py:215', 'Compiling a graph for dynamic shape takes 12.40 s'),
          ('INFO', 'monitor.py:34', 'torch.compile takes 16.50 s in total')]
F_RPC = [('vllm/v1/executor/abstract.py', 'determine_available_memory', 'return self.collective_rpc("determine_available_memory")'),
         ('vllm/v1/executor/uniproc_executor.py', 'collective_rpc', 'answer = run_method(self.driver_worker, method, args, kwargs)'),
         ('vllm/utils/__init__.py', 'run_method', 'return func(*args, **kwargs)')]
case('v1_profile_oom', 'crashed', 'kv_cache', '*', v1(V1API, API) + '\n' + v1(V1CORE + V1LOAD + V1COMP + logged('EngineCore failed to start.', F_CORE_KV + F_RPC + [
    ('vllm/v1/worker/gpu_worker.py', 'determine_available_memory', 'self.model_runner.profile_run()'),
    ('vllm/v1/worker/gpu_model_runner.py', 'profile_run', 'hidden_states, last_hidden_states = self._dummy_run('),
    ('vllm/v1/worker/gpu_model_runner.py', '_dummy_run', 'outputs = self.model('),
    ('vllm/model_executor/models/qwen3.py', 'forward', 'hidden_states = self.model(input_ids, positions, intermediate_tensors,')],
    'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.71 GiB. GPU 0 has a total capacity of 79.19 GiB of which 1.20 GiB is free.'), CORE) + '\n' + CORE_FAILED + '\n')
case('v1_sampler_warmup_oom', 'crashed', 'kv_cache', '*', v1(V1API, API) + '\n' + v1(V1CORE + V1LOAD + V1COMP + logged('EngineCore failed to start.', F_CORE_KV + F_RPC + [
    ('vllm/v1/worker/gpu_worker.py', 'determine_available_memory', 'self.model_runner.profile_run()'),
    ('vllm/v1/worker/gpu_model_runner.py', 'profile_run', 'sampler_output = self._dummy_sampler_run(last_hidden_states)'),
    ('vllm/v1/worker/gpu_model_runner.py', '_dummy_sampler_run', 'raise RuntimeError(')],
    ['torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.32 GiB.', '', 'The above exception was the direct cause of the following exception:', '',
     'RuntimeError: CUDA out of memory occurred when warming up sampler with 1024 dummy requests. Please try lowering `max_num_seqs` or `gpu_memory_utilization` when initializing the engine.']), CORE) + '\n' + CORE_FAILED + '\n')
V1KV = [('INFO', 'gpu_worker.py:298', 'Available KV cache memory: 50.12 GiB'),
        ('INFO', 'kv_cache_utils.py:1087', 'GPU KV cache size: 365,008 tokens'),
        ('INFO', 'kv_cache_utils.py:1091', 'Maximum concurrency for 40,960 tokens per request: 8.91x')]
# The KV tensors are allocated after the size is logged: an OOM there is still the KV cache.
case('v1_kv_alloc_oom', 'crashed', 'kv_cache', '*', v1(V1API, API) + '\n' + v1(V1CORE + V1LOAD + V1COMP + V1KV + logged('EngineCore failed to start.', F_CORE[:2] + [
    ('vllm/v1/engine/core.py', '_initialize_kv_caches', 'self.model_executor.initialize_from_config(kv_cache_configs)'),
    ('vllm/v1/worker/gpu_worker.py', 'initialize_from_config', 'self.model_runner.initialize_kv_cache(kv_cache_config)'),
    ('vllm/v1/worker/gpu_model_runner.py', 'initialize_kv_cache', 'kv_caches = self.initialize_kv_cache_tensors(kv_cache_config)'),
    ('vllm/v1/worker/gpu_model_runner.py', '_allocate_kv_cache_tensors', 'tensor = torch.zeros(kv_cache_tensor.size,')],
    'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 50.12 GiB.'), CORE) + '\n' + CORE_FAILED + '\n')
case('v1_graph_capture_oom', 'crashed', 'cuda_graph', 'gpu_oom', v1(V1API, API) + '\n' + v1(V1CORE + V1LOAD + V1COMP + V1KV, CORE) +
    '\n' + CORE + 'Capturing CUDA graphs (mixed prefill-decode, PIECEWISE):  35%|███▌      | 24/67 [00:04<00:07,  5.71it/s]\n' + v1(logged('EngineCore failed to start.', F_CORE[:2] + [
    ('vllm/v1/engine/core.py', '_initialize_kv_caches', 'self.model_executor.compile_or_warm_up_model()'),
    ('vllm/v1/worker/gpu_worker.py', 'compile_or_warm_up_model', 'cuda_graph_memory_bytes = self.model_runner.capture_model()'),
    ('vllm/v1/worker/gpu_model_runner.py', 'capture_model', 'self._capture_cudagraphs('),
    ('vllm/v1/worker/gpu_model_runner.py', '_dummy_run', 'outputs = self.model(')],
    'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB.'), CORE) + '\n' + CORE_FAILED + '\n')
# Only the last lines pasted: the KV-cache check's own wording says where it failed.
case('v1_kv_short_paste', 'crashed', 'kv_cache', 'kv_memory', v1(V1LOAD + V1COMP + [('INFO', 'gpu_worker.py:298', 'Available KV cache memory: 2.50 GiB'),
    ('ERROR', 'core.py:708', 'EngineCore failed to start.'),
    ('ERROR', 'core.py:708', "ValueError: To serve at least one request with the models's max seq len (131072), (16.00 GiB KV cache is needed, which is larger than the available KV cache memory (2.50 GiB). Based on the available memory, the estimated maximum model length is 20464. Try increasing `gpu_memory_utilization` or decreasing `max_model_len` when initializing the engine.")], CORE) + '\n')
case('v1_no_cache_blocks', 'crashed', 'kv_cache', 'kv_memory', v1(V1CORE + V1LOAD + V1COMP + [('INFO', 'gpu_worker.py:298', 'Available KV cache memory: -1.72 GiB')] +
    logged('EngineCore failed to start.', F_CORE_KV[:2] + [('vllm/v1/engine/core.py', '_initialize_kv_caches', 'kv_cache_configs = [')],
    'ValueError: No available memory for the cache blocks. Try increasing `gpu_memory_utilization` when initializing the engine.'), CORE) + '\n')
case('v1_profiling_assert', 'crashed', 'kv_cache', 'orphan_processes', v1(V1CORE + V1LOAD + V1COMP + logged('EngineCore failed to start.', F_CORE_KV + F_RPC + [
    ('vllm/v1/worker/gpu_worker.py', 'determine_available_memory', 'assert self.init_snapshot.free_memory > free_gpu_memory, (')],
    'AssertionError: Error in memory profiling. Initial free memory 70.21 GiB, current free memory 75.02 GiB. This happens when other processes sharing the same container release GPU memory while vLLM is profiling during initialization. To fix this, ensure consistent GPU memory allocation or isolate vLLM in its own container.'), CORE) + '\n')
# Newest wording: "torch.compile took ... in total" ends the compile phase like "takes" did.
V1COMP_NEW = [('INFO', 'backends.py:548', "Using cache directory: /root/.cache/vllm/torch_compile_cache/abc/rank_0_0/backbone for vLLM's torch.compile"),
              ('INFO', 'backends.py:215', 'Compiling a graph for compile range (1, 8192) takes 20.50 s'),
              ('INFO', 'monitor.py:34', 'torch.compile took 25.30 s in total')]
case('v1_compile_took_then_kv_stall', 'stalled', 'kv_cache', '*', v1(V1CORE + [('INFO', 'gpu_model_runner.py:2602', 'Loading model from scratch...'),
    ('INFO', 'gpu_model_runner.py:2653', 'Model loading took 15.27 GiB memory and 3.920000 seconds')] + V1COMP_NEW, CORE) + '\n' +
    CORE + 'INFO 08-20 10:20:00 [shm_broadcast.py:466] No available shared memory broadcast block found in 60 seconds. This typically happens when some processes are hanging or doing some time-consuming work (e.g. compilation, weight/kv cache quantization).\n')
case('v1_new_wording_ready', 'ready', 'ready', None, v1(V1API, API) + '\n' + v1(V1CORE + [('INFO', 'gpu_model_runner.py:2602', 'Loading model from scratch...'),
    ('INFO', 'gpu_model_runner.py:2640', 'Checkpoint size: 15.26 GiB'),
    ('INFO', 'gpu_model_runner.py:2653', 'Model loading took 15.27 GiB memory and 3.920000 seconds')] + V1COMP_NEW + [
    ('INFO', 'monitor.py:80', 'Initial profiling/warmup run took 0.92 s')] + V1KV + [
    ('INFO', 'gpu_model_runner.py:3500', 'Graph capturing finished in 14 secs, took 0.84 GiB'),
    ('INFO', 'core.py:250', 'init engine (profile, create kv cache, warmup model) took 47.31 s (compilation: 25.30 s)')], CORE) + '\n' +
    v1([('INFO', 'api_server.py:2000', 'Starting vLLM server on http://0.0.0.0:8000')], API) + '\n' + API + 'INFO:     Started server process [1]\n' + API + 'INFO:     Application startup complete.\n')
WTP1 = '(VllmWorker rank=1 pid=31) '
case('v1_worker_proc_died_graph', 'crashed', 'cuda_graph', '*', v1(V1CORE + V1LOAD + V1COMP + V1KV, CORE) + '\n' +
    '(VllmWorker rank=0 pid=30) Capturing CUDA graphs:  20%|██        | 13/67 [00:03<00:12,  4.20it/s]\n' +
    v1([('ERROR', 'multiproc_executor.py:140', 'Worker proc VllmWorker-1 died unexpectedly, shutting down executor.')], CORE) + '\n')
case('v1_ray_worker_proc_died', 'crashed', 'weight_load', '*', v1(V1CORE + [('INFO', 'gpu_model_runner.py:2602', 'Starting to load model m...')], CORE) + '\n' +
    v1([('ERROR', 'ray_executor_v2.py:464', 'RayWorkerProc rank=[3] died unexpectedly, shutting down executor.')], CORE) + '\n')
case('v1_engine_init_failed_only', 'crashed', 'launch', '*', v1(V1API, API) + '\n' + CORE_FAILED + '\n')
# Failures before any engine process: the argument parser, pydantic config validation, imports.
case('v1_argparse_error', 'crashed', 'launch', 'bad_command', '''INFO 08-20 10:00:00 [__init__.py:216] Automatically detected platform cuda.
usage: vllm serve [model_tag] [options]
vllm serve: error: argument --tensor-parallel-size/-tp: invalid int value: 'auto'
''')
case('v1_pydantic_config', 'crashed', 'launch', '*', v1(V1API[:2], API) + '\n' + v1([('ERROR', 'api_server.py:1', l) for l in frames([
    ('vllm/entrypoints/openai/api_server.py', 'build_async_engine_client_from_engine_args', 'vllm_config = engine_args.create_engine_config(usage_context=usage_context)'),
    ('vllm/engine/arg_utils.py', 'create_model_config', 'return ModelConfig('),
    ('pydantic/_internal/_dataclasses.py', '__init__', 's.__pydantic_validator__.validate_python(ArgsKwargs(args, kwargs), self_instance=s)')],
    ['pydantic_core._pydantic_core.ValidationError: 1 validation error for ModelConfig',
     "  Value error, User-specified max_model_len (200000) is greater than the derived max_model_len (max_position_embeddings=40960 or model_max_length=None in model's config.json). To allow overriding this maximum, set the env var VLLM_ALLOW_LONG_MAX_MODEL_LEN=1. [type=value_error, input_value=ArgsKwargs((), {'model': 'Qwen/Qwen3-8B'}), input_type=ArgsKwargs]",
     '    For further information visit https://errors.pydantic.dev/2.11/v/value_error'])], API) + '\n')
case('v1_import_error', 'crashed', 'launch', 'cuda_build_mismatch', '\n'.join(frames([
    ('../../../bin/vllm', '<module>', 'from vllm.entrypoints.cli.main import main'),
    ('vllm/entrypoints/cli/main.py', '<module>', 'import vllm.entrypoints.cli.benchmark.main'),
    ('vllm/_custom_ops.py', '<module>', 'import vllm._C')], 'ImportError: libcudart.so.12: cannot open shared object file: No such file or directory')) + '\n')
case('v1_tokenizer_load', 'crashed', 'launch', '*', v1(V1API, API) + '\n' + v1([('ERROR', 'api_server.py:1', l) for l in frames([
    ('vllm/v1/engine/async_llm.py', '__init__', 'self.tokenizer = init_tokenizer_from_configs('),
    ('vllm/transformers_utils/tokenizer.py', 'get_tokenizer', 'tokenizer = AutoTokenizer.from_pretrained(')],
    "OSError: Can't load tokenizer for '/models/qwen3'. If you were trying to load it from 'https://huggingface.co/models', make sure you don't have a local directory with the same name.")], API) + '\n')
case('v1_bf16_old_gpu', 'crashed', 'launch', 'gpu_arch_feature', v1(V1API, API) + '\n' + v1(V1CORE + logged('EngineCore failed to start.', F_CORE + [
    ('vllm/v1/executor/uniproc_executor.py', '_init_executor', 'self.collective_rpc("init_device")'),
    ('vllm/v1/worker/gpu_worker.py', 'init_device', '_check_if_gpu_supports_dtype(self.model_config.dtype)'),
    ('vllm/v1/worker/gpu_worker.py', '_check_if_gpu_supports_dtype', 'raise ValueError(')],
    'ValueError: Bfloat16 is only supported on GPUs with compute capability of at least 8.0. Your Tesla T4 GPU has compute capability 7.5. You can use float16 instead by explicitly setting the `dtype` flag in CLI, for example: --dtype=half.'), CORE) + '\n' + CORE_FAILED + '\n')
case('v1_load_hf_429', 'crashed', 'weight_load', 'hf_download', v1(V1CORE + [('INFO', 'gpu_model_runner.py:2602', 'Starting to load model Qwen/Qwen3-8B...')] + logged('EngineCore failed to start.', F_CORE + [
    ('vllm/v1/worker/gpu_model_runner.py', 'load_model', 'self.model = model_loader.load_model('),
    ('vllm/model_executor/model_loader/default_loader.py', '_prepare_weights', 'hf_folder = download_weights_from_hf('),
    ('vllm/model_executor/model_loader/weight_utils.py', 'download_weights_from_hf', 'hf_folder = snapshot_download('),
    ('huggingface_hub/utils/_http.py', 'hf_raise_for_status', 'raise _format(HfHubHTTPError, str(e), response) from e')],
    "huggingface_hub.errors.HfHubHTTPError: 429 Client Error: Too Many Requests for url: https://huggingface.co/api/models/Qwen/Qwen3-8B/revision/main"), CORE) + '\n')
case('v1_dp_coordinator_wait', 'stalled', 'launch', '*', v1(V1API + [('INFO', 'core.py:77', "Initializing a V1 LLM engine (v0.11.0) with config: model='m'")], CORE) + '\n' +
    '\n'.join(f'{CORE}INFO 08-20 10:{m:02d}:00 [core.py:590] Waiting for READY message from DP Coordinator...' for m in range(1, 12)) + '\n')
case('v1_invalid_device_ordinal', 'crashed', 'launch', '*', v1(V1API, API) + '\n' + v1(V1CORE + logged('EngineCore failed to start.', F_CORE + [
    ('vllm/v1/executor/uniproc_executor.py', '_init_executor', 'self.driver_worker.init_device()'),
    ('vllm/v1/worker/gpu_worker.py', 'init_device', 'current_platform.set_device(self.device)'),
    ('torch/cuda/__init__.py', 'set_device', 'torch._C._cuda_setDevice(device)')],
    ['RuntimeError: CUDA error: invalid device ordinal', 'CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.']), CORE) + '\n' + CORE_FAILED + '\n')

# Lines both engines print (torch's Gloo groups, the custom all-reduce notice) do not make a vLLM
# excerpt SGLang's; a V1 model runner's construction (attention backend, sampler) ends distributed init.
case('v1_gloo_excerpt_hang', 'stalled', 'weight_load', '*', '\n'.join([
    CORE + "INFO 08-20 10:00:00 [worker_base.py:243] Injected <class 'ext.WeightSync'> into <class 'vllm.v1.worker.gpu_worker.Worker'> for extended collective_rpc calls ['init_communicator']"] +
    ['[Gloo] Rank 0 is connected to 0 peer ranks. Expected number of connected peer ranks is : 0'] * 3 + [
    CORE + 'INFO 08-20 10:00:01 [parallel_state.py:1208] rank 0 in world size 1 is assigned as DP rank 0, PP rank 0, TP rank 0, EP rank 0',
    CORE + 'WARNING 08-20 10:00:02 [topk_topp_sampler.py:66] FlashInfer is not available. Falling back to the PyTorch-native implementation of top-p & top-k sampling. For the best performance, please install FlashInfer.',
    CORE + 'INFO 08-20 10:30:00 [shm_broadcast.py:466] No available shared memory broadcast block found in 60 seconds. This typically happens when some processes are hanging or doing some time-consuming work (e.g. compilation, weight/kv cache quantization).']) + '\n')
case('v1_custom_ar_excerpt_crash', 'crashed', 'weight_load', 'gpu_oom', v1([
    ('WARNING', 'custom_all_reduce.py:137', 'Custom allreduce is disabled because your platform lacks GPU P2P capability or P2P test failed. To silence this warning, specify disable_custom_all_reduce=True explicitly.'),
    ('INFO', 'cuda.py:317', "Using FLASH_ATTN attention backend out of potential backends: ['FLASH_ATTN', 'FLASHINFER', 'TRITON_ATTN', 'FLEX_ATTENTION']."),
    ('INFO', 'weight_utils.py:904', 'Filesystem type for checkpoints: EXT4. Checkpoint size: 60.12 GiB. Available RAM: 56.51 GiB.')] +
    logged('WorkerProc failed to start.', [('vllm/v1/executor/multiproc_executor.py', 'worker_main', 'worker = WorkerProc(*args, **kwargs)'),
        ('vllm/v1/worker/gpu_model_runner.py', 'load_model', 'self.model = model_loader.load_model('),
        ('vllm/model_executor/model_loader/base_loader.py', 'load_model', 'self.load_weights(model, model_config)'),
        ('vllm/model_executor/model_loader/default_loader.py', 'load_weights', 'loaded_weights = model.load_weights(')],
        'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.25 GiB. GPU 1 has a total capacity of 23.57 GiB of which 1.02 GiB is free.', f='multiproc_executor.py:597'), '(Worker_TP1 pid=32) ') + '\n')

# vLLM's Ray executor: Ray's log deduplication suffix does not hide a frame's function name.
RAYV = '(RayWorkerWrapper pid=1463574, ip=10.0.0.60) '
def ray_rep(lines): return '\n'.join(l + ' [repeated 7x across cluster]' for l in lines.split('\n'))
case('v0_ray_dedup_graph_oom', 'crashed', 'cuda_graph', 'gpu_oom', vl([
    ('INFO', 'api_server.py:1007', 'vLLM API server version 0.8.2'),
    ('INFO', 'llm_engine.py:241', "Initializing a V0 LLM engine (v0.8.2) with config: model='m', tensor_parallel_size=8, pipeline_parallel_size=2"),
    ('INFO', 'worker.py:267', 'Memory profiling takes 4.26 seconds'),
    ('INFO', 'executor_base.py:111', '# cuda blocks: 7191, # CPU blocks: 1024')]) + '\n' + ray_rep(vl(logged(
    "Error executing method 'initialize_cache'. This might cause deadlock in distributed execution.", [
        ('vllm/worker/worker_base.py', 'execute_method', 'raise e'),
        ('vllm/worker/worker.py', 'initialize_cache', 'self._warm_up_model()'),
        ('vllm/worker/worker.py', '_warm_up_model', 'self.model_runner.capture_model(self.gpu_cache)'),
        ('torch/utils/_contextlib.py', 'decorate_context', 'return func(*args, **kwargs)')],
    'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB. GPU 3 has a total capacity of 44.53 GiB of which 448.00 KiB is free.', f='worker_base.py:620'), RAYV)) + '\n')

# Ready without uvicorn's own lines: a served probe or vLLM's throughput log says the server is up.
case('v05_health_probe_ready', 'ready', 'ready', None, v0([
    ('INFO', 'api_server.py:219', 'vLLM API server version 0.5.4'),
    ('INFO', 'llm_engine.py:176', "Initializing an LLM engine (v0.5.4) with config: model='m'"),
    ('INFO', 'model_runner.py:720', 'Starting to load model m...'),
    ('INFO', 'model_runner.py:732', 'Loading model weights took 14.9888 GB'),
    ('INFO', 'gpu_executor.py:102', '# GPU blocks: 27913, # CPU blocks: 2048'),
    ('INFO', 'model_runner.py:1025', "Capturing the model for CUDA graphs. This may lead to unexpected consequences if the model is not static. To run the model in eager mode, set 'enforce_eager=True' or use '--enforce-eager' in the CLI."),
    ('INFO', 'model_runner.py:1029', 'CUDA graphs can take additional 1~3 GiB memory per GPU. If you are running out of memory, consider decreasing `gpu_memory_utilization` or enforcing eager mode. You can also reduce the `max_num_seqs` as needed to decrease memory usage.'),
    ('INFO', 'model_runner.py:1225', 'Graph capturing finished in 5 secs.'),
    ('INFO', 'serving_chat.py:94', 'Using default chat template:')]) + '\nINFO:     10.0.0.7:51234 - "GET /health HTTP/1.1" 200 OK\n')
case('v06_stats_ready', 'ready', 'ready', None, v0(V0HEAD + V0LOADED + [
    ('INFO', 'gpu_executor.py:122', '# GPU blocks: 5993, # CPU blocks: 4681'),
    ('INFO', 'model_runner.py:1385', "Capturing the model for CUDA graphs. This may lead to unexpected consequences if the model is not static."),
    ('INFO', 'model_runner.py:1513', 'Graph capturing finished in 11 secs.'),
    ('INFO', 'metrics.py:349', 'Avg prompt throughput: 0.0 tokens/s, Avg generation throughput: 12.3 tokens/s, Running: 1 reqs, Swapped: 0 reqs, Pending: 0 reqs, GPU KV cache usage: 0.1%, CPU KV cache usage: 0.0%.')]) + '\n')
# The engine's own banner starts an attempt where no API server banner was pasted (an LLM() script
# restarted by its supervisor): three in a row are a crash loop.
ENGINE_ONLY = v1([('INFO', 'core.py:77', "Initializing a V1 LLM engine (v0.9.2) with config: model='m'")] + logged('EngineCore failed to start.', F_CORE + [
    ('vllm/v1/executor/uniproc_executor.py', '_init_executor', 'self.collective_rpc("init_device")'),
    ('vllm/v1/worker/gpu_worker.py', 'init_device', 'raise ValueError(')],
    'ValueError: Free memory on device (12.1/79.19 GiB) on startup is less than desired GPU memory utilization (0.9, 71.27 GiB). Decrease GPU memory utilization or reduce GPU memory used by other processes.'), CORE)
case('v1_engine_banner_loop', 'crash_loop', 'launch', 'orphan_processes', restarts(ENGINE_ONLY, 3) + '\n')
case('v1_frontend_handshake_timeout', 'crashed', 'launch', 'rendezvous', v1(V1CORE[:1] + logged('EngineCore failed to start.', [
    ('vllm/v1/engine/core.py', 'run_engine_core', 'engine_core = DPEngineCoreProc(*args, **kwargs)'),
    ('vllm/v1/engine/core.py', 'startup_handshake', 'raise RuntimeError(')],
    'RuntimeError: Did not receive response from front-end process within 5 minutes'), '(EngineCore_DP2 pid=20) ') + '\n')

# CUDA OOM in each phase: inductor's autotuning (compile), the CUDA context at the device claim (launch).
case('v1_compile_oom', 'crashed', 'compile', 'gpu_oom', v1(V1CORE + V1LOAD + V1COMP[:2] + logged('EngineCore failed to start.', F_CORE_KV + F_RPC + [
    ('vllm/v1/worker/gpu_model_runner.py', 'profile_run', 'hidden_states, last_hidden_states = self._dummy_run('),
    ('vllm/compilation/backends.py', '__call__', 'self.split_gm, self.piecewise_graphs = split_graph('),
    ('torch/_inductor/select_algorithm.py', 'autotune', 'timings = self.benchmark_choices(')],
    'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 8.00 GiB. GPU 0 has a total capacity of 79.19 GiB of which 3.10 GiB is free.'), CORE) + '\n')
case('v1_init_device_oom', 'crashed', 'launch', 'orphan_processes', v1(V1API, API) + '\n' + v1(V1CORE + logged('EngineCore failed to start.', F_CORE + [
    ('vllm/v1/executor/uniproc_executor.py', '_init_executor', 'self.driver_worker.init_device()'),
    ('vllm/v1/worker/gpu_worker.py', 'init_device', 'torch.cuda.empty_cache()'),
    ('torch/cuda/memory.py', 'empty_cache', 'torch._C._cuda_emptyCache()')],
    'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 MiB. GPU 0 has a total capacity of 79.19 GiB of which 1.19 MiB is free. Process 4242 has 79.17 GiB memory in use.'), CORE) + '\n' + CORE_FAILED + '\n')
case('v1_unrecognized_config', 'crashed', 'launch', '*', v1(V1API[:2], API) + '\n' + v1([('ERROR', 'api_server.py:1', l) for l in frames([
    ('vllm/engine/arg_utils.py', 'create_model_config', 'return ModelConfig('),
    ('vllm/transformers_utils/config.py', 'get_config', 'raise e'),
    ('transformers/models/auto/configuration_auto.py', 'from_pretrained', 'raise ValueError(')],
    "ValueError: Unrecognized model in /models/my-model. Should have a `model_type` key in its config.json, or contain one of the following strings in its name: albert, align, altclip")], API) + '\n')
case('v1_not_installed', 'crashed', 'launch', 'bad_command', "/usr/bin/python3: Error while finding module specification for 'vllm.entrypoints.openai.api_server' (ModuleNotFoundError: No module named 'vllm')\n")

# After "torch.compile takes 16.50 s in total" a frame in vLLM's compiler module is compiled code
# running (its runtime wrapper), not compiling: an OOM there is the profiling forward (kv_cache).
case('v1_profile_oom_compiled_code', 'crashed', 'kv_cache', '*', v1(V1CORE + V1LOAD + V1COMP + logged('EngineCore failed to start.', F_CORE_KV + F_RPC + [
    ('vllm/v1/worker/gpu_model_runner.py', 'profile_run', 'hidden_states, last_hidden_states = self._dummy_run('),
    ('vllm/compilation/cuda_piecewise_backend.py', '__call__', 'return entry.runnable(*args)'),
    ('vllm/compilation/compiler_interface.py', 'compiled_graph_wrapper', 'graph_output = inductor_compiled_graph(list_args)'),
    ('torch/_inductor/output_code.py', '__call__', 'return self.current_callable(inputs)')],
    'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 7.42 GiB. GPU 0 has a total capacity of 79.19 GiB of which 5.01 GiB is free.'), CORE) + '\n')

# A terminal UI's frame around every line (k9s: "│ ... │") does not hide a frame's function name.
def k9s(text):
    lines = [l for l in text.split('\n') if l]
    w = max(len(l) for l in lines) + 2
    return '\n'.join('│ ' + l.ljust(w) + ' │' for l in lines) + '\n'
case('w_k9s_vllm_frames', 'crashed', 'distributed_init', '*', k9s(v1(V1API, API) + '\n' + v1(V1CORE, CORE) + '\n' + v1(logged('WorkerProc failed to start.', [
        ('vllm/v1/executor/multiproc_executor.py', 'worker_main', 'worker = WorkerProc(*args, **kwargs)'),
        ('vllm/v1/worker/gpu_worker.py', 'init_device', 'init_worker_distributed_environment('),
        ('vllm/distributed/parallel_state.py', 'initialize_model_parallel', '_TP = init_model_parallel_group('),
        ('vllm/distributed/device_communicators/pynccl_wrapper.py', 'NCCL_CHECK', 'raise RuntimeError(f"NCCL error: {error_str}")')],
        'RuntimeError: NCCL error: unhandled system error (run with NCCL_DEBUG=INFO for details)', f='multiproc_executor.py:597'), W0)))

# vLLM colours its process tags; a paste that lost the ESC bytes keeps "[1;36m" and "[0;0m".
import re
def lost_esc(text): return re.sub(r'^\((\S+(?: rank=\d+)? pid=\d+)\) ', r'[1;36m(\1)[0;0m ', text, flags=re.M)
case('w_colour_remnant', 'crashed', 'weight_load', 'gpu_oom', lost_esc(vt(TP2[:6] + [
       ('VllmWorker rank=1 pid=31','ERROR','multiproc_executor.py:527','WorkerProc failed to start.'),
       ('VllmWorker rank=1 pid=31','ERROR','multiproc_executor.py:527','Traceback (most recent call last):'),
       ('VllmWorker rank=1 pid=31','ERROR','multiproc_executor.py:527','torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.00 GiB.'),
       ('EngineCore_0 pid=20','ERROR','core.py:700','EngineCore failed to start.')]) + '\n'))

# vLLM 0.2-0.3: no version in the engine banner, the cache profiled in _init_cache.
case('v02_profile_oom', 'crashed', 'kv_cache', '*', v0([
    ('INFO', 'llm_engine.py:72', "Initializing an LLM engine with config: model='lmsys/vicuna-7b-v1.5', tokenizer='lmsys/vicuna-7b-v1.5', tensor_parallel_size=1, seed=0)"),
    ('INFO', 'weight_utils.py:143', 'Using model weights format [\'*.bin\']')]) + '\n' + '\n'.join(frames([
    ('vllm/entrypoints/api_server.py', '<module>', 'engine = AsyncLLMEngine.from_engine_args(engine_args)'),
    ('vllm/engine/llm_engine.py', '__init__', 'self._init_cache()'),
    ('vllm/engine/llm_engine.py', '_init_cache', 'num_blocks = self._run_workers('),
    ('vllm/worker/worker.py', 'profile_num_available_blocks', 'self.model(')],
    'torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.95 GiB (GPU 0; 23.69 GiB total capacity; 21.98 GiB already allocated; 1.09 GiB free)')) + '\n')

# The API server's own set-up after the engine is up (vLLM's init_app_state) is http_start, even
# where the engine's "init engine ... took" line was not pasted.
case('v1_app_state_frame', 'crashed', 'http_start', '*', v1(V1API[:2], API) + '\n' + v1([('ERROR', 'api_server.py:1', l) for l in frames([
    ('vllm/entrypoints/openai/api_server.py', 'run_server_worker', 'await init_app_state(engine_client, vllm_config, app.state, args)'),
    ('vllm/entrypoints/openai/api_server.py', 'init_app_state', 'resolved_chat_template = load_chat_template(args.chat_template)'),
    ('vllm/entrypoints/chat_utils.py', 'load_chat_template', 'raise ValueError(msg) from e')],
    "ValueError: The supplied chat template string (/models/template.jinja) appears path-like, but doesn't exist!")], API) + '\n')

# lead (round 5): an excerpt that starts inside a traceback (its header cut) still ends in an error;
# stack dumps of a hang (faulthandler) are not tracebacks; a client's request answered with any status
# shows the server up, and its failure is the request's, not the start's.
case('x_cut_tb_sglang_load', 'crashed', 'weight_load', '*', sg(pyframes([('managers/scheduler.py', 'run_scheduler_process'),
    ('managers/tp_worker.py', '__init__'), ('model_executor/model_runner.py', 'load_model'), ('model_loader/loader.py', 'load_model')]) +
    ["RuntimeError: shape mismatch for 'model.layers.0.mlp.gate_up_proj.weight'"], tp=0))
case('x_cut_tb_vllm_graph_noexc', 'crashed', 'cuda_graph', '*', v1([('ERROR', 'core.py:700', l) for l in [
    '  File "/usr/local/lib/python3.12/dist-packages/vllm/v1/worker/gpu_worker.py", line 100, in compile_or_warm_up_model',
    '    self.model_runner.capture_model()',
    '  File "/usr/local/lib/python3.12/dist-packages/vllm/v1/worker/gpu_model_runner.py", line 100, in capture_model',
    '    self._capture_cudagraphs(',
    '  File "/usr/local/lib/python3.12/dist-packages/vllm/v1/worker/gpu_model_runner.py", line 100, in _capture_cudagraphs',
    '    self._dummy_run(']], CORE))
case('x_faulthandler_hang', 'stalled', 'weight_load', '*', sg(SHEAD) + '\n' + sg(SDIST + ['Load weight begin. avail mem=78.00 GB'], tp=0) + '\n' +
    sg(['Timeout (0:20:00)!', 'Thread 0x00007f2b6a5fe640 (most recent call first):',
        '  File "/usr/lib/python3.10/threading.py", line 320 in wait',
        '  File "/usr/local/lib/python3.10/dist-packages/sglang/srt/model_loader/weight_utils.py", line 480 in safetensors_weights_iterator'], m=25))
case('x_sglang_client_500', 'ready', 'ready', None, sg(SHEAD) + '\n' + sg(SDIST + SLOAD + SKV + ['Capture cuda graph begin.', 'Capture cuda graph end. Time elapsed: 7.23 s.'], tp=0) +
    '\n' + sg(UVI + ['INFO:     10.0.0.7:51234 - "POST /v1/chat/completions HTTP/1.1" 500 Internal Server Error', 'ERROR:    Exception in ASGI application'] +
    pyframes([('entrypoints/http_server.py', 'openai_v1_chat_completions')], root='/usr/local/lib/python3.10/dist-packages/sglang/srt') +
    ['ValueError: This model does not support tool calling'], m=2))
case('x_vllm_client_400', 'ready', 'ready', None, v1(V1API, API) + '\n' + v1(V1CORE + [('INFO', 'core.py:210', 'init engine (profile, create kv cache, warmup model) took 34.11 seconds')], CORE) +
    '\n' + v1([('INFO', 'launcher.py:29', 'Available routes are:'),
              ('INFO', 'h11_impl.py:1', '10.0.0.7:5 - "POST /v1/completions HTTP/1.1" 400 Bad Request'),
              ('ERROR', 'serving_completion.py:1', "This model's maximum context length is 40960 tokens. However, you requested 50000 tokens.")], API))

# A crash loop pasted without its launch banners: each run's excerpt begins a phase the dead run
# had passed, minutes later. Ranks that go on after a peer's crash never go back.
def sg_run(h, m=0):
    return sg(SDIST + ['Load weight begin. avail mem=78.00 GB', 'Scheduler hit an exception: Traceback (most recent call last):'] +
              pyframes([('model_loader/loader.py', 'load_model')]) + ['torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.50 GiB.'], tp=0, h=h, m=m)
# A supervisor's restarts come within minutes of the death; a start an hour later was begun by hand.
case('x_loop_no_banner', 'crash_loop', 'weight_load', '*', '\n'.join(sg_run(10, m) for m in (0, 2, 4)))
case('x_rank_goes_on_after_peer_crash', 'crashed', 'weight_load', '*', sg(SDIST, tp=0) + '\n' + sg(SDIST, tp=1) + '\n' +
     sg(['Load weight begin. avail mem=78.00 GB', 'Scheduler hit an exception: Traceback (most recent call last):'] + pyframes([('model_loader/loader.py', 'load_model')]) +
        ['torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.50 GiB.'], tp=1) + '\n' +
     sg(['Load weight begin. avail mem=78.00 GB', 'Load weight end. type=Qwen3MoeForCausalLM, avail mem=20.00 GB'], tp=0))

# NVIDIA's container images print their banner at each container start: docker logs of a restart
# policy show one per run.
NGC = '\n'.join(['=============================', '== Triton Inference Server ==', '=============================', '',
                 'NVIDIA Release 24.07 (build 100982050)', 'Triton Server Version 2.48.0', ''])
def triton_run(sec=0):
    return NGC + '\n' + triton(TRITON_HEAD, sec) + '\n' + trt(TRT_CPP_LOAD[:3] + [('CE', 'Assertion failed: mpiSize == tp * pp (/src/tensorrt_llm/cpp/tensorrt_llm/runtime/worldConfig.cpp:99)')])
# Each run stamped later (a container restarted by its policy); the same stamps again are one run
# pasted three times.
case('x_ngc_banner_loop', 'crash_loop', 'weight_load', '*', '\n'.join(triton_run(30 * k) for k in range(3)))
case('x_ngc_banner_pasted_three_times', 'crashed', 'weight_load', '*', '\n'.join(triton_run() for _ in range(3)))

# ... but a banner followed by lines stamped before the excerpt it follows begins that same start,
# pasted after its end (another node's or an earlier part of the log).
CUDA_NGC = '\n'.join(['==========', '== CUDA ==', '==========', '', 'CUDA Version 12.4.1', ''])
case('x_ngc_banner_earlier_part', 'crashed', 'distributed_init', '*', sg(SDIST[:1] + ['Scheduler hit an exception: Traceback (most recent call last):'] +
     pyframes([('managers/scheduler.py', 'run_scheduler_process'), ('distributed/parallel_state.py', 'init_distributed_environment')]) +
     ['RuntimeError: Gloo connectFullMesh failed'], tp=1, m=5) + '\n' + CUDA_NGC + '\n' + sg(SHEAD) + '\n' + sg(SDIST[:1], tp=0, m=1))

# A stop asked for (Ctrl+C, SIGTERM, a container exiting 130/143) is not a crash, and neither are the
# deaths and tracebacks it causes; a start stopped after going far longer than its phase needs
# without progress was stuck when someone gave up on it.
def ctrl_c(h, m):
    return sg(['^C'], h=h, m=m).replace('] ^C', '] Received SIGINT') + '\n^CTraceback (most recent call last):\n' + '\n'.join(
        pyframes([('managers/scheduler.py', 'run_scheduler_process'), ('model_loader/loader.py', 'load_model'), ('model_loader/weight_utils.py', 'safetensors_weights_iterator')])) + '\nKeyboardInterrupt'
case('x_ctrl_c_after_stall', 'stalled', 'weight_load', '*', sg(SHEAD) + '\n' + sg(SDIST + ['Load weight begin. avail mem=78.00 GB'], tp=0) + '\n' + ctrl_c(10, 40))
case('x_ctrl_c_while_loading', 'stopped', 'weight_load', None, sg(SHEAD) + '\n' + sg(SDIST + ['Load weight begin. avail mem=78.00 GB'], tp=0) + '\n' + ctrl_c(10, 0))
CTRL_C_AFTER_READY = (v1(V1API, API) + '\n' + v1(V1CORE + [('INFO', 'core.py:210', 'init engine (profile, create kv cache, warmup model) took 34.11 seconds')], CORE) +
     '\n^C' + v1([('INFO', 'launcher.py:80', 'Shutting down FastAPI HTTP server.'),
                  ('ERROR', 'core_client.py:562', 'Engine core proc EngineCore_DP0 died unexpectedly, shutting down client.')], API) +
     '\n' + '\n'.join(frames([('vllm/entrypoints/cli/main.py', 'main', 'args.dispatch_function(args)')], 'KeyboardInterrupt')))
case('x_ctrl_c_after_ready', 'ready', 'ready', None, CTRL_C_AFTER_READY)
case('x_compose_exit_143', 'stopped', 'weight_load', None, '\n'.join('vllm-1  | ' + l for l in vl(VHEAD + VLOAD[:1]).split('\n')) + '\nvllm-1 exited with code 143')
# ---- tphase: TGI and TensorRT-LLM crash phases from what the excerpt still shows (issue 10)
# TGI's launcher says "Shard N crashed" (and returns ShardFailed) only once every shard was ready and
# the router runs: a paste that starts at the shard's stderr is a crash in the router's warm-up.
case('tp_tgi_shard_crashed_midway', 'crashed', 'kv_cache', '*', '''
RuntimeError: CUDA error: an illegal memory access was encountered
CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.
''' + tg([('ERROR','','Shard 0 crashed'),('INFO','','Terminating webserver'),('INFO','','Waiting for webserver to gracefully shutdown'),
    ('INFO','','webserver terminated'),('INFO','','Shutting down shards')], base=30) + '\nError: ShardFailed\n')
# v1+ --json-output: the shard's warm-up traceback inside one message, then the shard's death
case('tp_tgi_json_warmup_crash', 'crashed', 'kv_cache', '*', tgj([('INFO', None, 'Args { model_id: "m", num_shard: Some(2) }'),
    ('INFO', 0, 'Starting shard'), ('INFO', 1, 'Starting shard'), ('INFO', 0, 'Shard ready in 20.1s'), ('INFO', 1, 'Shard ready in 20.4s'),
    ('INFO', None, 'Starting Webserver'),
    ('ERROR', 1, 'Shard complete standard error output:\n\nTraceback (most recent call last):\n  File "/usr/src/server/text_generation_server/models/flash_causal_lm.py", line 1400, in warmup\n    self.init_kv_cache(\n  File "/usr/src/server/text_generation_server/models/flash_causal_lm.py", line 1300, in init_kv_cache\n    torch.empty(\nRuntimeError: CUDA error: an illegal memory access was encountered'),
    ('ERROR', None, 'Shard 1 crashed'), ('INFO', None, 'Shutting down shards')]) + '\nError: ShardFailed\n')
# a shard's traceback pasted alone: the frames of TGI's weight loader name the phase
case('tp_tgi_weights_frames_only', 'crashed', 'weight_load', '*', tg([('INFO','shard-manager: ','Waiting for shard to be ready... rank=0')]) + '''
Traceback (most recent call last):
  File "/opt/conda/lib/python3.11/site-packages/text_generation_server/models/__init__.py", line 1400, in get_model_with_lora_adapters
    model = get_model(
  File "/opt/conda/lib/python3.11/site-packages/text_generation_server/models/custom_modeling/flash_llama_modeling.py", line 600, in __init__
    self.embed_tokens = TensorParallelEmbedding(
  File "/opt/conda/lib/python3.11/site-packages/text_generation_server/utils/weights.py", line 300, in get_sharded
    return self.get_partial_sharded(tensor_name, dim)
RuntimeError: weight model.embed_tokens.weight does not exist
''' + tg([('ERROR','','Shard 0 failed to start'),('INFO','','Shutting down shards')], base=20) + '\nError: ShardCannotStart\n')
# Triton: the model instance state is built while the engine loads (the C++ runtime's constructor):
# "when creating modelInstanceState" or the model table's UNAVAILABLE row is a failure of loading it
case('tp_triton_instance_state_midway', 'crashed', 'weight_load', '*', triton([
    ('E','model_lifecycle.cc:638',"failed to load 'tensorrt_llm' version 1: Internal: unexpected error when creating modelInstanceState: [TensorRT-LLM][ERROR] Assertion failed: mpiSize == tp * pp (/app/tensorrt_llm/cpp/tensorrt_llm/runtime/worldConfig.cpp:90)"),
    ('I','server.cc:307','Waiting for in-flight requests to complete.'),('I','server.cc:323','Timeout 30: Found 0 model versions that have in-flight inferences')], sec=10) + '''
+--------------+---------+------------------------------------------------------------------------------------------------+
| Model        | Version | Status                                                                                         |
+--------------+---------+------------------------------------------------------------------------------------------------+
| tensorrt_llm | 1       | UNAVAILABLE: Internal: unexpected error when creating modelInstanceState: [TensorRT-LLM][ERROR] |
+--------------+---------+------------------------------------------------------------------------------------------------+
error: creating server: Internal - failed to load all models
''')
# Triton: the Python pre-processing model fails in its initialize() while the engine has already sized
# its KV cache: the crash is where it was raised (a model's initialisation), not where the engine got to
case('tp_triton_preprocessing_failed', 'crashed', 'weight_load', '*', triton(TRITON_HEAD + [
    ('I','python_be.cc:2199','TRITONBACKEND_ModelInstanceInitialize: preprocessing_0_0 (CPU device 0)')]) + '\n' + trt(TRT_CPP_LOAD + [
    ('C','Memory usage when calculating max tokens in paged kv cache: total: 79.10 GiB, available: 63.62 GiB'),
    ('C','Number of blocks in KV cache primary pool: 4607')]) + '\n' + triton([
    ('E','model_lifecycle.cc:638',"failed to load 'preprocessing' version 1: Internal: OSError: Can't load tokenizer for '/models/tokenizer'. If you were trying to load it from 'https://huggingface.co/models', make sure you don't have a local directory with the same name."),
    ('','',''),('','','At:'),
    ('','','  /usr/local/lib/python3.10/dist-packages/transformers/tokenization_utils_base.py(1785): from_pretrained'),
    ('','','  /usr/local/lib/python3.10/dist-packages/transformers/models/auto/tokenization_auto.py(700): from_pretrained'),
    ('','','  /models/preprocessing/1/model.py(65): initialize'),
    ('I','model_lifecycle.cc:818',"successfully loaded 'tensorrt_llm'"),
    ('','','error: creating server: Internal - failed to load all models')], sec=60) + '\n')
# the same, only the model table pasted
case('tp_triton_table_preprocessing', 'crashed', 'weight_load', '*', '''+----------------+---------+------------------------------------------------------------------------+
| Model          | Version | Status                                                                 |
+----------------+---------+------------------------------------------------------------------------+
| postprocessing | 1       | READY                                                                  |
| preprocessing  | 1       | UNAVAILABLE: Internal: ModuleNotFoundError: No module named 'sentencepiece' |
| tensorrt_llm   | 1       | READY                                                                  |
+----------------+---------+------------------------------------------------------------------------+
''' + triton([('I','server.cc:307','Waiting for in-flight requests to complete.'),('','','error: creating server: Internal - failed to load all models')], sec=70) + '\n')
# the LLM API with the TensorRT backend: a traceback from the engine build, pasted alone
case('tp_trt_build_frames_only', 'crashed', 'compile', '*', '''[05/01/2025-01:10:00] [TRT] [E] 1: [defaultAllocator.cpp::allocate::20] Error Code 1: Cuda Runtime (out of memory)
Traceback (most recent call last):
  File "/usr/local/lib/python3.12/dist-packages/tensorrt_llm/llmapi/llm_utils.py", line 700, in __call__
    self._build_engine(self.model, copied_build_config)
  File "/usr/local/lib/python3.12/dist-packages/tensorrt_llm/llmapi/llm_utils.py", line 400, in _build_engine
    self._engine = build(self.model, copied_build_config)
  File "/usr/local/lib/python3.12/dist-packages/tensorrt_llm/builder.py", line 1300, in build
    engine = None if build_config.dry_run else builder.build_engine(
RuntimeError: Failed to build the engine
''')
# trtllm-serve (PyTorch backend): the KV cache manager's constructor raises; the excerpt starts at the traceback
case('tp_trt_kv_manager_frames', 'crashed', 'kv_cache', '*', trt(trt_tb(
    [('executor/worker.py','worker_main'),('_torch/pyexecutor/py_executor_creator.py','create_py_executor'),
     ('_torch/pyexecutor/_util.py','create_kv_cache_manager'),('_torch/pyexecutor/resource_manager.py','__init__')],
    'RuntimeError: [TensorRT-LLM][ERROR] Assertion failed: Impossible to fit in any sequence in kvCache',
    'Failed to initialize executor on rank 0: Impossible to fit in any sequence in kvCache') + TRT_WORKER_END))
# Open MPI could not initialise (here: /dev/shm full): MPI's start is the distributed init, even where
# the excerpt holds nothing but MPI's own words
case('tp_trt_mpi_init_only', 'crashed', 'distributed_init', '*', """--------------------------------------------------------------------------
It looks like MPI_INIT failed for some reason; your parallel process is
likely to abort.  There are many reasons that a parallel process can
fail during MPI_INIT; some of which are due to configuration or environment
problems.
--------------------------------------------------------------------------
*** An error occurred in MPI_Init_thread
*** on a NULL communicator
*** MPI_ERRORS_ARE_FATAL (processes in this communicator will now abort,
***    and potentially your MPI job)
""")
# a rank fails while loading; mpirun's abort text follows and must not move the phase
case('tp_trt_mpi_abort_after_rank', 'crashed', 'weight_load', '*', trt([('', '[TensorRT-LLM] TensorRT-LLM version: 0.21.0'), ('I','Using LLM with PyTorch backend'),
    ('I','start MpiSession with 2 workers'),('I','Prefetching 30.00GB checkpoint files.')] + trt_tb(
    [('executor/worker.py','worker_main'),('_torch/pyexecutor/model_engine.py','_load_model'),('_torch/models/modeling_utils.py','load_weights')],
    'KeyError: model.layers.0.mlp.gate.weight', 'Failed to initialize executor on rank 1: model.layers.0.mlp.gate.weight') + [
    ('', '--------------------------------------------------------------------------'),
    ('', 'MPI_ABORT was invoked on rank 1 in communicator MPI_COMM_WORLD'),
    ('', 'with errorcode 1.'),
    ('', '--------------------------------------------------------------------------'),
    ('', 'mpirun noticed that process rank 1 with PID 0 on node n1 exited on signal 6 (Aborted).')]))

# only a traceback pasted: the engine is told by its package's paths in the frames, so its own frame
# rules can name the phase
case('tp_trt_bare_traceback_kv', 'crashed', 'kv_cache', '*', '''Traceback (most recent call last):
  File "/usr/local/lib/python3.12/dist-packages/tensorrt_llm/executor/worker.py", line 800, in worker_main
    worker: GenerationExecutorWorker = worker_cls(
  File "/usr/local/lib/python3.12/dist-packages/tensorrt_llm/_torch/pyexecutor/py_executor_creator.py", line 500, in create_py_executor
    kv_cache_creator.build_managers(resources, estimating_kv_cache)
  File "/usr/local/lib/python3.12/dist-packages/tensorrt_llm/_torch/pyexecutor/_util.py", line 600, in create_kv_cache_manager
    kv_cache_manager = KVCacheManager(
RuntimeError: [TensorRT-LLM][ERROR] Assertion failed: Impossible to fit in any sequence in kvCache
''')
case('tp_tgi_bare_traceback_warmup', 'crashed', 'kv_cache', '*', '''Traceback (most recent call last):
  File "/opt/conda/lib/python3.11/site-packages/text_generation_server/interceptor.py", line 21, in intercept
    return await response
  File "/opt/conda/lib/python3.11/site-packages/text_generation_server/server.py", line 125, in Warmup
    batch, max_input_tokens, max_total_tokens = self.model.warmup(batch)
  File "/opt/conda/lib/python3.11/site-packages/text_generation_server/models/flash_causal_lm.py", line 1400, in warmup
    self.init_kv_cache(
torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.
''')

# trtllm-serve: the worker's traceback (weight loading), then the main process's own, through the LLM
# API's set-up (llm.py _build_model, the executor proxy), which names no phase and must not move it
TRT_MAIN_TB = [('', 'Traceback (most recent call last):')] + [x for path, fn, code in [
    ('commands/serve.py', 'launch_server', 'llm = PyTorchLLM(**llm_args)'), ('llmapi/llm.py', '__init__', 'self._build_model()'),
    ('llmapi/llm.py', '_build_model', 'self._executor = self._executor_cls.create('), ('executor/executor.py', 'create', 'return GenerationExecutorProxy('),
    ('executor/proxy.py', '__init__', 'self._start_executor_workers(worker_kwargs)'), ('executor/proxy.py', '_start_executor_workers', 'raise ready_signal')]
    for x in [('', f'  File "/usr/local/lib/python3.12/dist-packages/tensorrt_llm/{path}", line 100, in {fn}'), ('', f'    {code}')]] + [
    ('', 'RuntimeError: Executor worker returned error')]
case('tp_trt_worker_then_main_traceback', 'crashed', 'weight_load', '*', trt(TRT_SERVE_HEAD + trt_tb(
    [('executor/worker.py','worker_main'),('_torch/pyexecutor/py_executor_creator.py','create_py_executor'),('_torch/pyexecutor/model_engine.py','__init__'),
     ('_torch/pyexecutor/model_engine.py','_load_model'),('_torch/models/modeling_qwen3_moe.py','__init__')],
    'ValueError: Unsupported quantization algorithm NVFP4 for the MoE backend CUTLASS on this GPU',
    'Failed to initialize executor on rank 0: Unsupported quantization algorithm NVFP4') + TRT_MAIN_TB))

# trtllm-serve (PyTorch backend): the model engine's warm-up announces the autotuner's pass ("Running
# autotuner warmup..."): an error after it, with no traceback pasted, is in compile, not the KV cache
case('tp_trt_autotuner_warmup_oom', 'crashed', 'compile', '*', trt(TRT_SERVE_HEAD + TRT_SERVE_LOADED + TRT_SERVE_KV + [
    ('I','Running autotuner warmup...'),
    ('E','Failed to initialize executor on rank 0: CUDA out of memory. Tried to allocate 4.00 GiB. GPU 0 has a total capacity of 79.19 GiB of which 1.20 GiB is free.')] + TRT_WORKER_END))

# --json-output: the shard's number is in the span fields, not the message; shard 0 is ready, shard 1 dies
case('tp_tgi_json_span_rank', 'crashed', 'weight_load', 'host_oom', tgj([('INFO', None, 'Args { model_id: "m", num_shard: Some(2) }'),
    ('INFO', 0, 'Starting shard'), ('INFO', 1, 'Starting shard'), ('INFO', 0, 'Waiting for shard to be ready...'), ('INFO', 1, 'Waiting for shard to be ready...'),
    ('INFO', 0, 'Shard ready in 40.2s'), ('INFO', 1, 'Waiting for shard to be ready...'),
    ('ERROR', 1, 'Shard process was signaled to shutdown with signal 9'),
    ('ERROR', None, 'Shard 1 failed to start'), ('INFO', None, 'Shutting down shards'), ('INFO', 0, 'Shard terminated')]) + '\nError: ShardCannotStart\n')

# the same in plain text: the span's fields follow the message (" rank=1")
case('tp_tgi_text_span_rank', 'crashed', 'weight_load', 'host_oom', tg(THEAD+[('INFO','shard-manager: ','Waiting for shard to be ready... rank=0'),
    ('INFO','shard-manager: ','Shard ready in 40.2s rank=0'),('INFO','shard-manager: ','Waiting for shard to be ready... rank=1'),
    ('ERROR','shard-manager: ','Shard process was signaled to shutdown with signal 9 rank=1'),
    ('ERROR','','Shard 1 failed to start'),('INFO','','Shutting down shards'),('INFO','shard-manager: ','Shard terminated rank=0')]) + '\nError: ShardCannotStart\n')

# the router's gRPC client reports a shard's failure as "Server error: ..." inside its warm-up span
# (the span is prefix, so the message alone is left): before the server is up, that is the warm-up
case('tp_tgi_router_server_error', 'crashed', 'kv_cache', '*', tg([('INFO','shard-manager: ','Shard ready in 20.1s rank=0'),('INFO','','Starting Webserver'),
    ('ERROR','warmup{max_input_length=Some(4095) max_prefill_tokens=4096 max_total_tokens=Some(4096) max_batch_size=None}:warmup: text_generation_router_v3::client: backends/v3/src/client/mod.rs:45: ',
     'Server error: CUDA error: no kernel image is available for execution on the device'),
    ('ERROR','','Webserver Crashed'),('INFO','','Shutting down shards')]) + '\nError: WebserverFailed\n')
# Triton's C++ runtime: an MPI failure thrown from its MPI utilities names the distributed init
case('tp_trt_cpp_mpi_error', 'crashed', 'distributed_init', '*', trt([
    ('CE','[TensorRT-LLM][ERROR] Assertion failed: MPI_ERR_OTHER: known error not in list (/app/tensorrt_llm/cpp/tensorrt_llm/runtime/utils/mpiUtils.cpp:300)'),
    ('', '1       0x7f5b1a2c3d4e tensorrt_llm::common::throwRuntimeError(char const*, int, std::string const&) + 94'),
    ('', '2       0x7f5b1a2c3f00 tensorrt_llm::mpi::MpiComm::split(int, int) const + 100')]) + '\n')

# TGI colours its time, level, target and span fields; a paste that lost the ESC bytes keeps "[2m",
# "[0m", "[32m" all along the line. Without them it is a plain TGI line (here a shard that fails to load).
def tg_colour_lost(lines, base=0):
    out = []
    for i, (lvl, who, m) in enumerate(lines):
        s = base + i
        col = '[31m' if lvl == 'ERROR' else '[32m'
        span = f'[1m{who[:-2]}[0m: ' if who else ''
        rank = ''
        if m.endswith(' rank=0'):
            m, rank = m[:-7], ' [2m[3mrank[0m[2m=[0m0[0m'
        out.append(f'[2m2024-05-01T01:{s//60:02d}:{s%60:02d}.618817Z[0m {col} {lvl}[0m {span}[2mtext_generation_launcher[0m[2m:[0m {m}{rank}')
    return '\n'.join(out)
case('tp_tgi_colour_remnants', 'crashed', 'kv_cache', '*', tg_colour_lost(THEAD[:1] + [('INFO','download: ','Starting download process.'),
    ('INFO','download: ','Successfully downloaded weights.'), ('INFO','shard-manager: ','Starting shard rank=0'),
    ('INFO','shard-manager: ','Shard ready in 31.2s rank=0'), ('INFO','','Starting Webserver'), ('INFO','','Warming up model'),
    ('ERROR','','Webserver Crashed'), ('INFO','','Shutting down shards')]) + '\nError: WebserverFailed\n')

# the router (Rust) panics on its main thread while it sets up, after the shards are ready: the
# process is gone even where the launcher's own "Webserver Crashed" was not pasted
case('tp_tgi_router_panic', 'crashed', 'http_start', '*', tg(TGI_UP) + '''
thread 'main' panicked at router/src/main.rs:383:10:
called `Result::unwrap()` on an `Err` value: Error("data did not match any variant of untagged enum ModelWrapper", line: 1, column: 1234)
note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace
''')

# Triton's Python backend cannot start a model's stub (an import fails in model.py): a model's
# initialisation, wherever the TRT engine has got to
case('tp_triton_python_stub', 'crashed', 'weight_load', '*', triton(TRITON_HEAD) + '\n' + trt(TRT_CPP_LOAD + [
    ('C','Memory usage when calculating max tokens in paged kv cache: total: 79.10 GiB, available: 63.62 GiB')]) + '\n' + triton([
    ('E','pb_stub.cc:325',"Failed to initialize Python stub: ModuleNotFoundError: No module named 'tensorrt_llm_custom'"),
    ('','',''),('','','At:'),('','','  /models/tokenize/1/model.py(31): <module>'),('','','  <frozen importlib._bootstrap>(241): _call_with_frames_removed'),
    ('','','error: creating server: Internal - failed to load all models')], sec=60) + '\n')

# Docker's json-file driver around TGI's --json-output: a JSON line inside a JSON line; the inner one
# is read (its anchored lines: "Starting Webserver", "Warming up model")
def docker_json(text):
    return '\n'.join(json.dumps({"log": l + "\n", "stream": "stdout", "time": "2024-05-01T01:00:00.000000000Z"}) for l in text.strip('\n').split('\n'))
case('tp_tgi_docker_json_warmup', 'crashed', 'kv_cache', '*', docker_json(tgj([('INFO', None, 'Args { model_id: "m", num_shard: Some(1) }'),
    ('INFO', 0, 'Starting shard'), ('INFO', 0, 'Shard ready in 20.1s'), ('INFO', None, 'Starting Webserver'), ('INFO', None, 'Warming up model'),
    ('ERROR', None, 'Webserver Crashed'), ('INFO', None, 'Shutting down shards')])) + '\n')

# the same coloured lines behind docker compose's service prefix
case('tp_tgi_compose_colour_remnants', 'crashed', 'kv_cache', '*', '\n'.join('tgi-1  | ' + l for l in tg_colour_lost(THEAD[:1] + [('INFO','shard-manager: ','Starting shard rank=0'),
    ('INFO','shard-manager: ','Shard ready in 31.2s rank=0'), ('INFO','','Starting Webserver'), ('INFO','','Warming up model'),
    ('ERROR','','Webserver Crashed'), ('INFO','','Shutting down shards')]).split('\n')) + '\ntgi-1  | Error: WebserverFailed\ntgi-1 exited with code 1\n')

# trtllm-serve (PyTorch backend) sizes the KV cache twice: the estimation pass runs the autotuner and
# captures CUDA graphs, then the final KV cache does not fit. The executor's memory monitor names the
# component it could not create: that is where it was raised, whatever the first pass printed.
case('tp_trt_final_kv_component', 'crashed', 'kv_cache', '*', trt(TRT_SERVE_HEAD + TRT_SERVE_LOADED + [
    ('I','Memory used after loading model weights (inside torch) in memory usage profiling: 63.40 GiB'),
    ('C','Number of tokens per block: 32.'),('C','[MemUsageChange] Allocated 0.56 GiB for max tokens in paged KV cache (8224).'),
    ('I','Running autotuner warmup...'),('I','[Autotuner] Autotuning process starts ...'),('I','[Autotuner] Autotuning process ends'),
    ('I','Creating CUDA graph instances for 12 batch sizes.'),('I','Run generation only CUDA graph warmup for batch size=64, draft_len=0'),
    ('I','Peak memory during memory usage profiling (torch + non-torch): 70.10 GiB, available KV cache memory when calculating max tokens: 7.20 GiB'),
    ('I','Estimated max memory in KV cache : 7.20 GiB'),
    ('E','Failed to initialize executor on rank 0: Executor creation failed due to insufficient GPU memory.'), ('', ''),
    ('', 'The following component could not be created: KV cache'), ('', 'Total GPU memory (GiB): 79.19'),
    ('', 'Free GPU memory before component creation attempt (GiB): 6.90')] + TRT_WORKER_END))

# an engine built from a checkpoint (trtllm-build, or the LLM API's TensorRT backend): TensorRT's
# builder says it is building; an allocation failure there is the engine build, not the weight load
case('tp_trt_builder_oom', 'crashed', 'compile', '*', trt([('', '[TensorRT-LLM] TensorRT-LLM version: 0.16.0'),
    ('I','Set dtype to bfloat16.'), ('I','Set nccl_plugin to None.'),
    ('I','Total time of constructing network from module object 4.21 seconds'),
    ('I','Build TensorRT engine Unnamed Network 0')]) + '''
[05/01/2025-01:00:06] [TRT] [I] Global timing cache in use. Profiling results in this builder pass will be stored.
[05/01/2025-01:00:07] [TRT] [I] Compiler backend is used during engine build.
[05/01/2025-01:02:07] [TRT] [E] [virtualMemoryBuffer.cpp::resizePhysical::140] Error Code 2: OutOfMemory (Requested size was 4294967296 bytes.)
[05/01/2025-01:02:07] [TRT] [E] [globWriter.cpp::makeResizableGpuMemory::433] Error Code 2: OutOfMemory (Requested size was 4294967296 bytes.)
[05/01/2025-01:02:08] [TRT-LLM] [E] Engine building failed, please check the error log.
''')
# ---- vphase (issue 10): where a vLLM crash happened, from frames that stay in a cut excerpt.
# Compiled code running is not compiling: torch.compile runs inside the profile run (V1, and V0 with
# compilation on) and inside graph capture; a crash in the compiled graph's wrapper there is the
# profile run (kv_cache) or the capture. Frames of torch/vLLM that only compile still say compile.
F_RUN_COMPILED = [('vllm/v1/worker/gpu_model_runner.py', '_dummy_run', 'outputs = self.model('),
    ('vllm/compilation/decorators.py', '__call__', 'output = self.compiled_callable(*args, **kwargs)'),
    ('torch/_dynamo/eval_frame.py', '_fn', 'return fn(*args, **kwargs)'),
    ('vllm/compilation/cuda_piecewise_backend.py', '__call__', 'return entry.runnable(*args)'),
    ('vllm/compilation/compiler_interface.py', 'compiled_graph_wrapper', 'graph_output = inductor_compiled_graph(list_args)'),
    ('torch/_inductor/output_code.py', '__call__', 'return self.current_callable(inputs)')]
case('vp_profile_compiled_code_cut', 'crashed', 'kv_cache', '*', v1(logged('', [
    ('vllm/v1/worker/gpu_worker.py', 'determine_available_memory', 'self.model_runner.profile_run()'),
    ('vllm/v1/worker/gpu_model_runner.py', 'profile_run', 'hidden_states, last_hidden_states = self._dummy_run(')] + F_RUN_COMPILED,
    'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 7.42 GiB. GPU 0 has a total capacity of 79.19 GiB of which 5.01 GiB is free.',
    f='multiproc_executor.py:654'), '(VllmWorker rank=0 pid=31) ') + '\n')
# torch 2.5 and vLLM 0.7 (V0 with compilation): the compiled graph is called from codecache.py and
# compile_fx.py's "run" wrapper, vLLM's PiecewiseBackend lived in backends.py.
case('vp_v0_profile_compiled_torch25', 'crashed', 'kv_cache', '*', '\n'.join(frames([
    ('vllm/worker/worker.py', 'determine_num_available_blocks', 'self.model_runner.profile_run()'),
    ('vllm/worker/model_runner.py', 'profile_run', 'self.execute_model(model_input, kv_caches, intermediate_tensors)'),
    ('vllm/compilation/backends.py', '__call__', 'return self.compiled_graph_for_general_shape(*args)'),
    ('torch/_inductor/compile_fx.py', 'run', 'return model(new_inputs)'),
    ('torch/_inductor/codecache.py', '__call__', 'return self.current_callable(inputs)')],
    'RuntimeError: CUDA error: an illegal memory access was encountered')) + '\n')
case('vp_capture_compiled_code_cut', 'crashed', 'cuda_graph', '*', v1(logged('', [
    ('vllm/v1/worker/gpu_worker.py', 'compile_or_warm_up_model', 'self.model_runner.capture_model()'),
    ('vllm/v1/worker/gpu_model_runner.py', 'capture_model', 'self._dummy_run(num_tokens, skip_attn=skip_attn)')] + F_RUN_COMPILED,
    'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 512.00 MiB.', f='multiproc_executor.py:654'),
    '(VllmWorker rank=0 pid=31) ') + '\n')
# A real compile failure inside the profile run, pasted from the middle of the traceback.
case('vp_compile_fail_cut', 'crashed', 'compile', '*', v1(logged('', [
    ('vllm/v1/worker/gpu_model_runner.py', 'profile_run', 'hidden_states, last_hidden_states = self._dummy_run('),
    ('torch/_dynamo/eval_frame.py', '_fn', 'return fn(*args, **kwargs)'),
    ('vllm/compilation/backends.py', '__call__', 'PiecewiseCompileInterpreter(self.split_gm, submod_names_to_compile,'),
    ('vllm/compilation/backends.py', 'call_module', 'self.vllm_backend.compiler_manager.compile('),
    ('vllm/compilation/compiler_interface.py', 'compile', 'compiled_graph = compile_fx('),
    ('torch/_inductor/compile_fx.py', 'compile_fx', 'return aot_autograd('),
    ('torch/_inductor/compile_fx.py', 'fx_codegen_and_compile', 'compiled_fn = graph.compile_to_module().call')],
    'torch._inductor.exc.InductorError: SubprocException: An exception occurred in a subprocess:'), CORE).split('\n', 1)[1] + '\n')
# The model's construction (layers allocating their parameters) is weight loading, in any release.
case('vp_model_init_frames_cut', 'crashed', 'weight_load', 'gpu_oom', '\n'.join(frames([
    ('vllm/model_executor/models/qwen2.py', '__init__', 'self.model = Qwen2Model(vllm_config=vllm_config,'),
    ('vllm/model_executor/models/utils.py', 'make_layers', '[PPMissingLayer() for _ in range(start_layer)] + ['),
    ('vllm/model_executor/layers/linear.py', '__init__', 'self.quant_method.create_weights('),
    ('vllm/model_executor/layers/linear.py', 'create_weights', 'weight = Parameter(torch.empty(sum(output_partition_sizes),'),
    ('torch/utils/_device.py', '__torch_function__', 'return func(*args, **kwargs)')],
    'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.16 GiB. GPU 0 has a total capacity of 23.53 GiB of which 738.94 MiB is free.')) + '\n')
# The chat template is read by the API server's own set-up (init_app_state): http_start.
case('vp_chat_template_cut', 'crashed', 'http_start', '*', v1([('ERROR', 'api_server.py:1', l) for l in frames([
    ('vllm/entrypoints/chat_utils.py', 'load_chat_template', 'return _load_chat_template(chat_template, is_literal=is_literal)')],
    "ValueError: The supplied chat template (/models/template.jinja) looks like a file path, but it failed to be opened. Reason: [Errno 2] No such file or directory: '/models/template.jinja'")[1:]], API) + '\n')

# After the weights, vLLM (V0 and V1) runs the profile run that sizes the KV cache; torch.compile,
# when it runs, runs inside it and logs its own begin. A hang or a frame-less crash right after the
# load line is in the profile run (kv_cache, "first_forward"), not in compile.
case('vp_v0_load_end_then_hang', 'stalled', 'kv_cache', '*', v0(V0HEAD + [('INFO', 'model_runner.py:1056', 'Starting to load model Qwen/Qwen2.5-7B-Instruct...'),
    ('INFO', 'model_runner.py:1067', 'Loading model weights took 14.99 GB')]) + '\n' +
    '\n'.join(f'DEBUG 08-20 10:{m:02d}:00 client.py:165] Waiting for output from MQLLMEngine.' for m in range(2, 14)) + '\n')
case('vp_v1_load_end_crash_no_frames', 'crashed', 'kv_cache', '*', v1(V1CORE + [('INFO', 'gpu_model_runner.py:2602', 'Starting to load model Qwen/Qwen3-8B...'),
    ('INFO', 'gpu_model_runner.py:2653', 'Model loading took 15.27 GiB and 3.92 seconds'),
    ('ERROR', 'core.py:700', 'EngineCore failed to start.'),
    ('ERROR', 'core.py:700', 'RuntimeError: CUDA error: out of memory')], CORE) + '\n' + CORE_FAILED + '\n')
# An excerpt that begins inside torch.compile (its begin line cut): Dynamo's own line still says so.
case('vp_v1_dynamo_line_then_crash', 'crashed', 'compile', '*', v1([('INFO', 'gpu_model_runner.py:2653', 'Model loading took 15.27 GiB and 3.92 seconds'),
    ('INFO', 'backends.py:559', 'Dynamo bytecode transform time: 4.10 s'),
    ('ERROR', 'core.py:700', 'EngineCore failed to start.'),
    ('ERROR', 'core.py:700', "RuntimeError: Triton Error [CUDA]: device kernel image is invalid")], CORE) + '\n')

# vLLM (and SGLang) fetch missing weights inside the model loader: a Hub failure there is weight
# loading, one while reading the config at start is launch (no phase of its own: labels have none).
case('vp_load_snapshot_download_cut', 'crashed', 'weight_load', 'hf_download', v1(logged('', [
    ('vllm/model_executor/model_loader/default_loader.py', 'load_weights', 'self.get_all_weights(model_config, model))'),
    ('vllm/model_executor/model_loader/default_loader.py', '_prepare_weights', 'hf_folder = download_weights_from_hf('),
    ('vllm/model_executor/model_loader/weight_utils.py', 'download_weights_from_hf', 'hf_folder = snapshot_download('),
    ('huggingface_hub/_snapshot_download.py', 'snapshot_download', 'thread_map('),
    ('huggingface_hub/file_download.py', 'hf_hub_download', 'return _hf_hub_download_to_cache_dir('),
    ('huggingface_hub/file_download.py', '_download_to_tmp_and_move', 'http_get(')],
    'requests.exceptions.ReadTimeout: (ReadTimeoutError("HTTPSConnectionPool(host=\'cdn-lfs.hf.co\', port=443): Read timed out. (read timeout=10)"), \'(Request ID: 1f2e)\')'),
    CORE) + '\n')

# Tensor-parallel workers move in step: a worker whose own phase lines were cut from the excerpt
# failed where its traceback's frames say, else in the phase a peer finishes after its failure
# (rank 0 ends loading after rank 1 died loading); not where rank 0 got to afterwards.
W1 = 'VllmWorker rank=1 pid=31'
case('vp_tp_rank_fail_frames_cut', 'crashed', 'weight_load', 'gpu_oom', vt([(W1, 'ERROR', 'multiproc_executor.py:527', l) for (_, _, l) in logged('WorkerProc failed to start.', [
    ('vllm/v1/executor/multiproc_executor.py', 'worker_main', 'worker = WorkerProc(*args, **kwargs)'),
    ('vllm/v1/executor/multiproc_executor.py', '__init__', 'self.worker.load_model()'),
    ('vllm/v1/worker/gpu_worker.py', 'load_model', 'self.model_runner.load_model(eep_scale_up=eep_scale_up)'),
    ('vllm/v1/worker/gpu_model_runner.py', 'load_model', 'self.model = model_loader.load_model('),
    ('torch/nn/modules/module.py', 'to', 'return self._apply(convert)')],
    'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.00 GiB. GPU 1 has a total capacity of 23.53 GiB of which 512.00 MiB is free.')] + [
    ('VllmWorker rank=0 pid=30', 'INFO', 'gpu_model_runner.py:2007', 'Model loading took 15.27 GiB and 21.02 seconds'),
    ('VllmWorker rank=0 pid=30', 'INFO', 'backends.py:548', "Using cache directory: /root/.cache/vllm/torch_compile_cache/abc/rank_0_0/backbone for vLLM's torch.compile"),
    ('EngineCore_0 pid=20', 'ERROR', 'core.py:700', 'EngineCore failed to start.')]) + '\n')
case('vp_tp_rank_fail_peer_ends', 'crashed', 'weight_load', '*', vt([
    (W1, 'ERROR', 'multiproc_executor.py:527', 'WorkerProc failed to start.'),
    (W1, 'ERROR', 'multiproc_executor.py:527', 'Traceback (most recent call last):'),
    (W1, 'ERROR', 'multiproc_executor.py:527', 'RuntimeError: CUDA error: an illegal memory access was encountered'),
    ('VllmWorker rank=0 pid=30', 'INFO', 'default_loader.py:262', 'Loading weights took 20.10 seconds'),
    ('VllmWorker rank=0 pid=30', 'INFO', 'gpu_model_runner.py:2007', 'Model loading took 15.27 GiB and 21.02 seconds'),
    ('EngineCore_0 pid=20', 'ERROR', 'core.py:700', 'EngineCore failed to start.')]) + '\n')

# Excerpts that keep only the deepest frames: vLLM's weight loaders and the V0 cache engine's
# allocation still say where they are.
case('vp_weight_loader_frames_cut', 'crashed', 'weight_load', '*', '\n'.join(frames([
    ('vllm/model_executor/models/utils.py', '_load_module', 'loaded_params = module_load_weights(weights)'),
    ('vllm/model_executor/layers/linear.py', 'weight_loader', 'assert param_data.shape == loaded_weight.shape')],
    'AssertionError')) + '\n')
case('vp_v0_cache_engine_alloc_cut', 'crashed', 'kv_cache', '*', '\n'.join(frames([
    ('vllm/worker/cache_engine.py', '__init__', 'self.gpu_cache = self._allocate_kv_cache(self.num_gpu_blocks, "cuda")'),
    ('vllm/worker/cache_engine.py', '_allocate_kv_cache', 'torch.zeros(kv_cache_shape,')],
    'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 GiB. GPU 0 has a total capacity of 79.15 GiB of which 12.31 GiB is free.')) + '\n')

# A TP=2 start that hangs in distributed init, pasted without the (DEBUG) world_size line: torch's
# Gloo groups and the custom all-reduce are built there, and the engine core's shm wait follows.
case('vp_tp2_dist_hang_gloo', 'stalled', 'distributed_init', '*', vt([
    ('VllmWorker rank=0 pid=30', 'INFO', 'parallel_state.py:1000', '[Gloo] Rank 0 is connected to 1 peer ranks. Expected number of connected peer ranks is : 1'),
    ('VllmWorker rank=1 pid=31', 'INFO', 'parallel_state.py:1000', '[Gloo] Rank 1 is connected to 1 peer ranks. Expected number of connected peer ranks is : 1'),
    ('VllmWorker rank=0 pid=30', 'INFO', 'custom_all_reduce.py:137', "Custom allreduce is disabled because it's not supported on more than two PCIe-only GPUs. To silence this warning, specify disable_custom_all_reduce=True explicitly.")]) + '\n' +
    '\n'.join(f'(EngineCore_DP0 pid=20) INFO 08-20 10:{m:02d}:00 [shm_broadcast.py:466] No available shared memory broadcast block found in 60 seconds. This typically happens when some processes are hanging.' for m in range(2, 14)) + '\n')

# Data parallel (V1): each engine core prints the engine banner; one start. DP1 fails its profile run.
DP0, DP1 = '(EngineCore_DP0 pid=20) ', '(EngineCore_DP1 pid=21) '
case('vp_dp2_engine_fails_profile', 'crashed', 'kv_cache', '*', v1(V1API[:1], API) + '\n' +
    v1(V1CORE[1:] + [('INFO', 'parallel_state.py:1208', 'rank 0 in world size 2 is assigned as DP rank 0, PP rank 0, TP rank 0, EP rank 0'),
                     ('INFO', 'gpu_model_runner.py:2602', 'Starting to load model Qwen/Qwen3-8B...')], DP0) + '\n' +
    v1(V1CORE[1:] + [('INFO', 'parallel_state.py:1208', 'rank 1 in world size 2 is assigned as DP rank 1, PP rank 0, TP rank 0, EP rank 0'),
                     ('INFO', 'gpu_model_runner.py:2602', 'Starting to load model Qwen/Qwen3-8B...'),
                     ('INFO', 'gpu_model_runner.py:2653', 'Model loading took 15.27 GiB and 3.92 seconds')] +
       logged('EngineCore failed to start.', F_CORE_KV + [
           ('vllm/v1/worker/gpu_worker.py', 'determine_available_memory', 'self.model_runner.profile_run()'),
           ('vllm/v1/worker/gpu_model_runner.py', 'profile_run', 'hidden_states, last_hidden_states = self._dummy_run(')],
           'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.'), DP1) + '\n' +
    v1([('ERROR', 'api_server.py:1', "RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {'EngineCore_DP1': 1}")], API) + '\n')
# First named cause of vLLM and TGI start failures (a file of its own, so other blocks merge cleanly)
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'causes_cases.py')).read())

# kubectl describe alone: the pod's record is the whole log (no engine line), a loop of SIGKILLed starts
case('x_k8s_describe_alone', 'crash_loop', 'launch', 'host_oom', """$ kubectl describe pod vllm-0
    State:          Waiting
      Reason:       CrashLoopBackOff
    Last State:     Terminated
      Reason:       Error
      Exit Code:    137
    Ready:          False
    Restart Count:  5
""")

# ---- lead, session 7: the terminal's ^C echo behind a wrapper (compose prefix, markdown quote)
case('x_ctrl_c_behind_compose', 'ready', 'ready', None, '\n'.join('vllm-1  | ' + l for l in CTRL_C_AFTER_READY.split('\n')))
case('x_ctrl_c_behind_quote', 'ready', 'ready', None, '\n'.join('> ' + l for l in CTRL_C_AFTER_READY.split('\n')))
# A loop seen between two turns (systemd has scheduled the next start, which has printed nothing):
# it is stuck where its attempts die, not in the new attempt's launch.
case('x_loop_between_turns_phase', 'crash_loop', 'kv_cache', 'kv_memory', '''Nov 30 10:00:01 gpu1 python[2957]: INFO 11-30 10:00:01 [api_server.py:1896] vLLM API server version 0.11.0
Nov 30 10:00:05 gpu1 python[2957]: INFO 11-30 10:00:05 [model.py:547] Resolved architecture: Qwen3ForCausalLM
Nov 30 10:00:09 gpu1 python[2957]: ValueError: The model's max seq len (131072) is larger than the maximum number of tokens that can be stored in KV cache (43008). Try increasing `gpu_memory_utilization` or decreasing `max_model_len` when initializing the engine.
Nov 30 10:00:10 gpu1 systemd[1]: vllm.service: Main process exited, code=exited, status=1/FAILURE
Nov 30 10:00:10 gpu1 systemd[1]: vllm.service: Failed with result 'exit-code'.
Nov 30 10:00:20 gpu1 systemd[1]: vllm.service: Scheduled restart job, restart counter is at 7.
''')
# TGI: a line logged inside one of the router's request handlers ("embed{...}:", "generate{...}:")
# is a client's request reaching the server, whatever it says: a ready start stays ready.
case('x_tgi_request_span_error', 'ready', 'ready', None, '''2024-06-01T10:00:00.000000Z  INFO text_generation_launcher: Args { model_id: "BAAI/bge-m3", num_shard: Some(1) }
2024-06-01T10:00:05.100000Z  INFO shard-manager: text_generation_launcher: Starting shard rank=0
2024-06-01T10:00:35.000000Z  INFO shard-manager: text_generation_launcher: Shard ready in 29.9s rank=0
2024-06-01T10:00:35.100000Z  INFO text_generation_launcher: Starting Webserver
2024-06-01T10:00:45.300000Z  INFO text_generation_router::server: router/src/server.rs:2235: Connected
2024-06-01T10:01:10.000000Z ERROR embed{total_time="3ms" tokenization_time="1ms"}: text_generation_router::server: router/src/server.rs:1450: Backend returned an unexpected shape for batch 3
''')
# TGI, TensorRT-LLM/Triton and SGLang verdicts; crash loops and ready (a file of its own)
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'others_cases.py')).read())
# vLLM verdicts, vgen round (a file of its own, so other blocks merge cleanly)
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'vgen_cases.py')).read())
# First named cause when several causes' evidence is present (a file of its own)
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'causes3_cases.py')).read())
# A container that restarts its server again and again, each start killed silently while loading
# (no error printed, e.g. a kernel OOM kill whose record is elsewhere): two silent ends make a loop;
# one is only a restart.
def _silent(m):
    return f'''INFO 11-30 10:{m:02d}:01 [api_server.py:1896] vLLM API server version 0.11.0
INFO 11-30 10:{m:02d}:05 [model.py:547] Resolved architecture: Qwen3ForCausalLM
(EngineCore_DP0 pid=20) INFO 11-30 10:{m:02d}:08 [core.py:77] Initializing a V1 LLM engine (v0.11.0) with config: model='Qwen/Qwen3-32B'
(EngineCore_DP0 pid=20) INFO 11-30 10:{m:02d}:12 [gpu_model_runner.py:2602] Starting to load model Qwen/Qwen3-32B...
'''
# (The paste ends as the next start begins: live, a loop is judged between its turns.)
case('x_silent_restart_loop', 'crash_loop', 'weight_load', '*', _silent(0) + _silent(2) + _silent(4) + _silent(6).split('\n')[0])
case('x_silent_restart_once', 'in_progress', 'weight_load', '*', _silent(0) + _silent(2))

# ---- lead, session 8: old SGLang (0.1-0.3) serves, and warms up, in ModelRpcServer/ModelTpServer's
# step (exposed_step -> forward_step -> forward_*_batch): a traceback through them with no ready
# line is a crash of the warm-up request, even when the excerpt has nothing else.
case('x_sg_old_step_frames_only', 'crashed', 'warmup', 'gpu_oom', """Exception in ModelRpcClient:
Traceback (most recent call last):
  File "/opt/conda/lib/python3.10/site-packages/sglang/srt/managers/router/model_rpc.py", line 184, in exposed_step
    self.forward_step()
  File "/opt/conda/lib/python3.10/site-packages/torch/utils/_contextlib.py", line 115, in decorate_context
    return func(*args, **kwargs)
  File "/opt/conda/lib/python3.10/site-packages/sglang/srt/managers/router/model_rpc.py", line 211, in forward_step
    self.forward_decode_batch(self.running_batch)
  File "/opt/conda/lib/python3.10/site-packages/sglang/srt/managers/router/model_rpc.py", line 505, in forward_decode_batch
    ) = self.model_runner.forward(batch, ForwardMode.DECODE)
torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.95 GiB. GPU 0 has a total capacty of 23.65 GiB of which 1.12 GiB is free.
""")

# SGLang checks that every rank sees about the same free memory at the end of distributed init
# (init_torch_distributed): raised, the error names its phase, with or without the frames above it.
case('x_sg_unbalanced_tail', 'crashed', 'distributed_init', 'orphan_processes', """[2025-10-02 09:14:51 TP3] Scheduler hit an exception: Traceback (most recent call last):
[2025-10-02 09:14:51 TP3] RuntimeError: The memory capacity is unbalanced. Some GPUs may be occupied by other processes. pre_model_load_memory=61.3, local_gpu_memory=78.9, local_gpu_memory * 0.9=71.01
[2025-10-02 09:14:52] Received sigquit from a child process. It usually means the child failed.
""")
# Model construction in SGLang's models/ and its weight-holding layers (linear, quantization, MoE)
# is the model load, as it is in vLLM's model_executor.
case('x_sg_model_construct_frames', 'crashed', 'weight_load', '*', """[2025-10-02 09:20:03 TP0] Scheduler hit an exception: Traceback (most recent call last):
  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 2720, in run_scheduler_process
    scheduler = Scheduler(server_args, port_args, gpu_id, tp_rank, moe_ep_rank, pp_rank, dp_rank)
  File "/sgl-workspace/sglang/python/sglang/srt/models/qwen3_moe.py", line 612, in __init__
    self.model = Qwen3MoeModel(config, quant_config, prefix=add_prefix("model", prefix))
  File "/sgl-workspace/sglang/python/sglang/srt/layers/moe/fused_moe_triton/layer.py", line 211, in __init__
    self.quant_method.create_weights(
AssertionError: intermediate_size_per_partition 96 is not divisible by block size 128
""")

# The last lines of a traceback, pasted alone, through the libraries every engine loads weights
# with (safetensors, transformers' from_pretrained, accelerate, torch.load): the weights' load.
case('x_libs_safetensors_tail', 'crashed', 'weight_load', 'corrupt_safetensors', """  File "/usr/local/lib/python3.10/dist-packages/safetensors/torch.py", line 311, in load_file
    with safe_open(filename, framework="pt", device=device) as f:
safetensors_rust.SafetensorError: Error while deserializing header: MetadataIncompleteBuffer
""")
case('x_libs_from_pretrained_tail', 'crashed', 'weight_load', '*', """Traceback (most recent call last):
  File "/opt/conda/lib/python3.11/site-packages/transformers/modeling_utils.py", line 4706, in _load_pretrained_model
    state_dict = load_state_dict(shard_file, is_quantized=is_quantized)
  File "/opt/conda/lib/python3.11/site-packages/transformers/modeling_utils.py", line 555, in load_state_dict
    with safe_open(checkpoint_file, framework="pt") as f:
OSError: No such device (os error 19)
""")

# TensorRT-LLM's front end waits in GenerationExecutorProxy for its MPI workers; its traceback
# ("Executor worker returned error") is a relay: alone it says the workers had started (their
# init loads the model first), but it never hides where a worker's own traceback failed.
_TRT_RELAY = """Traceback (most recent call last):
  File "/usr/local/lib/python3.12/dist-packages/tensorrt_llm/llmapi/llm.py", line 1002, in _build_model
    self._executor = self._executor_cls.create(
  File "/usr/local/lib/python3.12/dist-packages/tensorrt_llm/executor/executor.py", line 489, in create
    return GenerationExecutorProxy(
  File "/usr/local/lib/python3.12/dist-packages/tensorrt_llm/executor/proxy.py", line 104, in __init__
    self._start_executor_workers(worker_kwargs)
  File "/usr/local/lib/python3.12/dist-packages/tensorrt_llm/executor/proxy.py", line 340, in _start_executor_workers
    raise ready_signal
RuntimeError: Executor worker returned error
"""
case('x_trt_relay_alone', 'crashed', 'weight_load', '*', _TRT_RELAY)
case('x_trt_relay_after_worker_kv', 'crashed', 'kv_cache', '*', """[11/02/2025-10:00:05] [TRT-LLM] [E] Failed to initialize executor on rank 0: CUDA out of memory
[11/02/2025-10:00:05] [TRT-LLM] [E] Traceback (most recent call last):
  File "/usr/local/lib/python3.12/dist-packages/tensorrt_llm/_torch/pyexecutor/py_executor_creator.py", line 481, in create_py_executor
    kv_cache_creator.build_managers(resources)
  File "/usr/local/lib/python3.12/dist-packages/tensorrt_llm/_torch/pyexecutor/_util.py", line 560, in build_managers
    kv_cache_manager = self._create_kv_cache_manager(model_engine)
torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 GiB. GPU 0 has a total capacity of 79.19 GiB of which 11.41 GiB is free.
""" + _TRT_RELAY)
# vLLM excerpts cut as users paste them, vtail round (a file of its own, so other blocks merge cleanly)
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'vtail_cases.py')).read())

# TGI and TensorRT-LLM first causes, tcause round (a file of its own, so other blocks merge cleanly)
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'tcause_cases.py')).read())
# vLLM first causes and crash phases, vcause round (a file of its own)
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'vcause_cases.py')).read())

exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'loops_cases.py')).read())

exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'vphase_cases.py')).read())
# TGI, TensorRT-LLM and SGLang outcome and phase, ready and crash loops, ophase round (a file of its own)
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'ophase_cases.py')).read())
# TGI and TensorRT-LLM: the phase a crash or hang is placed in, tphase round (a file of its own)
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'tphase_cases.py')).read())
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'vready_cases.py')).read())
# `docker logs -t` before an argument error: the runtime's Z time is a wrapper, and
# "vllm serve: error:" after it is the message (journalctl writes an offset, never Z).
case('lead_docker_t_argparse', 'crashed', 'launch', 'bad_command', '''2025-09-22T10:00:00.123456789Z INFO 09-22 10:00:00 [__init__.py:216] Automatically detected platform cuda.
2025-09-22T10:00:01.223456789Z usage: vllm serve [model_tag] [options]
2025-09-22T10:00:01.223556789Z vllm serve: error: argument --tensor-parallel-size/-tp: invalid int value: 'auto'
''')
# Crash phases of partial excerpts: fallback frames, vphase2 round (a file of its own)
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'vphase2_cases.py')).read())
# vLLM restarts pasted without times, offline outputs printed as objects (vloop2 round)
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'vloop2_cases.py')).read())
# Crash phases where the excerpt has phase lines (vphase3 round)
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'vphase3_cases.py')).read())
# HTML-escaped pastes (vpaste round, a file of its own)
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'vpaste_cases.py')).read())
# A client's traceback pasted below the server's log (foreign round, a file of its own)
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'foreign_cases.py')).read())
# TGI's and TensorRT-LLM's wording release by release (wording-audit round, a file of its own)
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'waudit_cases.py')).read())
# Pastes a terminal wrapped: earlier cases copied at a width (last: it copies them)
# vLLM 0.13+ banners and offline benchmark results (vnew round, a file of its own)
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'vnew_cases.py')).read())
# SGLang's 2026 wording (snew round, a file of its own)
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'snew_cases.py')).read())
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'ncclerr_cases.py')).read())
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'timecut_cases.py')).read())
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'passthru_cases.py')).read())
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'noise2_cases.py')).read())
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'multinode2_cases.py')).read())
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'rich_cases.py')).read())
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'causes4_cases.py')).read())
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'ready2_cases.py')).read())
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'twice_cases.py')).read())
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'redteam_cases.py')).read())
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'redteam2_cases.py')).read())
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'redteam3_cases.py')).read())
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'redteam4_cases.py')).read())
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'redteam5_cases.py')).read())
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'redteam6_cases.py')).read())
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'redteam7_cases.py')).read())
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'redteam9_cases.py')).read())
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'redteam10_cases.py')).read())
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'redteam11_cases.py')).read())
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'redteam12_cases.py')).read())
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'redteam13_cases.py')).read())
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'redteam14_cases.py')).read())
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'redteam16_cases.py')).read())
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'redteam18_cases.py')).read())
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'redteam21_cases.py')).read())
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'redteam23_cases.py')).read())
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'redteam25_cases.py')).read())
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'redteam26_cases.py')).read())
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'redteam29_cases.py')).read())
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'redteam32_cases.py')).read())
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'redteam34_cases.py')).read())
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'redteam38_cases.py')).read())
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'redteam42_cases.py')).read())
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'redteam45_cases.py')).read())
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'redteam50_cases.py')).read())
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'redteam54_cases.py')).read())
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'redteam59_cases.py')).read())
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'redteam64_cases.py')).read())
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'redteam71_cases.py')).read())
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'redteam76_cases.py')).read())
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'redteam82_cases.py')).read())
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'redteam86_cases.py')).read())
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'redteam111_cases.py')).read())
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'wrap_cases.py')).read())
out = os.path.dirname(os.path.abspath(__file__))
exp = {"about": "Synthetic startup logs written from the engines' sources and ../shared/docs (not from corpus logs), one per failure class of issue 10; tests/scenario_test.cc explains each and compares outcome, phase and first cause ('*' = any). Written by make_scenarios.py."}
for name, st, ph, ca, text in cases:
    with open(os.path.join(out, name + '.log'), 'w') as f:
        f.write(text)
    exp[name] = {"outcome": st, "phase": ph, "cause": ca}
with open(os.path.join(out, 'expect.json'), 'w') as f:
    json.dump(exp, f, indent=1, ensure_ascii=False)
print(len(cases), 'scenarios')
