# A traceback drawn by rich (nineteenth round): TGI's shard CLI (Typer's pretty exceptions) dies
# with its frames in a box, each header `path:line in name` folded over rows where the panel is
# narrower than the path, the failing line marked `❱` (src/logs/rich_traceback.h). Its frames
# name the phase as Python's own lines would. Wording from TGI's server (cli.py serve,
# server.py serve_inner, utils/weights.py, utils/dist.py) and rich's Traceback, not corpus logs.
# exec'd by make_scenarios.py.
def _rich_panel(frames, width=80):
    # frames: [(path, line, function, code)], drawn as rich draws them at `width` columns.
    inner = width - 4
    def row(text):
        return '│ ' + text.ljust(inner) + ' │'
    top = ' Traceback (most recent call last) '
    side = (width - 2 - len(top)) // 2
    out = ['╭' + '─' * side + top + '─' * (width - 2 - side - len(top)) + '╮']
    for i, (path, line, fn, code) in enumerate(frames):
        head = f'{path}:{line} in {fn}'
        while len(head) > inner:  # rich breaks at the last space that fits, else folds the word
            cut = head.rfind(' ', 0, inner + 1)
            cut = cut if cut > 0 else inner
            out.append(row(head[:cut].rstrip()))
            head = head[cut:].lstrip()
        out.append(row(head))
        out += [row(''), row(f'❱ {line:>3} │   {code}'), row('')] if code else [row('')]
    out.append('╰' + '─' * (width - 2) + '╯')
    return out

_RICH_SITE = '/opt/conda/lib/python3.11/site-packages/text_generation_server'
_RICH_SERVE = [(f'{_RICH_SITE}/cli.py', 117, 'serve', 'server.serve('),
               (f'{_RICH_SITE}/server.py', 315, 'serve', 'asyncio.run('),
               (f'{_RICH_SITE}/server.py', 268, 'serve_inner', 'model = get_model_with_lora_adapters(')]
def _rich_shard_crash(frames, exc):
    return '\n'.join([
        '2024-05-01T10:00:20.000000Z ERROR shard-manager: text_generation_launcher: Shard complete standard error output:', ''] +
        _rich_panel(frames) + [exc, ' rank=0',
        '2024-05-01T10:00:20.100000Z ERROR text_generation_launcher: Shard 0 failed to start',
        '2024-05-01T10:00:20.100000Z  INFO text_generation_launcher: Shutting down shards', 'Error: ShardCannotStart']) + '\n'

# Only the shard's stderr pasted: its frames run through the sharded weights' loader.
case('rich_tgi_shard_load_frames_only', 'crashed', 'weight_load', '*', _rich_shard_crash(_RICH_SERVE + [
    (f'{_RICH_SITE}/models/flash_causal_lm.py', 991, '__init__', 'model = model_class(prefix, config, weights)'),
    (f'{_RICH_SITE}/utils/weights.py', 212, 'get_sharded', 'return self.get_partial_sharded(tensor_name, dim)')],
    'AssertionError: 32001 is not divisible by 2'))
# Two shards: the process group's set-up (utils/dist.py), whose init_process_group call rich marks;
# the exception alone names no phase.
case('rich_tgi_shard_dist_frames_only', 'crashed', 'distributed_init', '*', _rich_shard_crash(_RICH_SERVE + [
    (f'{_RICH_SITE}/models/flash_causal_lm.py', 940, '__init__', 'self.process_group, rank, world_size = initialize_torch_distributed()'),
    (f'{_RICH_SITE}/utils/dist.py', 80, 'initialize_torch_distributed', 'torch.distributed.init_process_group('),
    ('/opt/conda/lib/python3.11/site-packages/torch/distributed/c10d_logger.py', 79, 'wrapper', 'return func(*args, **kwargs)')],
    'ValueError: Error initializing torch.distributed using env:// rendezvous: environment variable MASTER_ADDR expected, but not set'))
