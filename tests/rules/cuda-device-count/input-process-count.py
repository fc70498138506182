# devport-test: rules=all
"""A device count as the number of processes a call starts: with no CUDA device it started none
and the script passed doing nothing; ported, a Mac or an XPU host starts them, and what they
run is the count's guarded code (directly or through a name)."""
import torch
import torch.distributed as dist
import torch.multiprocessing as mp


def worker(rank, world_size):
    dist.init_process_group("nccl", rank=rank, world_size=world_size)
    t = torch.ones(1).cuda(rank)
    dist.all_reduce(t)


def gloo_worker(rank, world_size):
    dist.init_process_group("gloo", rank=rank, world_size=world_size)
    dist.all_reduce(torch.ones(1))


def ranged_worker(rank):
    torch.cuda.nvtx.range_push(f"rank {rank}")


def entry(rank, options):
    return ranged_worker(rank)


def direct():
    mp.spawn(
        worker,
        args=(torch.cuda.device_count(),),  # expect: cuda-device-count:safe -- only a value the worker gets
        nprocs=torch.cuda.device_count(),  # expect: cuda-device-count:unsafe -- the worker's .cuda(rank) ports only unsafely
    )


def through_a_name():
    world_size = torch.cuda.device_count()  # expect: cuda-device-count:unsafe -- nprocs=world_size starts the worker
    mp.spawn(worker, args=(world_size,), nprocs=world_size)


def portable_worker():
    mp.spawn(gloo_worker, args=(2,), nprocs=torch.cuda.device_count())  # expect: cuda-device-count:safe -- the worker runs anywhere


def kept_worker():
    mp.start_processes(ranged_worker, nprocs=torch.cuda.device_count())  # expect: cuda-device-count:report -- the worker's NVTX range is CUDA's


def through_a_helper(options):
    count = torch.cuda.device_count()  # expect: cuda-device-count:report -- the entry point calls the NVTX worker
    if count <= 1:
        print("one process")
    options.world_size = count
    mp.spawn(entry, args=(options,), nprocs=count)


def positional():
    mp.spawn(worker, (2,), torch.cuda.device_count())  # expect: cuda-device-count:unsafe -- spawn's third positional argument is nprocs


def positional_through_a_name():
    n = torch.cuda.device_count()  # expect: cuda-device-count:report -- start_processes(ranged_worker, (), n) starts the NVTX worker
    torch.multiprocessing.start_processes(ranged_worker, (), n)


def positional_args_tuple():
    mp.spawn(worker, (torch.cuda.device_count(),), 2)  # expect: cuda-device-count:safe -- only a value the worker gets


def not_a_spawn():
    print(worker, (2,), torch.cuda.device_count())  # expect: cuda-device-count:safe -- print starts no process
