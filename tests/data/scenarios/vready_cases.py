# vLLM outcome, vready round (issue 10): what shows a start is serving, and where a tensor-parallel
# V1 start is before its workers exist. Written from vLLM's sources (V1 MultiprocExecutor and
# shm_broadcast.MessageQueue, V0 launcher.serve_http, examples/offline_inference) and the OpenAI
# API's response objects, never from corpus logs. exec'd by make_scenarios.py (uses vl/v0/frames).
VR_EC = '(EngineCore_0 pid=311) '

# V1's MultiprocExecutor makes its RPC broadcast queue (all local ranks read it, rank 0 included)
# before it spawns a single worker; the parallel groups' queues are read by the ranks other than
# their writer (rank 0). A worker that dies while being spawned is a launch failure, not
# distributed init.
case('vr_v1_executor_queue_then_spawn_fails', 'crashed', 'launch', '*', vl([
    ('INFO', 'api_server.py:1805', 'vLLM API server version 0.10.1.1'),
    ('INFO', 'core.py:73', "Initializing a V1 LLM engine (v0.10.1.1) with config: model='Qwen/Qwen3-8B', tensor_parallel_size=2"),
    ('INFO', 'shm_broadcast.py:289', "vLLM message queue communication handle: Handle(local_reader_ranks=[0, 1], buffer_handle=(2, 16777216, 10, 'psm_5f1c'), local_subscribe_addr='ipc:///tmp/0d2c', remote_subscribe_addr=None, remote_addr_ipv6=False)"),
    ('ERROR', 'multiproc_executor.py:140', 'Worker proc VllmWorker-1 died unexpectedly, shutting down executor.')], VR_EC) + '\n' + '\n'.join(frames([
    ('multiprocessing/spawn.py', 'spawn_main', 'exitcode = _main(fd, parent_sentinel)'),
    ('multiprocessing/spawn.py', '_check_not_importing_main', "raise RuntimeError('''")],
    ['RuntimeError: ', '        An attempt has been made to start a new process before the', '        current process has finished its bootstrapping phase.'])))

# What the client saw shows the server answered: an OpenAI-API completion object (curl's output),
# the Python client's ChatCompletion, a benchmark's result block with successful requests.
V0_UP = [('INFO', 'api_server.py:339', 'vLLM API server version 0.5.4'),
         ('INFO', 'llm_engine.py:174', "Initializing an LLM engine (v0.5.4) with config: model='meta-llama/Meta-Llama-3.1-8B-Instruct'"),
         ('INFO', 'model_runner.py:732', 'Loading model weights took 14.9888 GB'),
         ('INFO', 'gpu_executor.py:102', '# GPU blocks: 12000, # CPU blocks: 2048'),
         ('INFO', 'model_runner.py:1300', 'Graph capturing finished in 7 secs.')]
case('vr_v05_log_then_curl_completion', 'ready', 'ready', None, v0(V0_UP) + '\n' +
     '{"id":"cmpl-d5e1","object":"text_completion","created":1722500000,"model":"meta-llama/Meta-Llama-3.1-8B-Instruct","choices":[{"index":0,"text":" city in California","finish_reason":"length"}]}')
case('vr_v05_log_then_benchmark_result', 'ready', 'ready', None, v0(V0_UP) + '\n' + '\n'.join([
    '============ Serving Benchmark Result ============', 'Successful requests:                     1000',
    'Benchmark duration (s):                  95.12', '==================================================']))
case('vr_v05_log_then_python_client', 'ready', 'ready', None, v0(V0_UP) + '\n' +
     "ChatCompletion(id='chatcmpl-1f2e', choices=[Choice(finish_reason='stop', index=0, message=ChatCompletionMessage(content='Hello!', role='assistant'))], model='m', object='chat.completion')")
# A client's error object is no answer of a served model: still starting.
case('vr_v05_log_then_connection_refused', 'in_progress', 'http_start', '*', v0(V0_UP) + '\n' +
     'curl: (7) Failed to connect to localhost port 8000 after 0 ms: Connection refused')

