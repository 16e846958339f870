# HTML-escaped pastes, vpaste round (issue 10): what bench/paste-robustness does to a log
# that a human still reads as the original. Written from how GitHub comments and chat mangle text,
# never from corpus logs. exec'd by make_scenarios.py (uses vl, tb, VHEAD, VLOAD, VCOMP, VKV).

# A paste copied out of a page's source or an HTML e-mail: its entities left in (a traceback's
# quotes, "<module>", a "->" in a message). The same log read as its text.
import html as _vp_html
_VP_BY_NAME = {c[0]: c for c in cases}
for _n in ('v1_not_installed', 'v1_rpc_graph'):
    _c = _VP_BY_NAME[_n]
    case('vpaste_html_' + _n, _c[1], _c[2], _c[3], _vp_html.escape(_c[4], quote=True))
