# Frames every forward passes through (nineteenth round): a function that runs on each forward, the
# memory-profiling run's and the serving loop's as well as a capture's or a compile's, names no
# phase; the frames around it do. Read from the engines' sources (vLLM 0.10.2-main 2026:
# vllm/compilation/backends.py copy_and_call; torch/cuda/graphs.py CUDAGraph.replay, which vLLM's
# CUDAGraphWrapper and SGLang's CudaGraphRunner.replay call), never from corpus logs.
# exec'd by make_scenarios.py.

# torch.compile's path through a forward: the decorator, Dynamo's frames, the FX graph module.
_PT_DYNAMO = [
    ('torch/nn/modules/module.py', '_call_impl', 'return forward_call(*args, **kwargs)'),
    ('vllm/model_executor/models/llama.py', 'forward', 'model_output = self.model(input_ids, positions, intermediate_tensors,'),
    ('vllm/compilation/decorators.py', '__call__', 'output = self.compiled_callable(*args, **kwargs)'),
    ('torch/_dynamo/eval_frame.py', '_fn', 'return fn(*args, **kwargs)'),
    ('vllm/model_executor/models/llama.py', 'forward', 'def forward('),
    ('torch/_dynamo/eval_frame.py', '_fn', 'return fn(*args, **kwargs)'),
    ('torch/fx/graph_module.py', 'call_wrapped', 'return self._wrapped_call(self, *args, **kwargs)'),
    ('torch/fx/graph_module.py', '__call__', 'raise e')]
# The compiled piece's run: the graph wrapper passing the call on, then Inductor's output code.
_PT_PIECE = [
    ('vllm/compilation/cuda_graph.py', '__call__', 'return self.runnable(*args, **kwargs)'),
    ('vllm/compilation/cuda_piecewise_backend.py', '__call__', 'return self.compiled_graph_for_general_shape(*args)'),
    ('torch/_functorch/aot_autograd.py', 'forward', 'return compiled_fn(full_args)'),
    ('torch/_functorch/_aot_autograd/runtime_wrappers.py', 'runtime_wrapper', 'all_outs = call_func_at_runtime_with_args('),
    ('torch/_inductor/output_code.py', '__call__', 'return self.current_callable(inputs)'),
    ('torch/_inductor/utils.py', 'run', 'return model(new_inputs)')]
# cudagraph_copy_inputs: Dynamo calls vLLM's copy_and_call, which copies the inputs into the
# static buffers and calls the split graph, on every forward.
_PT_COPY = [('vllm/compilation/backends.py', 'copy_and_call', 'return self.split_gm(*list_args)')]

def _pt_profile_oom(head, forward):
    lines = ['EngineCore failed to start.'] + frames(
        (_V_PROFILE if head is not None else []) + forward, _V_OOM)
    return vl((head if head is not None else VHEAD + VLOAD) +
              [('ERROR', 'core.py:708', l) for l in lines], '(EngineCore_DP0 pid=221) ') + '\n'

# The memory-profiling forward of a compiled model, through Dynamo and the compiled piece: the
# profile run (kv_cache), whole and cut to the forward's frames after the weights' end line.
case('pt_v010_profile_oom_compiled_forward', 'crashed', 'kv_cache', '*',
     _pt_profile_oom(VHEAD + VLOAD + VCOMP, _PT_DYNAMO + _PT_PIECE))
case('pt_v010_profile_oom_compiled_forward_cut', 'crashed', 'kv_cache', '*',
     _pt_profile_oom(None, _PT_DYNAMO + _PT_PIECE))
# The same through copy_and_call (backends.py, where the compiler's own frames live too): the copy
# runs on every forward, so it is no compile frame.
case('pt_v010_profile_oom_copy_and_call', 'crashed', 'kv_cache', '*',
     _pt_profile_oom(VHEAD + VLOAD + VCOMP, _PT_DYNAMO + _PT_COPY + _PT_PIECE))
case('pt_v010_profile_oom_copy_and_call_cut', 'crashed', 'kv_cache', '*',
     _pt_profile_oom(None, _PT_DYNAMO + _PT_COPY + _PT_PIECE))

# SGLang's warm-up request replays a captured graph (CudaGraphRunner.replay -> CUDAGraph.replay):
# a crash there is the warm-up's, not a capture's; whole and cut to the scheduler's traceback.
_PT_SG_UP = sg(SHEAD) + '\n' + sg(SDIST + SLOAD + SKV + [
    'Capture cuda graph begin.', 'Capture cuda graph end. Time elapsed: 7.23 s. mem usage=0.93 GB. avail mem=1.00 GB.',
    'max_total_num_tokens=46611, chunked_prefill_size=2048'], tp=0) + '\n'
_PT_SG_CRASH = sg(['Scheduler hit an exception: Traceback (most recent call last):'] + pyframes([
    ('managers/scheduler.py', 'event_loop_normal'), ('managers/scheduler.py', 'run_batch'),
    ('managers/tp_worker.py', 'forward_batch_generation'), ('model_executor/model_runner.py', 'forward'),
    ('model_executor/model_runner.py', '_forward_raw'), ('model_executor/cuda_graph_runner.py', 'replay')]) + [
    '  File "/usr/local/lib/python3.10/dist-packages/torch/cuda/graphs.py", line 88, in replay', '    super().replay()',
    'RuntimeError: CUDA error: an illegal memory access was encountered'], h=10, m=1)
case('pt_sg_warmup_graph_replay_crash', 'crashed', 'warmup', 'illegal_memory_access', _PT_SG_UP + sg([
    'INFO:     Started server process [3207]', 'INFO:     Application startup complete.',
    'INFO:     Uvicorn running on http://0.0.0.0:30000 (Press CTRL+C to quit)',
    'INFO:     127.0.0.1:1 - "GET /get_model_info HTTP/1.1" 200 OK', 'Prefill batch. #new-seq: 1, #new-token: 6'], m=1) + '\n' + _PT_SG_CRASH + '\n')
case('pt_sg_warmup_graph_replay_cut', 'crashed', 'warmup', '*', _PT_SG_CRASH + '\n')
