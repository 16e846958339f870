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

case('v1_compile_crash', 'crashed', 'compile', None, vl(VHEAD+VLOAD+VCOMP[:2]+tb(
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
case('v1_worker_load_fail', 'crashed', 'weight_load', 'model_unsupported', vl(VHEAD+[('INFO','parallel_state.py:1134','rank 0 in world size 2 is assigned as DP rank 0, PP rank 0, TP rank 0, EP rank 0')]+VLOAD[:1]+
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
case('tgi_warmup_oom', 'crashed', 'warmup', '*', tg(THEAD+[('INFO','shard-manager: ','Shard ready in 20.1s rank=0'),('INFO','shard-manager: ','Shard ready in 20.3s rank=1'),
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
case('tgi_v2_warmup_prefill', 'crashed', 'warmup', 'gpu_oom', tg(TGI_UP+[('INFO','text_generation_router_v3: backends/v3/src/lib.rs:125: ','Warming up model'),
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
case('tgi_shard_crashed_warmup', 'crashed', 'warmup', 'illegal_memory_access', tg(TGI_UP+[('INFO','text_generation_router: router/src/main.rs:320: ','Warming up model'),
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
case('tgi_flash_pre_ampere', 'crashed', 'warmup', '*', tg(TGI_UP+[('INFO','text_generation_router: router/src/main.rs:320: ','Warming up model'),
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
# the autotuner's kernels do not support this GPU
case('trt_serve_autotune_unsupported', 'crashed', 'compile', 'model_unsupported', trt(TRT_SERVE_HEAD + TRT_SERVE_LOADED + TRT_SERVE_KV + [
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
# TGI's router warm-up, cut off while the shards capture CUDA graphs: still warming up (the shard's
# graph line does not move it anywhere else)
case('tgi_warmup_graphs', 'in_progress', 'warmup', '*', tg(TGI_UP+[('INFO','text_generation_router_v3: backends/v3/src/lib.rs:125: ','Warming up model')]) +
    '\n' + tg([('INFO','','KV-cache blocks: 120000, size: 1'),('INFO','','Cuda Graphs are enabled for sizes [32, 16, 8, 4, 2, 1]')], base=12))

# v0.9 sized the KV cache before the warm-up prefill: its message names both budgets
case('tgi_v09_warmup_total', 'crashed', 'warmup', 'kv_memory', tg([('INFO','','Args { model_id: "m", num_shard: Some(2), max_batch_total_tokens: Some(32000) }'),
    ('INFO','','Starting download process.'),('INFO','','Successfully downloaded weights.'),
    ('INFO','','Starting shard 0'),('INFO','','Starting shard 1'),('INFO','','Shard 0 ready in 30.2s'),('INFO','','Shard 1 ready in 30.4s'),
    ('INFO','','Starting Webserver'),('INFO','text_generation_router: router/src/main.rs:213: ','Warming up model'),
    ('ERROR','','Method Warmup encountered an error.')]) + '''
Traceback (most recent call last):
  File "/opt/conda/lib/python3.9/site-packages/text_generation_server/models/flash_causal_lm.py", line 730, in warmup
    raise RuntimeError(
RuntimeError: Not enough memory to handle 32000 total tokens with 4096 prefill tokens. You need to decrease `--max-batch-total-tokens` or `--max-batch-prefill-tokens`
''' + tg([('ERROR','','Webserver Crashed'),('INFO','','Shutting down shards')], base=40) + '\nError: WebserverFailed\n')

# an excerpt that starts at the shard's traceback: its frames and "ShardCannotStart" say the shard's
# start (torch.distributed is set up inside it); a second TGI on the host holds MASTER_PORT
case('tgi_excerpt_master_port', 'crashed', 'weight_load', 'port_in_use', '''Traceback (most recent call last):
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
VC3 = '\n'.join([VCRASH]*3)
case('docker_logs_three_banners', 'crash_loop', '*', '*', VC3)
SGC = sg(SHEAD) + '\n' + sg(SDIST+['Load weight begin. avail mem=78.00 GB', 'Scheduler hit an exception: Traceback (most recent call last):', "ValueError: bad config"], tp=0)
case('sg_three_banners', 'crash_loop', 'weight_load', '*', '\n'.join([SGC]*3))
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
case('c_undefined_symbol', 'crashed', '*', 'cuda_build_mismatch', vl(VHEAD[:2]) + '\n' + '''Traceback (most recent call last):
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
case('w_stern', 'stalled', 'cuda_graph', '*', wrap(lambda l: 'sglang-7d9f-abcde sglang ' + l))
case('w_stern_ts', 'stalled', 'cuda_graph', '*', wrap(lambda l: 'sglang-7d9f-abcde sglang 2025-09-22T10:00:00.123456789Z ' + l))
case('w_kubectl_prefix', 'stalled', 'cuda_graph', '*', wrap(lambda l: '[pod/sglang-7d9f-abcde/sglang] ' + l))
case('w_compose', 'stalled', 'cuda_graph', '*', wrap(lambda l: 'sglang-1  | ' + l))
case('w_docker_ts', 'stalled', 'cuda_graph', '*', wrap(lambda l: '2025-09-22T10:00:00.123456789Z ' + l))
case('w_k8s_json', 'stalled', 'cuda_graph', '*', wrap(lambda l: json.dumps({"log": l + "\n", "stream": "stderr", "time": "2025-09-22T10:00:00.1Z"})))
case('w_cri', 'stalled', 'cuda_graph', '*', wrap(lambda l: '2025-09-22T10:00:00.123456789+00:00 stderr F ' + l))
case('w_journal_cat', 'stalled', 'cuda_graph', '*', wrap(lambda l: l))
case('w_loki', 'stalled', 'cuda_graph', '*', wrap(lambda l: '2025-09-22T10:00:00Z {app="sglang", pod="sglang-0"} ' + l))
case('w_syslog', 'stalled', 'cuda_graph', '*', wrap(lambda l: 'Sep 22 10:00:00 gpu-node-1 sglang[4242]: ' + l))
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

out = os.path.dirname(os.path.abspath(__file__))
exp = {"about": "Synthetic startup logs written from the engines' sources and ../shared/docs (not from corpus logs), one per failure class of issue 10; tests/scenario_test.cc explains each and compares outcome, phase and first cause ('*' = any). Written by make_scenarios.py."}
for name, st, ph, ca, text in cases:
    with open(os.path.join(out, name + '.log'), 'w') as f:
        f.write(text)
    exp[name] = {"outcome": st, "phase": ph, "cause": ca}
with open(os.path.join(out, 'expect.json'), 'w') as f:
    json.dump(exp, f, indent=1, ensure_ascii=False)
print(len(cases), 'scenarios')
