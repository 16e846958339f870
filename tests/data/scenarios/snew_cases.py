# SGLang's wording in 2026 (issue 10, snew round), checked in SGLang's sources against the rules:
# batch lines with a comma ("Prefill batch, #new-seq"), the launcher's relay once a scheduler died
# ("Initialization failed. Please see the error messages above."), a vision model's warm-up request
# posted to /v1/chat/completions, a data-parallel controller's exit status. exec'd by
# make_scenarios.py (uses sg).
_SN_UP = sg(["server_args=ServerArgs(model_path='Qwen/Qwen2.5-VL-7B-Instruct', tp_size=1)"]) + '\n' + sg(
    ['Load weight begin. avail mem=78.00 GB',
     'Load weight end. elapsed=35.00 s, type=Qwen2_5_VLForConditionalGeneration, dtype=torch.bfloat16, avail mem=62.00 GB, mem usage=16.00 GB.',
     'KV Cache is allocated. #tokens: 500000, K size: 20.00 GB, V size: 20.00 GB',
     'Capture cuda graph begin. This can take up to several minutes. avail mem=20.00 GB',
     'Capture cuda graph end. Time elapsed: 20.00 s. mem usage=1.00 GB. avail mem=19.00 GB.'], tp=0, m=1) + '\n' + sg(
    ['INFO:     Started server process [1]', 'INFO:     Waiting for application startup.',
     'INFO:     Application startup complete.', 'INFO:     Uvicorn running on http://0.0.0.0:30000 (Press CTRL+C to quit)'], m=2)
# The warm-up request of a vision model goes to /v1/chat/completions; it failing is a warm-up's
# death ("warmup error"), not one after the server was ready.
case('sn_vlm_warmup_request_crash', 'crashed', 'warmup', '*', _SN_UP + '\n' + sg(
    ['Prefill batch, #new-seq: 1, #new-token: 300, #cached-token: 0, token usage: 0.00, #running-req: 0, #queue-req: 0',
     'Scheduler hit an exception: Traceback (most recent call last):'], tp=0, m=3) + '\n' +
    '  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 3000, in run_scheduler_process\n'
    '    scheduler.event_loop_overlap()\nRuntimeError: CUDA error: an illegal memory access was encountered\n' + sg(
    ['INFO:     127.0.0.1:40000 - "POST /v1/chat/completions HTTP/1.1" 500 Internal Server Error',
     'Initialization failed. warmup error: Traceback (most recent call last):'], m=4))
# The warm-up's batch line in the new wording is the warm-up, the server not yet fired up.
case('sn_batch_comma_warmup_in_progress', 'in_progress', 'warmup', None, _SN_UP + '\n' + sg(
    ['Prefill batch, #new-seq: 1, #new-token: 7, #cached-token: 0, token usage: 0.00, #running-req: 0, #queue-req: 0'], tp=0, m=3))
# A scheduler dead in its init: the launcher's "Initialization failed" is the relay, the
# scheduler's own error the headline.
case('sn_init_failed_relay', 'crashed', 'weight_load', '*', sg(
    ["server_args=ServerArgs(model_path='Qwen/Qwen3-8B', tp_size=1)"]) + '\n' + sg(
    ['Load weight begin. avail mem=78.00 GB', 'Scheduler hit an exception: Traceback (most recent call last):'], tp=0, m=1) + '\n' +
    '  File "/sgl-workspace/sglang/python/sglang/srt/model_loader/loader.py", line 400, in load_model\n'
    '    self.load_weights_and_postprocess(\nOSError: [Errno 5] Input/output error\n' + sg(
    ['Rank 0 scheduler died during initialization (exit code: 1). If exit code is -9 (SIGKILL), a common cause is the OS OOM killer.',
     'RuntimeError: Initialization failed. Please see the error messages above.'], m=2))
# Another node's data-parallel controller ending with status 0 is a shutdown, not a death.
case('sn_dp_controller_exit_zero_after_ready', 'ready', 'ready', None, _SN_UP + '\n' + sg(
    ['The server is fired up and ready to roll!', 'Scheduler or DataParallelController 4242 terminated with 0'], m=3))
# Old SGLang printed its vLLM import's year-less lines before its own dated ones, here in another
# year than the reference: explain moves them to the dated year, and watch's replay at the log's
# own times must see the same (tests/corpus_eval.cc takes each line's time after that move).
case('sn_yearless_import_line_before_dated_lines', 'in_progress', 'compile', '*', '\n'.join([
    'INFO 03-01 09:59:50 [__init__.py:190] Automatically detected platform cuda.',
    "[2024-03-01 10:00:00] server_args=ServerArgs(model_path='deepseek-ai/DeepSeek-V3', tp_size=8)",
    '[2024-03-01 10:00:30 TP0] Load weight begin. avail mem=78.00 GB',
    '[2024-03-01 10:05:00 TP0] Load weight end. type=DeepseekV3ForCausalLM, dtype=torch.bfloat16, avail mem=50.00 GB, mem usage=28.00 GB.',
    '[2024-03-01 10:05:11 TP0] Entering DeepGEMM JIT Pre-Compile session.']))
