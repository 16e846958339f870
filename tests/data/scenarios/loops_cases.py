# Restarts and readiness in pasted text (loops round, issue 10 items 5 and 6), written from the
# supervisors' own wording (systemd's systemctl status and start limit, supervisord's event log)
# and from how people paste a re-run by hand. exec'd by make_scenarios.py (uses case).

def lp_vllm_crash(m):
    return (f"INFO 08-20 10:{m:02d}:00 [api_server.py:1805] vLLM API server version 0.10.1\n"
            f"INFO 08-20 10:{m:02d}:02 [core.py:75] Initializing a V1 LLM engine (v0.10.1) with config: model='Qwen/Qwen3-8B'\n"
            f"INFO 08-20 10:{m:02d}:03 [gpu_model_runner.py:1953] Starting to load model Qwen/Qwen3-8B...\n"
            f"ERROR 08-20 10:{m:02d}:09 [core.py:700] EngineCore failed to start.\n"
            f"ERROR 08-20 10:{m:02d}:09 [core.py:700] Traceback (most recent call last):\n"
            f"ERROR 08-20 10:{m:02d}:09 [core.py:700]   File \"/usr/local/lib/python3.12/dist-packages/vllm/v1/worker/gpu_model_runner.py\", line 1960, in load_model\n"
            f"ERROR 08-20 10:{m:02d}:09 [core.py:700] torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.00 GiB. GPU 0 has a total capacity of 79.18 GiB of which 200.00 MiB is free.\n"
            "RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}\n")

def lp_sg_crash(h):
    return (f"[2025-09-22 {h}:00:00] server_args=ServerArgs(model_path='Qwen/Qwen3-8B', tp_size=1)\n"
            f"[2025-09-22 {h}:00:00 TP0] Init torch distributed begin.\n"
            f"[2025-09-22 {h}:00:02 TP0] Load weight begin. avail mem=78.00 GB\n"
            f"[2025-09-22 {h}:00:09 TP0] Scheduler hit an exception: Traceback (most recent call last):\n"
            '  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 1459, in run_scheduler_process\n'
            "    scheduler = Scheduler(server_args, port_args, gpu_id, tp_rank, dp_rank)\n"
            "ValueError: Unsupported architecture: FooForCausalLM\n"
            f"[2025-09-22 {h}:00:09] Received sigquit from a child process. It usually means the child failed.\n")

def lp_tgi_crash():
    return ('2025-03-04T10:00:02.101000Z  INFO text_generation_launcher: Args { model_id: "/srv/models/phi-3-mini", port: 8080, json_output: false }\n'
            '2025-03-04T10:00:02.401000Z  INFO shard-manager: text_generation_launcher: Starting shard rank=0\n'
            '2025-03-04T10:00:09.101000Z ERROR shard-manager: text_generation_launcher: Shard complete standard error output:\n'
            'ValueError: Unsupported head size: 96\n'
            '2025-03-04T10:00:09.201000Z ERROR text_generation_launcher: Shard 0 failed to start\n'
            'Error: ShardCannotStart\n')

# `systemctl status` pasted above the last run's journal: "activating (auto-restart)" is systemd
# waiting RestartSec before it starts the unit again (Restart= fired), so the start is retried.
case('lp_systemctl_auto_restart', 'crash_loop', 'weight_load', '*',
     '$ systemctl status sglang\n● sglang.service - SGLang\n'
     '     Loaded: loaded (/etc/systemd/system/sglang.service; enabled; preset: enabled)\n'
     '     Active: activating (auto-restart) (Result: exit-code) since Mon 2025-09-22 10:00:20 UTC; 4s ago\n'
     '    Process: 900 ExecStart=/usr/bin/python3 -m sglang.launch_server (code=exited, status=1/FAILURE)\n'
     '$ journalctl -u sglang -n 12\n' + lp_sg_crash(10))
# supervisord gives up only after startretries failed starts (too many start retries too quickly).
case('lp_supervisord_gave_up', 'crash_loop', 'weight_load', '*', lp_tgi_crash() +
     '2025-03-04 10:00:30,101 INFO exited: tgi (exit status 1; not expected)\n'
     '2025-03-04 10:00:31,103 INFO gave up: tgi entered FATAL state, too many start retries too quickly\n')
