# A job over several nodes known by its ranks (nineteenth round): TP ranks past one node's GPUs
# (thresholds.gpus_per_node, 8) mean several nodes even where the launch flags that say so
# (--nnodes, --dist-init-addr) were cut from the excerpt or the server_args line was truncated:
# the rendezvous between nodes is offered, never single-node PCIe P2P. exec'd by make_scenarios.py.
def _mn2_dist_begin(ranks):
    return '\n'.join(sg(['Init torch distributed begin.'], tp=r) for r in ranks)
# Sixteen ranks stop in the distributed set-up: the nodes do not reach each other.
case('mn2_sg_tp16_dist_hang_by_ranks', 'stalled', 'distributed_init', 'rendezvous',
     "[2025-09-22 10:00:00] server_args=ServerArgs(model_path='deepseek-ai/DeepSeek-V3', tokenizer_path='deepseek-ai/DeepSeek-V3', tp_size=16, trust_re>\n" +
     _mn2_dist_begin(range(16)) + '\n[2025-09-22 10:20:00] Waiting for scheduler\n')
# The second node's ranks alone (TP8-TP15), as a reporter pastes that node's log.
case('mn2_sg_second_node_ranks_hang', 'stalled', 'distributed_init', 'rendezvous',
     _mn2_dist_begin(range(8, 16)) + '\n[2025-09-22 10:20:00] Waiting for scheduler\n')
# Eight ranks fit one node: the same stop is the single-node P2P case.
case('mn2_sg_tp8_dist_hang_one_node', 'stalled', 'distributed_init', 'nccl_p2p',
     "[2025-09-22 10:00:00] server_args=ServerArgs(model_path='Qwen/Qwen3-235B', tp_size=8)\n" +
     _mn2_dist_begin(range(8)) + '\n[2025-09-22 10:20:00] Waiting for scheduler\n')

# vLLM on a Ray cluster: Ray tags a worker's lines with its node's address ("(RayWorkerWrapper
# pid=1890, ip=10.0.0.2) ") only where the worker runs on another node than the driver. Four ranks
# and no launch flag in the excerpt, yet two nodes: a stop in NCCL's set-up is the rendezvous.
_MN2_RAY_HEAD = v0([('INFO', 'api_server.py:219', 'vLLM API server version 0.6.3'),
                    ('INFO', 'llm_engine.py:237', "Initializing an LLM engine (v0.6.3) with config: model='m', tensor_parallel_size=4, pipeline_parallel_size=1")])
case('mn2_vllm_ray_remote_workers_nccl_hang', 'stalled', 'distributed_init', 'rendezvous', _MN2_RAY_HEAD + '\n' +
     v0([('INFO', 'utils.py:1008', 'Found nccl from library libnccl.so.2'), ('INFO', 'pynccl.py:63', 'vLLM is using nccl==2.20.5')], m=1) + '\n' +
     v0([('INFO', 'utils.py:1008', 'Found nccl from library libnccl.so.2'), ('INFO', 'pynccl.py:63', 'vLLM is using nccl==2.20.5')],
        tag='(RayWorkerWrapper pid=1890, ip=10.0.0.2) ', m=1) + '\n' + '[2025-08-20 10:30:00] (no output since)\n')
# The same with every worker on the driver's node (no address in the tags): single-node P2P.
case('mn2_vllm_ray_local_workers_nccl_hang', 'stalled', 'distributed_init', 'nccl_p2p', _MN2_RAY_HEAD + '\n' +
     v0([('INFO', 'utils.py:1008', 'Found nccl from library libnccl.so.2'), ('INFO', 'pynccl.py:63', 'vLLM is using nccl==2.20.5')], m=1) + '\n' +
     v0([('INFO', 'utils.py:1008', 'Found nccl from library libnccl.so.2'), ('INFO', 'pynccl.py:63', 'vLLM is using nccl==2.20.5')],
        tag='(RayWorkerWrapper pid=1890) ', m=1) + '\n' + '[2025-08-20 10:30:00] (no output since)\n')

