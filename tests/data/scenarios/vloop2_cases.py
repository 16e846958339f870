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
