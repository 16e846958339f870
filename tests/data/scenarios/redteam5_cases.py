# Red-team round (twenty-fifth): fresh logs written from the engines' sources; each class found.

# A report's writer quotes the error above the log that printed it ("Error I get:", then the
# traceback or its last line, then "Full log:"): one start that crashed, not a crash loop of two.
RT5_ENTRY_TRACEBACK = '''Traceback (most recent call last):
  File "/usr/local/bin/vllm", line 8, in <module>
    sys.exit(main())
  File "/usr/local/lib/python3.12/dist-packages/vllm/v1/engine/core_client.py", line 380, in _wait_for_engine_startup
    raise RuntimeError("Engine core initialization failed. "
RuntimeError: Engine core initialization failed. See root cause above.
'''
RT5_V1_KV_LOG = '''INFO 03-11 14:20:41 [__init__.py:239] Automatically detected platform cuda.
INFO 03-11 14:20:45 [api_server.py:1043] vLLM API server version 0.8.4
INFO 03-11 14:20:58 [core.py:58] Initializing a V1 LLM engine (v0.8.4) with config: model='mistralai/Mistral-7B-Instruct-v0.3', max_seq_len=131072, tensor_parallel_size=1
INFO 03-11 14:21:02 [gpu_model_runner.py:1276] Starting to load model mistralai/Mistral-7B-Instruct-v0.3...
INFO 03-11 14:21:09 [gpu_model_runner.py:1291] Model loading took 13.5083 GiB and 6.102 seconds
INFO 03-11 14:21:31 [kv_cache_utils.py:634] GPU KV cache size: 41,616 tokens
ERROR 03-11 14:21:31 [core.py:390] EngineCore hit an exception: Traceback (most recent call last):
ERROR 03-11 14:21:31 [core.py:390]   File "/usr/local/lib/python3.12/dist-packages/vllm/v1/core/kv_cache_utils.py", line 578, in check_enough_kv_cache_memory
ERROR 03-11 14:21:31 [core.py:390]     raise ValueError(
ERROR 03-11 14:21:31 [core.py:390] ValueError: To serve at least one request with the models's max seq len (131072), (16.00 GiB KV cache is needed, which is larger than the available KV cache memory (5.08 GiB). Based on the available memory,  Try increasing `gpu_memory_utilization` or decreasing `max_model_len` when initializing the engine.
''' + RT5_ENTRY_TRACEBACK
case('rt5_traceback_quoted_above_the_log', 'crashed', 'kv_cache', 'kv_memory', '''The error I get when I start the server:

''' + RT5_ENTRY_TRACEBACK + '''
Full log:

''' + RT5_V1_KV_LOG)
# "Error I get:": a short label with a first-person "I" is a person's line too.
case('rt5_last_line_quoted_under_a_short_label', 'crashed', 'kv_cache', 'kv_memory', '''Error I get:
ValueError: To serve at least one request with the models's max seq len (131072), (16.00 GiB KV cache is needed, which is larger than the available KV cache memory (5.08 GiB).

Logs:
''' + RT5_V1_KV_LOG)
# Guard: a restart's tail cut from the top of a log, with no person's line, is an earlier start.
case('rt5_cut_tail_then_restart_is_a_loop', 'crash_loop', 'kv_cache', 'kv_memory', '''  File "/usr/local/lib/python3.12/dist-packages/vllm/v1/engine/core_client.py", line 380, in _wait_for_engine_startup
    raise RuntimeError("Engine core initialization failed. "
RuntimeError: Engine core initialization failed. See root cause above.
''' + RT5_V1_KV_LOG)

# Ctrl+C's "^C" echo and "KeyboardInterrupt" carry no time: the teardown's first stamped line says
# when the stop came. Stopped after half an hour without progress: stalled, the stop as evidence.
RT5_DIST_HANG = '''INFO 07-02 08:00:03 [api_server.py:1043] vLLM API server version 0.8.5
INFO 07-02 08:00:15 [core.py:58] Initializing a V1 LLM engine (v0.8.5) with config: model='Qwen/Qwen2.5-72B-Instruct', tensor_parallel_size=4
(VllmWorker rank=0 pid=301) INFO 07-02 08:00:24 [utils.py:1055] Found nccl from library libnccl.so.2
(VllmWorker rank=0 pid=301) INFO 07-02 08:00:24 [pynccl.py:69] vLLM is using nccl==2.21.5
(VllmWorker rank=1 pid=302) INFO 07-02 08:00:24 [pynccl.py:69] vLLM is using nccl==2.21.5
^C
(VllmWorker rank=0 pid=301) INFO {when} [multiproc_executor.py:374] Parent process exited, terminating worker
(VllmWorker rank=1 pid=302) INFO {when} [multiproc_executor.py:374] Parent process exited, terminating worker
Traceback (most recent call last):
  File "/usr/local/lib/python3.12/dist-packages/vllm/v1/utils.py", line 465, in wait_for_engine_startup
    events = poller.poll(STARTUP_POLL_PERIOD_MS)
KeyboardInterrupt
'''
case('rt5_ctrl_c_after_half_an_hour_is_a_stall', 'stalled', 'distributed_init', '*',
     RT5_DIST_HANG.replace('{when}', '07-02 08:31:40'))
# Guard: the teardown seconds after the last line: a stop, not a stall.
case('rt5_ctrl_c_right_away_is_a_stop', 'stopped', 'distributed_init', None,
     RT5_DIST_HANG.replace('{when}', '07-02 08:00:31'))

# The quote set apart by markdown instead of a sentence: an exception in inline code is a
# person's line ("Error: `RuntimeError: ...`"), and a fence between the quoted error and the log's
# banner closes the quote (or opens the log).
case('rt5_error_in_inline_code_above_the_log', 'crashed', 'kv_cache', 'kv_memory',
     'Error: `RuntimeError: Engine core initialization failed. See root cause above.`\n\n' + RT5_V1_KV_LOG)
case('rt5_error_fenced_above_the_fenced_log', 'crashed', 'kv_cache', 'kv_memory', '''Mistral-7B with the default max_model_len fails on a 24 GB card.

root cause:
```
RuntimeError: Engine core initialization failed. See root cause above.
```

log:
```text
''' + RT5_V1_KV_LOG + '```\n')

# SGLang's whole server_args line runs to thousands of bytes, its node_rank far in: a banner is
# read whole, so a worker node's start is still done at its scheduler's ready line.
RT5_LONG_ARGS = ', '.join(f"{k}=None" for k in (
    'tokenizer_path', 'revision', 'quantization', 'quantization_param_path', 'context_length',
    'served_model_name', 'chat_template', 'completion_template', 'max_running_requests',
    'max_total_tokens', 'max_prefill_tokens', 'schedule_policy', 'schedule_conservativeness',
    'cpu_offload_gb', 'prefill_only_one_req', 'stream_interval', 'random_seed', 'constrained_json_whitespace_pattern',
    'watchdog_timeout', 'download_dir', 'base_gpu_id', 'log_level', 'log_level_http', 'log_requests',
    'show_time_cost', 'enable_metrics', 'decode_log_interval', 'api_key', 'file_storage_pth',
    'enable_cache_report', 'dp_size', 'load_balance_method', 'ep_size', 'lora_paths')) + ', '
case('rt5_sglang_node_rank_far_into_a_long_banner', 'ready', 'ready', '*',
     RT4_NODE1.replace("tp_size=16, ", "tp_size=16, " + RT5_LONG_ARGS, 1))
