# Red-team round (twenty-first): classes found by writing fresh logs from the engines' sources.

# TGI's launcher on SIGTERM/SIGINT (docker stop, a pod deleted) only terminates its children:
# "Terminating shard" / "shard terminated" with no ^C echo. A stop, unless a crash came first.
TWAIT = [('INFO','shard-manager: ','Waiting for shard to be ready... rank=0'),
         ('INFO','shard-manager: ','Waiting for shard to be ready... rank=1')]
TTERM = [('INFO','','Shutting down shards'),
         ('INFO','shard-manager: ','Terminating shard rank=0'),
         ('INFO','shard-manager: ','Waiting for shard to gracefully shutdown rank=0'),
         ('INFO','shard-manager: ','Terminating shard rank=1'),
         ('INFO','shard-manager: ','shard terminated rank=0'),
         ('INFO','shard-manager: ','shard terminated rank=1')]
case('rt_tgi_docker_stop_during_load', 'stopped', 'weight_load', None, tg(THEAD + TWAIT + TTERM))
case('rt_tgi_stop_during_warmup', 'stopped', 'kv_cache', None, tg(THEAD + [
    ('INFO','shard-manager: ','Shard ready in 20.1s rank=0'), ('INFO','shard-manager: ','Shard ready in 20.3s rank=1'),
    ('INFO','','Starting Webserver'), ('INFO','text_generation_router_v3: ','backends/v3/src/lib.rs:125: Warming up model'),
    ('INFO','','Terminating webserver'), ('INFO','','Waiting for webserver to gracefully shutdown'),
    ('INFO','','webserver terminated')] + TTERM))
# Guard: the launcher terminates the other shards after one failed too; that stays a crash.
case('rt_tgi_shard_fails_then_terminate', 'crashed', 'weight_load', '*', tg(THEAD + TWAIT + [
    ('ERROR','shard-manager: ','Shard complete standard error output:\n\ntorch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 224.00 MiB'),
    ('ERROR','','Shard 0 failed to start')] + TTERM + [('ERROR','','Error: ShardCannotStart')]))
