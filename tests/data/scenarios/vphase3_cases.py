# Crash phases where the excerpt has phase lines, vphase3 round (issue 10): written from the
# engines' code paths (vLLM V1 EngineCore._initialize_kv_caches and kv_cache_utils, TensorRT-LLM's
# PyTorch backend: model loading's tqdm bars, KvCacheCreator's two sizing passes), never from
# corpus logs. exec'd by make_scenarios.py after its helpers (vl, VHEAD, VLOAD, VCOMP, VKV).
_P3_OOM = 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.19 GiB of which 1.06 GiB is free.'
_P3_T = lambda lv, m: f'[09/14/2025-10:00:00] [TRT-LLM] [{lv}] {m}'
_P3_TRT = ['[TensorRT-LLM] TensorRT-LLM version: 1.0.0rc4', _P3_T('I', 'Using LLM with PyTorch backend'),
           _P3_T('I', 'Prefetching 15.01GB checkpoint files.')]

# vLLM logs the KV cache's size ("Maximum concurrency ...") before it allocates it: a crash with no
# frame right after that line, before any line of the capture, is in kv_cache (the rule's "pin").
case('vp3_vllm_max_concurrency_bare_oom', 'crashed', 'kv_cache', '*', vl(VHEAD + VLOAD + VCOMP + VKV + [
    ('ERROR', 'core.py:700', 'EngineCore failed to start.'), ('ERROR', 'core.py:700', _P3_OOM)], '(EngineCore_DP0 pid=311) '))
# Once the capture's bar shows, the same crash is the capture's.
case('vp3_vllm_max_concurrency_then_bar', 'crashed', 'cuda_graph', '*', vl(VHEAD + VLOAD + VCOMP + VKV, '(EngineCore_DP0 pid=311) ') +
     '\nCapturing CUDA graphs (mixed prefill-decode, PIECEWISE):   0%|          | 0/67 [00:00<?, ?it/s]\n' +
     vl([('ERROR', 'core.py:700', 'EngineCore failed to start.'), ('ERROR', 'core.py:700', _P3_OOM)], '(EngineCore_DP0 pid=311) '))
# A tqdm bar whose glyphs the log's carrier dropped ("40% 18/45 [00:01<00:00, 35.06it/s]") is
# still the weight load's bar.
case('vp3_trt_weights_bar_without_glyphs', 'crashed', 'weight_load', '*', '\n'.join(
    ['[TensorRT-LLM][ERROR] CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED not supported on GPU0.',
     'Loading safetensors weights in parallel: 100% 6/6 [00:00<00:00, 105.78it/s]',
     'Loading weights concurrently:  40% 18/45 [00:01<00:00, 35.06it/s]',
     'RuntimeError: CUDA error: an illegal memory access was encountered']))
# A named bar with its reading cut off still says which phase runs.
case('vp3_trt_weights_bar_cut', 'crashed', 'weight_load', '*', '\n'.join(_P3_TRT[:2] + [
     'Loading weights concurrently:  40%',
     _P3_T('E', 'Failed to initialize executor on rank 0: CUDA out of memory. Tried to allocate 448.00 MiB.'), _P3_OOM]))
# The PyTorch backend sizes the KV cache twice: after the first pass's warm-up (autotuner, CUDA
# graphs) the estimate begins kv_cache again, where the final pool is allocated.
case('vp3_trt_second_kv_sizing', 'crashed', 'kv_cache', '*', '\n'.join(_P3_TRT + [
     'Loading weights concurrently: 100%|██████████| 617/617 [00:02<00:00, 243.37it/s]',
     _P3_T('I', 'Model init total -- 4.40s'),
     _P3_T('I', 'Memory used after loading model weights (inside torch) in memory usage profiling: 14.95 GiB'),
     _P3_T('I', 'Creating CUDA graph instances for 12 batch sizes.'),
     _P3_T('I', 'Run generation only CUDA graph warmup for batch size=1, draft_len=0'),
     _P3_T('I', 'Peak memory during memory usage profiling (torch + non-torch): 30.12 GiB, available KV cache memory when calculating max tokens: 44.20 GiB, fraction is set 0.9, kv size is 131072. device total memory 79.11 GiB, , tmp kv_mem 0.50 GiB'),
     _P3_T('I', 'Estimated max memory in KV cache : 44.20 GiB'),
     _P3_T('E', 'Failed to initialize executor on rank 0: CUDA out of memory. Tried to allocate 44.20 GiB.'), _P3_OOM]))
# ... and its second warm-up is the graphs again.
case('vp3_trt_second_pass_graphs', 'crashed', 'cuda_graph', '*', '\n'.join(_P3_TRT + [
     _P3_T('I', 'Model init total -- 4.40s'),
     _P3_T('I', 'Creating CUDA graph instances for 12 batch sizes.'),
     _P3_T('I', 'Estimated max memory in KV cache : 44.20 GiB'),
     _P3_T('I', 'Creating CUDA graph instances for 12 batch sizes.'),
     _P3_T('I', 'Run generation only CUDA graph warmup for batch size=64, draft_len=0'),
     _P3_T('E', 'Failed to initialize executor on rank 0: CUDA error: an illegal memory access was encountered'),
     'RuntimeError: CUDA error: an illegal memory access was encountered']))
