# Causes in words no rule knew (nineteenth round; vLLM 0.10's loaders and torch's operator registry,
# not corpus logs). exec'd by make_scenarios.py.
_C4_TAG = '(EngineCore_DP0 pid=221) '
def _c4_crash(fr, exc, head=None):
    return vl((head or VHEAD + VLOAD[:1]) + [('ERROR', 'core.py:708', l) for l in
              ['EngineCore failed to start.'] + frames(fr, exc)], _C4_TAG) + '\n'
# A fused MoE checkpoint's parameter the model class does not have ("experts.w2_weight"): the
# checkpoint's layout is not one this release loads.
case('c4_v010_moe_param_keyerror', 'crashed', 'weight_load', 'model_unsupported', _c4_crash([
    ('vllm/model_executor/model_loader/default_loader.py', 'load_weights', 'loaded_weights = model.load_weights('),
    ('vllm/model_executor/models/qwen3_moe.py', 'load_weights', 'param = params_dict[name]')],
    "KeyError: 'model.layers.0.mlp.experts.w2_weight'"))
# torchvision built for another torch: its operators are not registered ("operator torchvision::nms
# does not exist"), raised while transformers imports the image processor.
case('c4_v010_torchvision_operator_missing', 'crashed', '*', 'package_mismatch', _c4_crash([
    ('vllm/transformers_utils/processor.py', 'get_processor', 'from transformers import AutoProcessor'),
    ('torchvision/_meta_registrations.py', '<module>', '@register_meta("roi_align")'),
    ('torchvision/_meta_registrations.py', 'wrapper', 'if torchvision.extension._has_ops():')],
    'RuntimeError: operator torchvision::nms does not exist'))

def _c4_sg_crash(exc, pre=SDIST + ['Load weight begin. avail mem=78.00 GB']):
    return sg(SHEAD) + '\n' + sg(pre + ['Scheduler hit an exception: Traceback (most recent call last):'] +
                                 pyframes([('managers/scheduler.py', 'run_scheduler_process'), ('managers/scheduler.py', '__init__')]) + [exc], tp=0)
# SGLang's KV pool so small that no request fits: max_running_requests comes out zero.
case('c4_sg_max_running_requests_zero', 'crashed', '*', 'kv_memory', _c4_sg_crash(
    'AssertionError: max_running_request is zero', SDIST + SLOAD + ['KV Cache is allocated. #tokens: 12, K size: 0.00 GB, V size: 0.00 GB']))
# A kernel library the chosen backend needs is missing, and the error says to install it.
case('c4_sg_backend_not_installed', 'crashed', 'weight_load', 'package_mismatch', _c4_sg_crash(
    'RuntimeError: flashinfer is not installed, please install it with `pip install flashinfer-python`'))

# TensorRT-LLM's kernels assert the GPU ("This GPU is not supported by fp8 gemm"): the GPU lacks
# the feature, before the model does.
case('c4_trt_gpu_not_supported_by_kernel', 'crashed', '*', 'gpu_arch_feature', trt(TRT_SERVE_HEAD + [
    ('E', 'Failed to initialize executor on rank 0: [TensorRT-LLM][ERROR] Assertion failed: This GPU is not supported by fp8 gemm')] + TRT_WORKER_END))
