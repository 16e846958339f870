# Noise in a release's own words (nineteenth round). SGLang tries every model class at start and
# logs each import that fails ("Ignore import error when loading sglang.srt.models.X: cannot import
# name 'Y' from 'transformers'"), 2026 builds behind the function's name ("In
# import_model_classes: "): a line printed on every start, never a cause of this one (SGLang
# python/sglang/srt/models/registry.py import_model_classes). exec'd by make_scenarios.py.
_N2_IGNORED = ["Ignore import error when loading sglang.srt.models.glmasr: cannot import name 'GlmAsrConfig' from 'transformers' (/usr/local/lib/python3.12/dist-packages/transformers/__init__.py)",
               "Ignore import error when loading sglang.srt.models.deepseek_v4_nextn: No module named 'tilelang'"]
for _tag, _pre in [('', ''), ('_func_prefix', 'In import_model_classes: ')]:
    _noise = [_pre + l for l in _N2_IGNORED]
    # The imports are skipped and the start goes on to be ready: nothing to name.
    case(f'n2_sg_ignored_imports_ready{_tag}', 'ready', 'ready', None, sg(SHEAD) + '\n' + sg(_noise + SDIST + SLOAD + SKV + [
        'Capture cuda graph begin.', 'Capture cuda graph end. Time elapsed: 7.23 s.', 'max_total_num_tokens=46611'], tp=0) + '\n' +
        sg(['INFO:     Uvicorn running on http://0.0.0.0:30000', 'The server is fired up and ready to roll!'], m=1))
    # The start fails for its own reason (memory for the graphs): that is the cause named first.
    case(f'n2_sg_ignored_imports_graph_oom{_tag}', 'crashed', 'cuda_graph', 'gpu_oom', sg(SHEAD) + '\n' + sg(_noise + SDIST + SLOAD + SKV + [
        'Capture cuda graph begin. This can take up to several minutes. avail mem=1.45 GB',
        'Scheduler hit an exception: Traceback (most recent call last):',
        '  File "/sgl-workspace/sglang/python/sglang/srt/model_executor/cuda_graph_runner.py", line 300, in capture',
        '    self.capture_one_batch_size(bs, forward)',
        'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.'], tp=0))
    # The excerpt ends inside the scheduler's traceback, before its exception: nothing says why,
    # and the skipped imports do not either.
    case(f'n2_sg_ignored_imports_tb_cut{_tag}', 'crashed', 'weight_load', None, sg(SHEAD) + '\n' + sg(_noise + [
        'Scheduler hit an exception: Traceback (most recent call last):'] + pyframes([
        ('managers/scheduler.py', 'run_scheduler_process'), ('managers/scheduler.py', '__init__'),
        ('managers/scheduler.py', 'init_model_worker'), ('managers/tp_worker.py', '__init__'),
        ('managers/tp_worker.py', '_init_model_runner')]), tp=0))

# transformers warns whenever a config's model type differs from the class's ("You are using a
# model of type RefinedWeb to instantiate a model of type . This is not supported for all
# configurations of models and can yield errors."), remote-code models on every start: a warning,
# never the model being unsupported.
_N2_TYPE_WARN = ('You are using a model of type RefinedWeb to instantiate a model of type . '
                 'This is not supported for all configurations of models and can yield errors.')
def _n2_tgi_json(msg, level='INFO', t='2024-09-10T08:00:01.000000Z'):
    return json.dumps({"timestamp": t, "level": level, "fields": {"message": msg}, "target": "text_generation_launcher"})
# TGI (JSON output) relays a shard's stderr that holds only warnings: its cause is not in the log.
case('n2_tgi_json_shard_warnings_only', 'crashed', '*', None, '\n'.join([
    _n2_tgi_json('Args { model_id: "tiiuae/falcon-40b-instruct", revision: None, sharded: None, num_shard: Some(4), port: 80, json_output: true }'),
    _n2_tgi_json('Waiting for shard 0 to be ready...', t='2024-09-10T08:00:05.000000Z'),
    _n2_tgi_json('Shard 0 failed to start:\nA new version of the following files was downloaded from tiiuae/falcon-40b-instruct:\n- configuration_RW.py\n'
                 '. Make sure to double-check they do not contain any added malicious code.\n' + _N2_TYPE_WARN + '\n', 'ERROR', '2024-09-10T08:00:09.000000Z'),
    _n2_tgi_json('Shutting down shards', t='2024-09-10T08:00:09.100000Z')]) + '\n')
# The warning on its own line, then a start that works.
case('n2_vllm_model_type_warning_ready', 'ready', 'ready', None, vl(VHEAD + [('WARNING', 'configuration_utils.py:600', _N2_TYPE_WARN)] +
     VLOAD + VCOMP + VKV + [('INFO', 'api_server.py:1857', 'Starting vLLM API server 0 on http://0.0.0.0:8000'),
                            ('INFO', 'launcher.py:29', 'Available routes are:')]) + '\nINFO:     Application startup complete.\n')

# TGI tries its optional model families at start (models/__init__.py) and warns when one is not
# installed ("Could not import Mamba: No module named 'mamba_ssm'"): it goes on without them. A
# start that fails for a reason the excerpt cut away names no package mismatch from them.
_N2_TGI_OPTIONAL = [('WARN', '', "Could not import Mamba: No module named 'mamba_ssm'"),
                    ('WARN', '', "Could not import Flash Transformers Backend: No module named 'transformers.integrations.flash_attention'")]
case('n2_tgi_optional_imports_tb_cut', 'crashed', 'weight_load', None, tg(THEAD + _N2_TGI_OPTIONAL + [
    ('ERROR', '', 'Error when initializing model')]) + '\nTraceback (most recent call last):\n'
    '  File "/opt/conda/bin/text-generation-server", line 8, in <module>\n    sys.exit(app())\n')
