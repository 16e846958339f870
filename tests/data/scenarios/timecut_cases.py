# Pastes whose times were cut out of every line's prefix (trimmed for width, or a logging config
# without %(asctime)s): vLLM's "INFO [file.py:12] msg", TGI's "INFO text_generation_launcher: msg",
# SGLang's "[TP0] msg". Each is an existing scenario copied without its times, and must read as the
# original does where its verdict does not rest on durations (src/logs/engine_prefix.cc).
# exec'd by make_scenarios.py before wrap_cases.py.
import re as _re
_TC_TIMES = [
    # SGLang's bracket keeps its tags: "[2025-01-01 10:00:00 TP0] " -> "[TP0] ".
    (_re.compile(r'(?<=\[)\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(?:\.\d+)? (?=(?:[A-Z_]+\d+ ?)+\])'), ''),
    (_re.compile(r'^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z\s+'), ''),  # TGI's RFC 3339
    (_re.compile(r'(?<=^[A-Z]{4}) \d{2}-\d{2} \d{2}:\d{2}:\d{2}(?:\.\d+)?'), ''),  # vLLM's
    (_re.compile(r'(?<=^[A-Z]{5}) \d{2}-\d{2} \d{2}:\d{2}:\d{2}(?:\.\d+)?'), ''),
    (_re.compile(r'(?<=^[A-Z]{7}) \d{2}-\d{2} \d{2}:\d{2}:\d{2}(?:\.\d+)?'), ''),
    (_re.compile(r'(?<=\) [A-Z]{4}) \d{2}-\d{2} \d{2}:\d{2}:\d{2}(?:\.\d+)?'), ''),  # after a tag
    (_re.compile(r'(?<=\) [A-Z]{5}) \d{2}-\d{2} \d{2}:\d{2}:\d{2}(?:\.\d+)?'), ''),
]


def _times_cut(text):
    out = []
    for line in text.rstrip('\n').split('\n'):
        for pattern, by in _TC_TIMES:
            line = pattern.sub(by, line, count=1)
        out.append(line)
    return '\n'.join(out) + '\n'


_tc_by_name = {c[0]: c for c in cases}
for _name in ['c2_ray_host_oom', 'v1_tp2_load_crash_other_rank', 'c_cache_ro', 'c_shm_not_disk',
              'sg_dp_controller_crash', 'tgi_v3_ready', 'o_tgi_ready_rejected_request',
              'tp_tgi_router_server_error']:
    _n, _state, _phase, _cause, _text = _tc_by_name[_name]
    _cut = _times_cut(_text)
    assert _cut != _text, _name  # the copy must have lost its times
    case(f'timecut_{_name}', _state, _phase, _cause, _cut)
