# vLLM outcome, vloop2 round (issue 10): restarts pasted without any time, and offline results
# printed as objects. Written from vLLM's sources (entrypoints/cli argparse, v1/engine/core_client,
# outputs.RequestOutput.__repr__), never from corpus logs. exec'd by make_scenarios.py (uses v0,
# vl, frames).

# A restarting container's paste with no times at all: argparse prints its usage and error once per
# process, so the same usage then the same error again is the process started again.
case('vl2_cli_error_restarts_timeless', 'crash_loop', 'launch', '*', '\n'.join([
    'usage: vllm serve <model_tag> [options]', 'vllm serve: error: unrecognized arguments: --enable-prefix-cache'] * 3))
# The front end's traceback repeated whole: the process's opening line (here the traceback's
# header) came back before the same death, so it ran again.
_VL2_FRONT = frames([('vllm/entrypoints/cli/main.py', 'main', 'args.dispatch_function(args)'),
                     ('vllm/v1/engine/core_client.py', '__init__', 'self._wait_for_engine_startup()')],
                    'RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}')
case('vl2_front_tail_restarts_timeless', 'crash_loop', 'launch', '*', '\n'.join(_VL2_FRONT * 2))
# One death printed once, beside the opening line printed once: a single crash, not a loop.
case('vl2_front_tail_once_timeless', 'crashed', 'launch', '*', '\n'.join(
    ['usage: vllm serve <model_tag> [options]'] + _VL2_FRONT))

# Offline use printing the outputs themselves: RequestOutput's repr (a list of them, as
# print(llm.generate(...)) shows) holds the generated text, and the newer examples' "Generated
# Outputs:" block follows generate() returning.
_VL2_V0 = [('INFO', 'llm_engine.py:237', "Initializing an LLM engine (v0.6.3) with config: model='facebook/opt-125m'"),
           ('INFO', 'model_runner.py:1067', 'Loading model weights took 0.2389 GB'),
           ('INFO', 'gpu_executor.py:122', '# GPU blocks: 30000, # CPU blocks: 7281'),
           ('INFO', 'model_runner.py:1523', 'Graph capturing finished in 9 secs.')]
case('vl2_offline_request_output_repr', 'ready', 'ready', None, v0(_VL2_V0) + '\n' +
     "[RequestOutput(request_id=0, prompt='Hello, my name is', prompt_token_ids=[2, 31414], encoder_prompt=None, encoder_prompt_token_ids=None, prompt_logprobs=None, outputs=[CompletionOutput(index=0, text=' Joel', token_ids=(8302,), cumulative_logprob=None, logprobs=None, finish_reason=length, stop_reason=None)], finished=True, metrics=None, lora_request=None, num_cached_tokens=0)]")
case('vl2_offline_generated_outputs_block', 'ready', 'ready', None, v0(_VL2_V0) + '\n' + '\n'.join([
    '', 'Generated Outputs:', '-' * 60, "Prompt:    'Hello, my name is'", "Output:    ' Joel, my dad is my friend'", '-' * 60]))

# torchrun's elastic agent restarts the whole worker group after a failure while attempts are left
# (torch/distributed/elastic/agent/server/api.py logs "Worker group FAILED. 3/3 attempts left;
# will restart worker group"): vLLM's external launcher under torchrun restarts this way, so the
# line is a supervisor's restart even where the paste ends before the next try.
_VL2_ELASTIC = [
    'W1017 10:00:00.000000 4411 torch/distributed/run.py:793] Setting OMP_NUM_THREADS environment variable for each process to be 1 in default, to avoid your system being overloaded.',
    "INFO 10-17 10:00:10 [core.py:75] Initializing a V1 LLM engine (v0.10.1) with config: model='m', distributed_executor_backend=external_launcher, tensor_parallel_size=2",
    'INFO 10-17 10:00:20 [gpu_model_runner.py:1953] Starting to load model m...',
    'ERROR 10-17 10:00:40 [core.py:700] torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.00 GiB.',
    'E1017 10:00:45.871000 4411 torch/distributed/elastic/multiprocessing/api.py:874] failed (exitcode: 1) local_rank: 0 (pid: 4479) of binary: /usr/bin/python3']
case('vl2_torchrun_elastic_restart', 'crash_loop', 'weight_load', 'gpu_oom', '\n'.join(_VL2_ELASTIC + [
    '[2025-10-17 10:00:45,900] torch.distributed.elastic.agent.server.api: [WARNING] Worker group FAILED. 3/3 attempts left; will restart worker group']))
# No attempts left: torch says so and gives up; one crash, no restart.
case('vl2_torchrun_elastic_no_restart', 'crashed', 'weight_load', 'gpu_oom', '\n'.join(_VL2_ELASTIC))
