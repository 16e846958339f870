# NCCL errors in vLLM's own wording (issue 10, class 7): vLLM's pynccl wrapper raises
# RuntimeError(f"NCCL error: {error_str}") with NCCL's own string (vllm/distributed/
# device_communicators/pynccl_wrapper.py), where torch says "NCCL error in: ..., unhandled cuda
# error" and then "ncclUnhandledCudaError". Written from those sources, not from corpus logs.
# exec'd by make_scenarios.py (uses vl, VHEAD, logged, F_CORE).
_NE_FRAMES = F_CORE + [('vllm/v1/worker/gpu_worker.py', 'init_device', 'init_worker_distributed_environment(self.vllm_config, self.rank,'),
                       ('vllm/distributed/device_communicators/pynccl.py', '__init__', 'self.comm: ncclComm_t = self.nccl.ncclCommInitRank('),
                       ('vllm/distributed/device_communicators/pynccl_wrapper.py', 'NCCL_CHECK', 'raise RuntimeError(f"NCCL error: {error_str}")')]
# One node, the error alone: the start died in NCCL's setup, where broken PCIe peer-to-peer is the
# usual reason (named after any cause with evidence of its own).
case('ne_v1_pynccl_unhandled_cuda', 'crashed', 'distributed_init', 'nccl_p2p', vl(VHEAD + logged(
    'EngineCore failed to start.', _NE_FRAMES,
    'RuntimeError: NCCL error: unhandled cuda error (run with NCCL_DEBUG=INFO for details)')))
# Two nodes: the same words are no single-node P2P fault; the nodes' rendezvous is named (the
# multi-node flag is read in vLLM's non-default args, a line that is otherwise noise).
case('ne_v1_pynccl_unhandled_cuda_two_nodes', 'crashed', 'distributed_init', 'rendezvous', vl(
    [VHEAD[0], ('INFO', 'utils.py:326', "non-default args: {'model': 'Qwen/Qwen3-8B', 'tensor_parallel_size': 8, 'pipeline_parallel_size': 2, 'nnodes': 2}")]
    + VHEAD[2:] + logged('EngineCore failed to start.', _NE_FRAMES,
    'RuntimeError: NCCL error: unhandled cuda error (run with NCCL_DEBUG=INFO for details)')))
# A system error is no CUDA call failing: shared memory named on the next lines is its cause.
case('ne_v1_pynccl_system_error_shm', 'crashed', 'distributed_init', 'dev_shm', vl(VHEAD + logged(
    'EngineCore failed to start.', _NE_FRAMES,
    ['RuntimeError: NCCL error: unhandled system error (run with NCCL_DEBUG=INFO for details)',
     'Error while creating shared memory segment /dev/shm/nccl-Xb2 (size 9637888)'])))
# The second node's own log: its node rank says there are several.
case('ne_v1_pynccl_unhandled_cuda_node_rank', 'crashed', 'distributed_init', 'rendezvous', vl(
    [VHEAD[0], ('INFO', 'utils.py:326', "non-default args: {'model': 'Qwen/Qwen3-8B', 'tensor_parallel_size': 8, 'node_rank': 1, 'headless': True}")]
    + VHEAD[2:] + logged('EngineCore failed to start.', _NE_FRAMES,
    'RuntimeError: NCCL error: unhandled cuda error (run with NCCL_DEBUG=INFO for details)')))
