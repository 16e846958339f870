# A client's traceback pasted below the server's log, foreign round (issue 10): a request or a
# benchmark sent before the server was up, its connection error quoted after the server's lines.
# Written from the client libraries' own chains (httpx/httpcore under openai, urllib3 under
# requests, aiohttp), never from corpus logs. exec'd by make_scenarios.py (uses vl, sg, tg, VHEAD,
# VLOAD, VCOMP, VKV, SHEAD, SDIST, THEAD).

def _client_tb(parts):
    """Python's chained traceback: parts of (frames, exception line), joined by the chain line."""
    out = []
    for i, (frames, exc) in enumerate(parts):
        if i:
            out += ['', 'The above exception was the direct cause of the following exception:', '']
        out.append('Traceback (most recent call last):')
        for path, fn in frames:
            out.append(f'  File "{path}", line 100, in {fn}')
            out.append('    return self._call()')
        out.append(exc)
    return '\n'.join(out)

_OPENAI = _client_tb([
    ([('/home/u/.venv/lib/python3.11/site-packages/httpcore/_backends/sync.py', 'connect_tcp')],
     'ConnectionRefusedError: [Errno 111] Connection refused'),
    ([('/home/u/.venv/lib/python3.11/site-packages/httpx/_transports/default.py', 'handle_request')],
     'httpx.ConnectError: [Errno 111] Connection refused'),
    ([('/home/u/test_client.py', '<module>'),
      ('/home/u/.venv/lib/python3.11/site-packages/openai/_base_client.py', 'request')],
     'openai.APIConnectionError: Connection error.')])
_REQUESTS = _client_tb([
    ([('/usr/lib/python3/dist-packages/urllib3/connection.py', '_new_conn')],
     'ConnectionRefusedError: [Errno 111] Connection refused'),
    ([('/usr/lib/python3/dist-packages/urllib3/connectionpool.py', 'urlopen')],
     "urllib3.exceptions.NewConnectionError: <urllib3.connection.HTTPConnection object at 0x7f>: Failed to establish a new connection: [Errno 111] Connection refused"),
    ([('/root/query.py', '<module>'), ('/usr/lib/python3/dist-packages/requests/adapters.py', 'send')],
     "requests.exceptions.ConnectionError: HTTPConnectionPool(host='localhost', port=30000): Max retries exceeded with url: /generate (Caused by NewConnectionError('<urllib3.connection.HTTPConnection object at 0x7f>: Failed to establish a new connection: [Errno 111] Connection refused'))")])
_AIOHTTP = _client_tb([
    ([('/workspace/bench.py', 'send_request'),
      ('/usr/local/lib/python3.10/dist-packages/aiohttp/connector.py', '_wrap_create_connection')],
     'aiohttp.client_exceptions.ClientConnectorError: Cannot connect to host localhost:8080 ssl:default [Connect call failed (\'127.0.0.1\', 8080)]')])

# vLLM still compiling when the user's script asked it for a completion.
case('foreign_vllm_client_while_compiling', 'in_progress', 'compile', None,
     vl(VHEAD + VLOAD + VCOMP[:2]) + '\n' + _OPENAI)
# SGLang loading its weights; a requests call to /generate was refused.
case('foreign_sglang_requests_while_loading', 'in_progress', 'weight_load', None,
     sg(SHEAD) + '\n' + sg(SDIST + ['Load weight begin. avail mem=78.00 GB'], tp=0) + '\n' + _REQUESTS)
# TGI waiting for its shards; an aiohttp benchmark could not connect.
case('foreign_tgi_aiohttp_while_waiting', 'in_progress', 'weight_load', None,
     tg(THEAD + [('INFO', 'shard-manager: ', 'Waiting for shard to be ready... rank=0')]) + '\n' + _AIOHTTP)
# The server's own download through requests fails in its frames: its crash, not a client's.
case('foreign_vllm_hub_download_is_the_servers', 'crashed', 'weight_load', '*',
     vl(VHEAD + VLOAD[:1]) + '\n' + _client_tb([
         ([('/usr/local/lib/python3.12/dist-packages/vllm/model_executor/model_loader/weight_utils.py', 'download_weights_from_hf'),
           ('/usr/local/lib/python3.12/dist-packages/requests/adapters.py', 'send')],
          "requests.exceptions.ConnectionError: HTTPSConnectionPool(host='huggingface.co', port=443): Max retries exceeded with url: /api/models/Qwen/Qwen3-8B")]))