# Each node's log pasted one after the other: SGLang's server_args names the node (node_rank=1),
# and the second banner is stamped within the first node's lines. One start seen from two nodes,
# not a restart: crashed, not a crash loop.
def _mn2_node(node, h_ranks, err, sec):
    args = (f"server_args=ServerArgs(model_path='deepseek-ai/DeepSeek-V3', tp_size=16, nnodes=2, "
            f"node_rank={node}, dist_init_addr='10.0.0.1:5000')")
    return (f'[2025-09-22 10:00:0{sec}] {args}\n' + _mn2_dist_begin(h_ranks).replace('10:00:00', f'10:00:1{sec}') + '\n' +
            sg(['Scheduler hit an exception: Traceback (most recent call last):'] +
               pyframes([('managers/scheduler.py', 'run_scheduler_process'), ('distributed/parallel_state.py', 'init_distributed_environment')]) +
               [err], tp=h_ranks[0], m=30))
case('mn2_sg_two_nodes_logs_pasted', 'crashed', 'distributed_init', 'rendezvous',
     _mn2_node(0, [0, 1], 'torch.distributed.DistStoreError: Timed out after 1801 seconds waiting for clients. 8/16 clients joined.', 0) + '\n' +
     _mn2_node(1, [8, 9], 'torch.distributed.DistNetworkError: The client socket has timed out after 1800000ms while trying to connect to (10.0.0.1, 5000).', 1) + '\n')
# The first node's own restart (node_rank=0 again, stamped after its crash): a loop.
case('mn2_sg_same_node_restarts', 'crash_loop', 'distributed_init', '*',
     _mn2_node(0, [0, 1], 'torch.distributed.DistStoreError: Timed out after 1801 seconds waiting for clients. 8/16 clients joined.', 0) + '\n' +
     _mn2_node(0, [0, 1], 'torch.distributed.DistStoreError: Timed out after 1801 seconds waiting for clients. 8/16 clients joined.', 0).replace('[2025-09-22 10:', '[2025-09-22 11:') + '\n')

# vLLM 0.13+ over two nodes: the head serves HTTP, the other node runs the headless executor
# ("Launching vLLM (vX) headless multiproc executor, with head node address ..."), which only a
# node beside the head runs. Its log pasted after the head's is the same start.
case('mn2_vllm_head_then_headless_logs', 'crashed', 'distributed_init', 'rendezvous',
     vl([('INFO', 'api_server.py:1805', 'vLLM API server version 0.13.0'),
         ('INFO', 'utils.py:326', "non-default args: {'model': 'deepseek-ai/DeepSeek-V3', 'tensor_parallel_size': 8, 'data_parallel_size': 2, 'nnodes': 2, 'node_rank': 0}")],
        '(APIServer pid=1) ') + '\n' +
     vl([('INFO', 'core.py:75', "Initializing a V1 LLM engine (v0.13.0) with config: model='deepseek-ai/DeepSeek-V3'")] +
        [('INFO', 'parallel_state.py:1200', 'waiting for the other node')] * 40 +
        [('ERROR', 'core.py:700', 'EngineCore failed to start.'),
         ('ERROR', 'core.py:700', 'torch.distributed.DistStoreError: Timed out after 1801 seconds waiting for clients. 8/16 clients joined.')],
        '(EngineCore_DP0 pid=200) ') + '\n' +
     vl([('INFO', 'api_server.py:1805', 'Launching vLLM (v0.13.0) headless multiproc executor, with head node address tcp://10.0.0.1:13345 for torch.distributed process group.'),
         ('INFO', 'utils.py:326', "non-default args: {'model': 'deepseek-ai/DeepSeek-V3', 'tensor_parallel_size': 8, 'nnodes': 2, 'node_rank': 1, 'headless': True}"),
         ('ERROR', 'multiproc_executor.py:700', 'WorkerProc failed to start.'),
         ('ERROR', 'multiproc_executor.py:700', 'torch.distributed.DistNetworkError: The client socket has timed out after 1800000ms while trying to connect to (10.0.0.1, 29500).')]) + '\n')
