# TGI and TensorRT-LLM first causes (tcause round, issue 10), written from the engines' sources:
# TGI server/text_generation_server (models/__init__.py, utils/flash_attn.py v1.x,
# layers/attention/cuda.py v2+), backends/v3/src/lib.rs; TensorRT-LLM's PyTorch backend
# (_torch/pyexecutor), its C++ batch manager, its CLIs (click) and LLM API arguments (pydantic),
# NCCL's shm transport. exec'd by make_scenarios.py (uses case/tg/tgj/THEAD/trt/triton/TRITON_HEAD/
# TRT_CPP_LOAD/TRT_SERVE_HEAD/TRT_SERVE_LOADED/trt_tb/TRT_WORKER_END).

# TGI: a model class that needs flash attention raises "X requires Flash Attention enabled models"
# only because importing the flash models failed earlier; the launcher relays that import's reason
# as a warning ("Could not import Flash Attention enabled models: <reason>"), and the reason is the
# cause: no GPU in the container, a GPU too old, or the kernels not installed (v1.x and v2+ words).
def tc_flash(reason, extra=()):
    return tg(THEAD + [('WARN', 'shard-manager: ', f'Could not import Flash Attention enabled models: {reason}')] + list(extra) + [
        ('ERROR', 'shard-manager: ', 'Error when initializing model')]) + '''
Traceback (most recent call last):
  File "/opt/conda/lib/python3.11/site-packages/text_generation_server/server.py", line 253, in serve_inner
    model = get_model_with_lora_adapters(
  File "/opt/conda/lib/python3.11/site-packages/text_generation_server/models/__init__.py", line 1008, in get_model
    raise NotImplementedError(FLASH_ATT_ERROR_MESSAGE.format("Sharded Qwen2"))
NotImplementedError: Sharded Qwen2 requires Flash Attention enabled models.
''' + tg([('ERROR', '', 'Shard 1 failed to start'), ('INFO', '', 'Shutting down shards')], base=30)
case('tc_tgi_flash_no_cuda', 'crashed', 'weight_load', 'no_gpu_visible', tc_flash('CUDA is not available'))
case('tc_tgi_flash_capability', 'crashed', 'weight_load', 'gpu_arch_feature', tc_flash('GPU with CUDA capability 7 5 is not supported for Flash Attention V2'))
case('tc_tgi_flash_rocm_gpu', 'crashed', 'weight_load', 'gpu_arch_feature', tc_flash('AMD GPU AMD Radeon PRO W7900 does not support flash-attention'))
case('tc_tgi_flash_not_installed', 'crashed', 'weight_load', 'package_mismatch', tc_flash('Flash Attention is not installed.', [
    ('WARN', 'shard-manager: ', 'Use the official Docker image (ghcr.io/huggingface/text-generation-inference:latest) or install flash attention with `cd server && make install install-flash-attention`')]))
# The same warning on a start that still loads (a model without a flash-only class) is no error:
# a log cut while the shard loads is still loading, not crashed.
case('tc_tgi_flash_warning_loading', 'in_progress', 'weight_load', '*', tg(THEAD + [
    ('WARN', 'shard-manager: ', "Could not import Flash Attention enabled models: No module named 'dropout_layer_norm'"),
    ('INFO', 'shard-manager: ', 'Waiting for shard to be ready... rank=0'), ('INFO', 'shard-manager: ', 'Waiting for shard to be ready... rank=1')]))

# TGI v3's router checks the warm-up's answer: the KV blocks left cannot hold `max_total_tokens`
# (V3Error::NotEnoughMemory, printed by anyhow in Debug form as the router exits).
case('tc_tgi_v3_not_enough_memory', 'crashed', 'kv_cache', 'kv_memory', tg(THEAD + [
    ('INFO', 'shard-manager: ', 'Shard ready in 31.2s rank=0'), ('INFO', 'shard-manager: ', 'Shard ready in 31.4s rank=1'),
    ('INFO', '', 'Starting Webserver'), ('INFO', 'text_generation_router_v3: backends/v3/src/lib.rs:125: ', 'Warming up model')]) +
    '\nError: Backend(NotEnoughMemory(131072))\n' + tg([('ERROR', '', 'Webserver Crashed'), ('INFO', '', 'Shutting down shards')], base=40) + '\nError: WebserverFailed\n')