# Turns of the loop that only supervisord reported die where the last turn with engine lines did.
case('lp_supervisord_silent_turns', 'crash_loop', 'weight_load', '*', lp_sg_crash(10) +
     "2025-09-22 10:00:10,001 INFO exited: sglang (exit status 1; not expected)\n2025-09-22 10:00:11,003 INFO spawned: 'sglang' with pid 900\n"
     "2025-09-22 10:00:20,001 INFO exited: sglang (exit status 1; not expected)\n2025-09-22 10:00:21,003 INFO spawned: 'sglang' with pid 950\n"
     '2025-09-22 10:00:30,001 INFO exited: sglang (exit status 1; not expected)\n'
     '2025-09-22 10:00:31,003 INFO gave up: sglang entered FATAL state, too many start retries too quickly\n')
# A person who runs the server again at a shell prompt after a crash is trying a fix, not a
# supervisor restarting it: two crashed runs by hand are a crash, not a crash loop.
case('lp_manual_rerun_crash', 'crashed', 'weight_load', '*',
     '$ vllm serve Qwen/Qwen3-8B\n' + lp_vllm_crash(0) + '$ vllm serve Qwen/Qwen3-8B --enforce-eager\n' + lp_vllm_crash(1))
case('lp_manual_rerun_root_prompt', 'crashed', 'weight_load', '*',
     'root@gpu01:~# python3 -m sglang.launch_server --model-path Qwen/Qwen3-8B\n' + lp_sg_crash(10) +
     'root@gpu01:~# CUDA_VISIBLE_DEVICES=0,1 python3 -m sglang.launch_server --model-path Qwen/Qwen3-8B --tp 2\n' + lp_sg_crash(11))
# The same runs restarted by docker (no prompt between them) are a loop.
case('lp_docker_banners_loop', 'crash_loop', 'weight_load', '*', lp_vllm_crash(0) + lp_vllm_crash(1))

# Kubernetes' own words for a container that keeps dying, without a restart count: the waiting
# reason (describe's "Reason: CrashLoopBackOff", kubectl's warnings) and the kubelet's events
# counting more than one start of the container ("Started container x (x4 over 5m)").
case('lp_k8s_waiting_reason', 'crash_loop', 'weight_load', '*', lp_tgi_crash() +
     '    State:          Waiting\n      Reason:       CrashLoopBackOff\n')
case('lp_k8s_started_again', 'crash_loop', 'weight_load', '*', lp_vllm_crash(0) +
     'Events:\n  Type     Reason     Age                From               Message\n  ----     ------     ----               ----               -------\n'
     '  Normal   Created    2m (x4 over 5m)    kubelet            Created container vllm\n'
     '  Normal   Started    2m (x4 over 5m)    kubelet            Started container vllm\n')
# One start seen once by the kubelet is a single crash.
case('lp_k8s_started_once', 'crashed', 'weight_load', '*', lp_vllm_crash(0) +
     'Events:\n  Normal   Started    2m    kubelet            Started container vllm\n')

# uvicorn's "Application shutdown complete." ends a server that was up: what the engine says
# while it tears down (its core process "died unexpectedly") is the shutdown's, not a crash.
case('lp_ready_shutdown_then_engine_gone', 'ready', 'ready', None, lp_vllm_crash(0).split('ERROR')[0] +
     "INFO 08-20 10:00:05 [gpu_model_runner.py:2007] Model loading took 15.27 GiB and 21.02 seconds\n"
     "INFO 08-20 10:00:10 [kv_cache_utils.py:849] GPU KV cache size: 400,000 tokens\n"
     "INFO 08-20 10:00:13 [core.py:210] init engine (profile, create kv cache, warmup model) took 44.51 seconds\n"
     "INFO 08-20 10:00:14 [api_server.py:1] Starting vLLM API server 0 on http://0.0.0.0:8000\n"
     "INFO:     Started server process [1]\nINFO:     Waiting for application startup.\nINFO:     Application startup complete.\n"
     "INFO 08-20 11:00:00 [launcher.py:80] Shutting down FastAPI HTTP server.\nINFO:     Shutting down\n"
     "INFO:     Waiting for application shutdown.\nINFO:     Application shutdown complete.\n"
     "ERROR 08-20 11:00:01 [core_client.py:564] Engine core proc EngineCore_0 died unexpectedly, shutting down client.\n")

