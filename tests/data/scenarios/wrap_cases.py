# Pastes a terminal wrapped (a Windows console, a web log viewer): every line longer than the
# terminal is cut into lines of exactly its width, no mark between them. Each is an existing
# scenario copied at a width, and must read as the original does (src/logs/wrapped_lines.h: a
# traceback's frames and JSON lines are joined by their shape, any other line once two lines have
# shown the width). exec'd by make_scenarios.py after every other case.
def _wrapped(text, width):
    out = []
    for line in text.rstrip('\n').split('\n'):
        while len(line) > width:
            out.append(line[:width])
            line = line[width:]
        out.append(line)
    return '\n'.join(out) + '\n'

_by_name = {c[0]: c for c in cases}
for _name, _width in [('v1_compile_oom', 120), ('tp_trt_kv_manager_frames', 100),
                      ('tp_trt_bare_traceback_kv', 120), ('tphase_trt_draft_engine_load_frames', 120),
                      ('vg_v010_fusion_pass_frames_cut', 120), ('vg_v054_quant_config_frames_cut', 80),
                      ('tp_tgi_docker_json_warmup', 120), ('x_cut_tb_vllm_graph_noexc', 80),
                      ('vt_request_handler_traceback_tail', 100), ('v1_gloo_excerpt_hang', 120)]:
    _n, _state, _phase, _cause, _text = _by_name[_name]
    # The exception line below this excerpt's one frame is cut at `Mi` / `nimum capability`, and
    # no two lines before it showed the width: the cause its words name is not read (any cause).
    if _name == 'vg_v054_quant_config_frames_cut':
        _cause = '*'
    case(f'wrap{_width}_{_name}', _state, _phase, _cause, _wrapped(_text, _width))