# TensorRT-LLM's PyTorch backend cannot fit one sequence in the KV cache it sized
# (resource_manager.py / the C++ KVCacheManager; the batch manager's warning says the same).
case('tc_trt_kv_no_sequence', 'crashed', 'kv_cache', 'kv_memory', trt(TRT_SERVE_HEAD + TRT_SERVE_LOADED + trt_tb(
    [('executor/worker.py', 'worker_main'), ('_torch/pyexecutor/py_executor_creator.py', 'create_py_executor'),
     ('_torch/pyexecutor/_util.py', 'build_managers')],
    'RuntimeError: Impossible to fit in any sequence in kvCache', 'Failed to initialize executor on rank 0: Impossible to fit in any sequence in kvCache') + TRT_WORKER_END))
case('tc_trt_cpp_kv_window_warning', 'crashed', 'kv_cache', 'kv_memory', triton(TRITON_HEAD) + '\n' + trt(TRT_CPP_LOAD + [
    ('C', 'Memory usage when calculating max tokens in paged kv cache: total: 44.52 GiB, available: 1.10 GiB'),
    ('', '[TensorRT-LLM][WARNING] maxAttentionWindow and maxSequenceLen are too large for at least one sequence to fit in kvCache. they are reduced to 2048'),
    ('CE', 'Assertion failed: maxTokensInPagedKvCache >= maxSeqLen')]) + '\n' +
    triton([('', '', 'error: creating server: Internal - failed to load all models')], sec=40) + '\n')

# NCCL's shm transport cannot grow its segment in a small /dev/shm (shmutils.cc wording, any TP start).
case('tc_trt_nccl_shm_extend', 'crashed', 'weight_load', 'dev_shm', trt(TRT_SERVE_HEAD + [
    ('', 'node-3:412:530 [1] include/shmutils.h:48 NCCL WARN Error: failed to extend /dev/shm/nccl-Ab12Cd to 33030148 bytes'),
    ('E', 'Failed to initialize executor on rank 1: NCCL error: unhandled system error (run with NCCL_DEBUG=INFO for details)')] + TRT_WORKER_END))

# A kernel or quantization gated on the SM version, in TensorRT-LLM's "SMxx" words.
case('tc_trt_sm_gate', 'crashed', 'weight_load', 'gpu_arch_feature', trt(TRT_SERVE_HEAD + trt_tb(
    [('executor/worker.py', 'worker_main'), ('_torch/pyexecutor/model_engine.py', '_load_model'), ('_torch/models/modeling_utils.py', 'load_weights')],
    'RuntimeError: W4A8 MXFP4 MoE is unsupported on SM89, requires SM100 or newer',
    'Failed to initialize executor on rank 0: W4A8 MXFP4 MoE is unsupported on SM89, requires SM100 or newer') + TRT_WORKER_END))

# The MPI library or TensorRT's own libraries missing from the image: the package set is incomplete.
case('tc_trt_lib_missing', 'crashed', 'launch', 'package_mismatch', '''Traceback (most recent call last):
  File "/usr/local/bin/trtllm-serve", line 5, in <module>
    from tensorrt_llm.commands.serve import main
  File "/usr/local/lib/python3.10/dist-packages/tensorrt_llm/__init__.py", line 30, in <module>
    import tensorrt_llm.bindings
ImportError: libnvinfer_plugin_tensorrt_llm.so.10: cannot open shared object file: No such file or directory
''')

# Bad command lines: the CLIs are click commands (usage, then "Error: No such option"), the LLM API
# validates its arguments with pydantic, and the C++ runtime checks the engine's world size against
# the MPI world (newer releases add context parallelism to the product).
case('tc_trt_click_option', 'crashed', 'launch', 'bad_command', '''Usage: trtllm-build [OPTIONS]
Try 'trtllm-build --help' for help.

Error: No such option: --max_output_len
''')
case('tc_trt_llmargs_validation', 'crashed', 'launch', 'bad_command', trt([('', '[TensorRT-LLM] TensorRT-LLM version: 0.20.0'), ('', 'Traceback (most recent call last):'),
    ('', '  File "/usr/local/lib/python3.12/dist-packages/tensorrt_llm/llmapi/llm_args.py", line 1800, in from_kwargs'), ('', '    llm_args = cls(**kwargs)'),
    ('', 'pydantic_core._pydantic_core.ValidationError: 2 validation errors for TorchLlmArgs'), ('', 'max_batch_size'),
    ('', '  Input should be a valid integer [type=int_type, input_value=None, input_type=NoneType]')]) + '\n')