# A start that was up (SGLang fired up after its own warm-up; TGI's router connected and answered)
# and then died on a request ended as ready: the startup succeeded, the death is the server's
# (as vg_v101_engine_dead_after_ready for vLLM). The warm-up request's death stays a crash in
# warmup (sg_warmup_crash).
case('lp_sg_served_then_died', 'ready', 'ready', '*',
     "[2025-09-22 10:00:00] server_args=ServerArgs(model_path='Qwen/Qwen3-8B', tp_size=1)\n"
     "[2025-09-22 10:00:02 TP0] Load weight begin. avail mem=78.00 GB\n"
     "[2025-09-22 10:00:03 TP0] Load weight end. elapsed=4.58 s, type=Qwen3ForCausalLM, dtype=torch.bfloat16, avail mem=62.26 GB, mem usage=15.47 GB.\n"
     "[2025-09-22 10:00:05 TP0] Memory pool end. avail mem=6.10 GB\n"
     "[2025-09-22 10:00:08 TP0] max_total_num_tokens=400000, chunked_prefill_size=8192, max_prefill_tokens=16384, max_running_requests=4096, context_len=40960, available_gpu_mem=5.48 GB\n"
     "[2025-09-22 10:00:09] INFO:     Started server process [1234]\n[2025-09-22 10:00:09] INFO:     Waiting for application startup.\n"
     "[2025-09-22 10:00:09] INFO:     Application startup complete.\n[2025-09-22 10:00:09] INFO:     Uvicorn running on http://0.0.0.0:30000 (Press CTRL+C to quit)\n"
     '[2025-09-22 10:00:10] INFO:     127.0.0.1:5 - "GET /get_model_info HTTP/1.1" 200 OK\n'
     "[2025-09-22 10:00:11 TP0] Prefill batch. #new-seq: 1, #new-token: 7, #cached-token: 0, token usage: 0.00, #running-req: 0, #queue-req: 0\n"
     '[2025-09-22 10:00:12] INFO:     127.0.0.1:6 - "POST /generate HTTP/1.1" 200 OK\n[2025-09-22 10:00:12] The server is fired up and ready to roll!\n'
     "[2025-09-22 10:05:00 TP0] Decode batch. #running-req: 4, #token: 1500, token usage: 0.01, gen throughput (token/s): 300.1, #queue-req: 0\n"
     "[2025-09-22 10:05:01 TP0] Scheduler hit an exception: Traceback (most recent call last):\n"
     '  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 2000, in run_scheduler_process\n    scheduler.event_loop_overlap()\n'
     "RuntimeError: CUDA error: an illegal memory access was encountered\n"
     "[2025-09-22 10:05:01] Received sigquit from a child process. It usually means the child failed.\n")
case('lp_tgi_served_then_shard_crashed', 'ready', 'ready', '*',
     '2025-03-04T10:00:00.618817Z  INFO text_generation_launcher: Args { model_id: "m", num_shard: Some(1) }\n'
     '2025-03-04T10:00:04.618817Z  INFO shard-manager: text_generation_launcher: Starting shard rank=0\n'
     '2025-03-04T10:00:06.618817Z  INFO shard-manager: text_generation_launcher: Shard ready in 20.1s rank=0\n'
     '2025-03-04T10:00:08.618817Z  INFO text_generation_launcher: Starting Webserver\n'
     '2025-03-04T10:00:09.618817Z  INFO text_generation_router_v3: backends/v3/src/lib.rs:125: Warming up model\n'
     '2025-03-04T10:00:13.618817Z  INFO text_generation_router::server: router/src/server.rs:2302: Connected\n'
     '2025-03-04T10:01:00.000000Z  INFO chat_completions{total_time="1.2s"}: text_generation_router::server: router/src/server.rs:620: Success\n'
     '2025-03-04T10:02:00.000000Z ERROR batch{batch_size=1}:decode:decode{size=1}: text_generation_router_v3::client: backends/v3/src/client/mod.rs:54: Server error: CUDA error: an illegal memory access was encountered\n'
     '2025-03-04T10:02:01.100000Z ERROR shard-manager: text_generation_launcher: Shard process was signaled to shutdown with signal 6 rank=0\n'
     '2025-03-04T10:02:01.200000Z ERROR text_generation_launcher: Shard 0 crashed\n'
     '2025-03-04T10:02:02.100000Z  INFO text_generation_launcher: Shutting down shards\nError: ShardFailed\n')