# vLLM's offline examples print each output as "Prompt: ..., Generated text: ...": generated.
case('vr_v06_offline_generated_text', 'ready', 'ready', None, v0(V0_UP[1:]) + '\n' +
     "Prompt: 'Hello, my name is', Generated text: ' Joel, my dad is my friend'")

# Ray Serve says when an application (a vLLM deployment) is ready at its route.
case('vr_ray_serve_application_ready', 'ready', 'ready', None, v0(V0_UP[1:], tag='(ServeReplica:default:VLLMDeployment pid=2100) ') + '\n' +
     "INFO 2025-05-01 10:01:10,000 serve 1234 -- Application 'default' is ready at http://127.0.0.1:8000/.")

# The API server lists its routes (launcher.serve_http) after the engine is up, right before
# uvicorn serves (0.6.2+ has bound the socket already): the engine's start is over, as with V1's
# "init engine ... took"; an error before the server is up is still a crash in the HTTP start.
case('vr_v06_ends_at_routes', 'ready', 'ready', None, v0(V0_UP[1:] + [
    ('INFO', 'api_server.py:232', 'vLLM to use /tmp/tmpx as PROMETHEUS_MULTIPROC_DIR'),
    ('INFO', 'launcher.py:19', 'Available routes are:'),
    ('INFO', 'launcher.py:27', 'Route: /v1/chat/completions, Methods: POST')]))
case('vr_v06_routes_then_bind_fails', 'crashed', 'http_start', '*', v0(V0_UP[1:] + [
    ('INFO', 'launcher.py:19', 'Available routes are:'),
    ('INFO', 'launcher.py:27', 'Route: /v1/chat/completions, Methods: POST')]) + '\n' +
    'ERROR:    [Errno 98] error while attempting to bind on address (\'0.0.0.0\', 8000): address already in use')

# systemd refuses one more start after a burst of failed ones ("Start request repeated too
# quickly", StartLimitBurst): even with a single run's lines pasted, the service was restarted.
case('vr_journal_start_limit_hit', 'crash_loop', 'launch', '*', '\n'.join([
    'Dec 01 10:04:01 gpu01 vllm[904]: INFO 12-01 10:04:01 [api_server.py:1805] vLLM API server version 0.9.2',
    'Dec 01 10:04:20 gpu01 vllm[904]: ERROR 12-01 10:04:20 [core.py:515] EngineCore failed to start.',
    'Dec 01 10:04:20 gpu01 vllm[904]: ERROR 12-01 10:04:20 [core.py:515] ValueError: Free memory on device (12.1/79.19 GiB) on startup is less than desired GPU memory utilization (0.9, 71.27 GiB).',
    'Dec 01 10:04:21 gpu01 systemd[1]: vllm.service: Main process exited, code=exited, status=1/FAILURE',
    "Dec 01 10:04:21 gpu01 systemd[1]: vllm.service: Failed with result 'exit-code'.",
    'Dec 01 10:04:22 gpu01 systemd[1]: vllm.service: Start request repeated too quickly.',
    'Dec 01 10:04:22 gpu01 systemd[1]: Failed to start vllm.service - vLLM.']))

# The model list as jq prints it (one field a line): "owned_by" belongs only to an OpenAI-API model
# object, which only a serving server returns.
case('vr_v05_log_then_jq_model_list', 'ready', 'ready', None, v0(V0_UP) + '\n' + '\n'.join([
    '$ curl -s localhost:8000/v1/models | jq .', '{', '  "object": "list",', '  "data": [', '    {',
    '      "id": "meta-llama/Meta-Llama-3.1-8B-Instruct",', '      "object": "model",', '      "owned_by": "vllm"', '    }', '  ]', '}']))

