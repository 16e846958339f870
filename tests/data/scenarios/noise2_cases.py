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
