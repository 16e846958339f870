# A log that ends as the HTTP server starts (nineteenth round): vLLM's engine says it is ready
# ("init engine (profile, create kv cache, warmup model) took"), then its front end starts the
# HTTP server ("Starting vLLM API server"), a step of milliseconds. An excerpt that ends there, with
# no word since, ends as the start gets there: ready, as the engine's ready line alone says. Not
# once uvicorn itself says it waits on its startup hook (see below). exec'd by make_scenarios.py.
_R2_UP = VHEAD + VLOAD + VCOMP + VKV + [('INFO', 'core.py:210', 'init engine (profile, create kv cache, warmup model) took 29.10 seconds')]
case('r2_v010_ends_at_api_server_start', 'ready', 'ready', None, vl(_R2_UP + [
    ('INFO', 'api_server.py:1857', 'Starting vLLM API server 0 on http://0.0.0.0:8000')]) + '\n')
# Once uvicorn says it waits on the startup hook, its "Application startup complete." follows at
# once: a log that ends before it stopped in the HTTP start (twenty-eighth round).
case('r2_v010_ends_at_uvicorn_process', 'in_progress', 'http_start', None, vl(_R2_UP + [
    ('INFO', 'api_server.py:1857', 'Starting vLLM API server 0 on http://0.0.0.0:8000')]) +
    '\nINFO:     Started server process [1]\nINFO:     Waiting for application startup.\n')
# The same start whose HTTP server then fails to bind: crashed in http_start, as before.
case('r2_v010_api_server_bind_fails', 'crashed', 'http_start', 'port_in_use', vl(_R2_UP + [
    ('INFO', 'api_server.py:1857', 'Starting vLLM API server 0 on http://0.0.0.0:8000')]) +
    '\nINFO:     Started server process [1]\nINFO:     Waiting for application startup.\n'
    'ERROR:    [Errno 98] error while attempting to bind on address (\'0.0.0.0\', 8000): address already in use\n')