# uvicorn's "Application startup complete." ends the app's startup (vLLM 0.6.2+ has bound its
# socket before the engine): an error line right after it is a request's (a tool-call parser, an
# image fetch), not the start failing; a failed bind or a death still is (vg_uvicorn_bind_after_startup).
_VR_V1_UP = vl([('INFO', 'core.py:214', 'init engine (profile, create kv cache, warmup model) took 61.20 seconds')], VR_EC) + '\n' + vl([
    ('INFO', 'api_server.py:1857', 'Starting vLLM API server 0 on http://0.0.0.0:8000'),
    ('INFO', 'launcher.py:29', 'Available routes are:')], '(APIServer pid=1) ') + '\n' + '\n'.join(
    '(APIServer pid=1) INFO:     ' + l for l in ('Started server process [1]', 'Waiting for application startup.', 'Application startup complete.'))
case('vr_v1_tool_parser_error_right_after_startup', 'ready', 'ready', None, _VR_V1_UP + '\n' + vl([
    ('ERROR', 'hermes_tool_parser.py:139', 'Error in extracting tool call from response.')] + [('ERROR', 'hermes_tool_parser.py:139', l) for l in frames([
    ('vllm/entrypoints/openai/tool_parsers/hermes_tool_parser.py', 'extract_tool_calls', 'raw_function_calls = [')], 'json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)')], '(APIServer pid=1) '))
# Before uvicorn says so, an error after the engine's ready line is still the start failing.
case('vr_v1_error_before_app_startup', 'crashed', 'http_start', '*', vl([('INFO', 'core.py:214', 'init engine (profile, create kv cache, warmup model) took 61.20 seconds')], VR_EC) + '\n' +
     vl([('INFO', 'api_server.py:1857', 'Starting vLLM API server 0 on http://0.0.0.0:8000')], '(APIServer pid=1) ') + '\n' + '\n'.join(
    '(APIServer pid=1) ' + l for l in ['INFO:     Started server process [1]', 'INFO:     Waiting for application startup.'] + frames([
    ('starlette/routing.py', 'lifespan', 'async with self.lifespan_context(app) as maybe_state:')], 'RuntimeError: no running event loop')))

# A "fatal" line the start outlived: Ray's dashboard failing to bind at Ray's start, then vLLM loads,
# sizes its cache, captures and uvicorn serves. The server being up after later phases says that
# line did not end the start.
case('vr_v06_ray_dashboard_bind_then_ready', 'ready', 'ready', '*', v0(V0_UP[:2]) + '\n' + '\n'.join([
    '2025-08-20 10:00:05,000\tINFO worker.py:1821 -- Started a local Ray instance.',
    '2025-08-20 10:00:06,000\tERROR services.py:1353 -- Failed to start the dashboard , return code 1',
    'OSError: [Errno 98] Address already in use']) + '\n' + v0(V0_UP[2:], m=1) + '\n' + '\n'.join(
    'INFO:     ' + l for l in ('Started server process [1]', 'Waiting for application startup.', 'Application startup complete.',
                               'Uvicorn running on http://0.0.0.0:8000 (Press CTRL+C to quit)')))

_VR_FAIL_LINES = [
    'INFO 08-20 10:00:00 [api_server.py:1805] vLLM API server version 0.10.1.1',
    'ERROR 08-20 10:00:20 [core.py:708] EngineCore failed to start.',
    'ERROR 08-20 10:00:20 [core.py:708] ValueError: Free memory on device (12.1/79.19 GiB) on startup is less than desired GPU memory utilization (0.9, 71.27 GiB).']
# Kubernetes' back-off ("backoff.*"): CrashLoopBackOff, or Error, with its restart count says the
# latest run failed too: one restart shown in back-off is two failed runs, a loop. The same status
# with no restart beside a run whose crash the log shows is that one run.
case('vr_k8s_crashloop_one_restart', 'crash_loop', 'launch', '*', '\n'.join([
    'NAME     READY   STATUS             RESTARTS      AGE',
    'vllm-0   0/1     CrashLoopBackOff   1 (10s ago)   60s']))
case('vr_k8s_error_no_restart_one_crash', 'crashed', 'launch', '*', '\n'.join([
    'NAME     READY   STATUS   RESTARTS   AGE', 'vllm-0   0/1     Error    0          48s']) + '\n' + '\n'.join(_VR_FAIL_LINES))
