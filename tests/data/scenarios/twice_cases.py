# Every line printed twice (nineteenth round): a logger with two handlers, or stdout and a tee'd
# file captured together. A traceback's header printed twice opens one traceback, not two: a
# client's chained exception below a server's log stays the client's. Each is an existing
# scenario with its lines doubled. exec'd by make_scenarios.py before wrap_cases.py.
_by_name_twice = {c[0]: c for c in cases}
for _name in ['foreign_vllm_client_while_compiling', 'foreign_sglang_requests_while_loading',
              'foreign_tgi_aiohttp_while_waiting']:
    _n, _state, _phase, _cause, _text = _by_name_twice[_name]
    case(f'twice_{_name}', _state, _phase, _cause,
         ''.join(l + '\n' + l + '\n' for l in _text.rstrip('\n').split('\n')))
