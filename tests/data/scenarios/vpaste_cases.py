# Pasted twice and HTML-escaped, vpaste round (issue 10): what bench/paste-robustness does to a log
# that a human still reads as the original. Written from how GitHub comments and chat mangle text,
# never from corpus logs. exec'd by make_scenarios.py (uses vl, tb, VHEAD, VLOAD, VCOMP, VKV).

# The whole paste twice (copied twice into the comment box): the second copy's lines carry the
# first copy's times, so its banner is stamped before lines already read: the same start, once.
_VP_CRASH = vl(VHEAD + VLOAD[:1] + tb(
    [('vllm/v1/worker/gpu_model_runner.py', 'load_model'), ('torch/utils/_device.py', '__torch_function__')],
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.16 GiB. GPU 0 has a total capacity of 23.53 GiB of which 738.94 MiB is free."))
case('vpaste_crash_pasted_twice', 'crashed', 'weight_load', 'gpu_oom', _VP_CRASH + '\n' + _VP_CRASH)
_VP_READY = vl(VHEAD + VLOAD + VCOMP + VKV + [
    ('INFO', 'core.py:210', 'init engine (profile, create kv cache, warmup model) took 44.51 seconds'),
    ('INFO', 'api_server.py:1', 'Starting vLLM API server 0 on http://0.0.0.0:8000')]) + \
    '\nINFO:     Started server process [1]\nINFO:     Waiting for application startup.\nINFO:     Application startup complete.'
case('vpaste_ready_pasted_twice', 'ready', 'ready', None, _VP_READY + '\n' + _VP_READY)

# A paste copied out of a page's source or an HTML e-mail: its entities left in (a traceback's
# quotes, "<module>", a "->" in a message). The same log read as its text.
import html as _vp_html
_VP_BY_NAME = {c[0]: c for c in cases}
for _n in ('v1_not_installed', 'v1_rpc_graph'):
    _c = _VP_BY_NAME[_n]
    case('vpaste_html_' + _n, _c[1], _c[2], _c[3], _vp_html.escape(_c[4], quote=True))

# Every line printed twice (two handlers on one logger, or stdout and a tee'd copy both
# captured): a banner right behind its copy is one start. Here an excerpt that ends in a crash,
# then the run's beginning (the container's banner, the server's arguments) pasted after it; once
# as it is, once doubled. (The arguments line names the nodes: that fact, read first, places the
# container's banner before the excerpt, and the server's own banner must join it.)
_VP_EXCERPT = '''[2025-03-02 09:14:31 TP1] Init torch distributed begin.
[2025-03-02 09:14:31 TP0] Init torch distributed begin.
[2025-03-02 09:14:37 TP1] Scheduler hit an exception: Traceback (most recent call last):
  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 1773, in run_scheduler_process
    scheduler = Scheduler(server_args, port_args, gpu_id, tp_rank, dp_rank)
  File "/sgl-workspace/sglang/python/sglang/srt/model_executor/model_runner.py", line 180, in init_torch_distributed
    torch.distributed.init_process_group(
torch.distributed.DistNetworkError: The client socket has timed out after 600000ms while trying to connect to (10.0.0.2, 5000).

==========
== CUDA ==
==========

CUDA Version 12.4.1

[2025-03-02 09:14:18] server_args=ServerArgs(model_path='deepseek-ai/DeepSeek-V3', tp_size=16, nnodes=2, dist_init_addr='10.0.0.2:5000')'''
case('vpaste_excerpt_then_beginning', 'crashed', 'distributed_init', '*', _VP_EXCERPT)
case('vpaste_excerpt_then_beginning_lines_twice', 'crashed', 'distributed_init', '*',
     '\n'.join(x for l in _VP_EXCERPT.split('\n') for x in (l, l)))

# An excerpt that starts at SGLang's warm-up request ("GET /get_model_info", which only SGLang
# serves), then the warm-up's own failure: the engine is named by that line, and the request is
# the warm-up's, not a client's (vLLM reads any access-log line as a served request).
_VP_WARM = _VP_BY_NAME['o_sg_old_gpu_prefix_warmup_exception'][4]
case('vpaste_cut_at_warmup_request', 'crashed', 'warmup', '*',
     _VP_WARM[_VP_WARM.index('INFO:     127.0.0.1'):])

# A command-line mistake: SGLang's argparse usage and error (its module's file is the program
# name), the vLLM import's line before them; and TGI's (clap's) trailer alone, its error line cut.
case('vpaste_sg_argparse_unrecognized', 'crashed', 'launch', 'bad_command', '''INFO 03-06 10:05:08 __init__.py:190] Automatically detected platform cuda.
usage: launch_server.py [-h] --model-path MODEL_PATH [--tokenizer-path TOKENIZER_PATH] [--host HOST] [--port PORT]
                        [--load-format {auto,pt,safetensors,npcache,dummy,gguf,bitsandbytes,layered}] [--trust-remote-code]
launch_server.py: error: unrecognized arguments: --mamba-scheduler-strategy extra_buffer''')
case('vpaste_tgi_clap_trailer_only', 'crashed', 'launch', 'bad_command', '''  tip: a similar argument exists: '--num-shard'

Usage: text-generation-launcher --num-shard <NUM_SHARD>

For more information, try '--help'.''')
# Old SGLang: its vLLM import's lines (vLLM's format) come first, then its own; a crash while
# capturing CUDA graphs is SGLang's, in SGLang's phase order.
case('vpaste_sg_vllm_import_lines_first', 'crashed', 'cuda_graph', '*', '''INFO 03-06 10:05:08 __init__.py:190] Automatically detected platform cuda.
[2025-03-06 10:05:10] server_args=ServerArgs(model_path='Qwen/Qwen2.5-7B-Instruct', tp_size=1)
[2025-03-06 10:05:14 TP0] Init torch distributed begin.
[2025-03-06 10:05:15 TP0] Init torch distributed end. mem usage=0.00 GB
[2025-03-06 10:05:15 TP0] Load weight begin. avail mem=78.50 GB
[2025-03-06 10:05:31 TP0] Load weight end. type=Qwen2ForCausalLM, dtype=torch.bfloat16, avail mem=64.10 GB, mem usage=14.40 GB.
[2025-03-06 10:05:31 TP0] Memory pool end. avail mem=8.10 GB
[2025-03-06 10:05:32 TP0] Capture cuda graph begin. This can take up to several minutes. avail mem=7.90 GB
[2025-03-06 10:05:40 TP0] Scheduler hit an exception: Traceback (most recent call last):
  File "/sgl-workspace/sglang/python/sglang/srt/model_executor/cuda_graph_runner.py", line 300, in capture
    graph, output_buffers = self.capture_one_batch_size(bs, forward)
RuntimeError: CUDA error: an illegal memory access was encountered''')