case('tc_trt_world_size_cp', 'crashed', 'weight_load', 'parallel_layout', triton(TRITON_HEAD) + '\n' + trt(TRT_CPP_LOAD[:2]) + '\n' + triton([
    ('E', 'model_lifecycle.cc:654', "failed to load 'tensorrt_llm' version 1: Internal: unexpected error when creating modelInstanceState: [TensorRT-LLM][ERROR] Assertion failed: tp * pp * cp == mpiSize (/workspace/tensorrt_llm/cpp/tensorrt_llm/runtime/worldConfig.cpp:118)"),
    ('', '', 'error: creating server: Internal - failed to load all models')], sec=20) + '\n')

# TGI gates kernels on the GPU in its own words: Marlin ("requires a GPU with CUDA capability 8.0
# or later", layers/marlin/util.py), the ROCm attention ("AMD GPU with ROCm capability X Y is not
# supported", layers/attention/rocm.py).
def tc_shard_error(exc):
    return tg(THEAD + [('ERROR', 'shard-manager: ', 'Error when initializing model')]) + f'''
Traceback (most recent call last):
  File "/opt/conda/lib/python3.11/site-packages/text_generation_server/server.py", line 253, in serve_inner
    model = get_model_with_lora_adapters(
{exc} rank=0
''' + tg([('ERROR', '', 'Shard 0 failed to start'), ('INFO', '', 'Shutting down shards')], base=30)
case('tc_tgi_marlin_capability', 'crashed', 'weight_load', 'gpu_arch_feature', tc_shard_error(
    'RuntimeError: Using quantized Marlin models requires a GPU with CUDA capability 8.0 or later.'))
case('tc_tgi_rocm_capability', 'crashed', 'weight_load', 'gpu_arch_feature', tc_shard_error(
    'ImportError: AMD GPU with ROCm capability 9 0 is not supported'))
# A local model directory without weights of the expected kind (utils/hub.py weight_files), like
# vLLM's "Cannot find any model weights".
case('tc_tgi_no_local_weights', 'crashed', 'weight_load', 'corrupt_safetensors', tc_shard_error(
    'FileNotFoundError: No local weights found in /models/qwen2-7b with extension .safetensors'))

# A hang with one shard ready and its peer still loading: the launcher starts the webserver only
# once every shard is ready, so the start waits in weight_load, not in the webserver (the phase
# after shard0's end is a guess with no line of its own).
case('tc_tgi_peer_still_loading', 'in_progress', 'weight_load', '*', tg(THEAD + [
    ('INFO', 'shard-manager: ', 'Waiting for shard to be ready... rank=0'), ('INFO', 'shard-manager: ', 'Waiting for shard to be ready... rank=1'),
    ('INFO', 'shard-manager: ', 'Shard ready in 9.1s rank=0')] + [('INFO', 'shard-manager: ', 'Waiting for shard to be ready... rank=1')] * 40))

# bitsandbytes without its CUDA library (a build for another CUDA, or none found): it warns as it
# is imported, and its first call through the missing library fails with "'NoneType' object has no
# attribute 'c...'" (its ctypes functions), which only looks like a model the engine lacks.
case('tc_tgi_bnb_without_cuda', 'crashed', 'weight_load', 'cuda_build_mismatch', tg(THEAD + [
    ('WARN', 'shard-manager: ', 'The installed version of bitsandbytes was compiled without GPU support. 8-bit optimizers, 8-bit multiplication, and GPU quantization are unavailable.'),
    ('ERROR', 'shard-manager: ', 'Error when initializing model')]) + '''
Traceback (most recent call last):
  File "/opt/conda/lib/python3.10/site-packages/text_generation_server/utils/layers.py", line 280, in forward
    out = bnb.matmul(x, self.weight, bias=self.bias, state=self.state)
  File "/opt/conda/lib/python3.10/site-packages/bitsandbytes/functional.py", line 1700, in double_quant
    lib.cdouble_rowcol_quant(ptrA, ptrRowStats, ptrColStats, ptrOut_col, ptrOut_row, ct.c_int32(rows), ct.c_int32(cols))
AttributeError: 'NoneType' object has no attribute 'cdouble_rowcol_quant'
''' + tg([('ERROR', '', 'Shard 0 failed to start'), ('INFO', '', 'Shutting down shards')], base=30))

# TensorRT's builder refuses a precision the GPU lacks ("Networks with FP8 precision require hardware
# with FP8 support", API usage error 9): an engine build (trtllm-build, the LLM API) that fails so.
case('tc_trt_build_precision_hw', 'crashed', 'compile', 'gpu_arch_feature', trt([('', '[TensorRT-LLM] TensorRT-LLM version: 0.14.0'),
    ('', 'Loading Model: [3/3]\tBuilding TRT-LLM engine'),
    ('', '[10/01/2024-08:00:10] [TRT] [E] IBuilder::buildSerializedNetwork: Error Code 9: API Usage Error (Networks with FP8 precision require hardware with FP8 support.)'),
    ('E', 'Engine building failed, please check the error log.')]) + '\n')
# ...and a TensorRT release older than the GPU: its kernels do not cover this SM.
case('tc_trt_build_sm_too_new', 'crashed', 'compile', 'cuda_build_mismatch', trt([('', '[TensorRT-LLM] TensorRT-LLM version: 0.12.0'),
    ('', 'Loading Model: [3/3]\tBuilding TRT-LLM engine'),
    ('', '[10/01/2024-08:00:10] [TRT] [E] IBuilder::buildSerializedNetwork: Error Code 9: API Usage Error (Target GPU SM 120 is not supported by this TensorRT release.)'),
    ('E', 'Engine building failed, please check the error log.')]) + '\n')

# Triton refuses a model repository before any backend code runs: a backend the image does not
# ship, a config.pbtxt it cannot parse (the tensorrtllm_backend templates' ${...} left unfilled).
case('tc_triton_backend_not_in_image', 'crashed', 'weight_load', 'bad_command', triton(TRITON_HEAD[:3] + [
    ('E', 'model_lifecycle.cc:654', "failed to load 'tensorrt_llm' version 1: Invalid argument: unable to find backend library for backend 'tensorrtllm', try specifying runtime on the model configuration."),
    ('', '', 'error: creating server: Internal - failed to load all models')]) + '\n')
case('tc_triton_config_unparsed', 'crashed', 'launch', 'bad_command', triton(TRITON_HEAD[:2] + [
    ('E', 'model_repository_manager.cc:1335', "Poll failed for model directory 'tensorrt_llm': failed to read text proto from /models/tensorrt_llm/config.pbtxt"),
    ('', '', '[libprotobuf ERROR /tmp/tritonbuild/tritonserver/build/_deps/repo-third-party-build/grpc-repo/src/grpc/third_party/protobuf/src/google/protobuf/text_format.cc:335] Error parsing text-format inference.ModelConfig: 53:17: Expected integer or identifier, got: $'),
    ('', '', 'error: creating server: Internal - failed to load all models')]) + '\n')

# TGI's launcher parses its flags with clap before it logs anything: a wrong flag prints clap's
# error, then its usage line (which names the launcher). clap 4.1+ and 4.0 wording.
case('tc_tgi_clap_unexpected', 'crashed', 'launch', 'bad_command', '''error: unexpected argument '--max-concurrent-request' found

  tip: a similar argument exists: '--max-concurrent-requests'

Usage: text-generation-launcher --max-concurrent-requests <MAX_CONCURRENT_REQUESTS> --model-id <MODEL_ID>

For more information, try '--help'.
''')
case('tc_tgi_clap_found_argument', 'crashed', 'launch', 'bad_command', '''error: Found argument '--num-shards' which wasn't expected, or isn't valid in this context

  Did you mean '--num-shard'?

Usage: text-generation-launcher --num-shard <NUM_SHARD>

For more information try '--help'
''')
