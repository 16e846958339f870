// The figures in PyTorch's out-of-memory message ("GPU 0 has a total capacity of 191.98 GiB of
// which 1.12 GiB is free. ... Of the allocated memory 10.88 GiB is allocated by PyTorch"): from
// them, how much of the device some other process holds.
#pragma once

#include <optional>
#include <string_view>

namespace spinup {

struct GpuOomFigures {
  double total_bytes = 0;
  double free_bytes = 0;
  // What this process holds as PyTorch counts it (allocated + reserved but unallocated; the old
  // message's "reserved in total by PyTorch").
  double pytorch_bytes = 0;
  // "Including non-PyTorch memory, this process has X memory in use": everything this process
  // holds (CUDA context, NCCL buffers, other allocators). nullopt where the message lacks it.
  std::optional<double> this_process_bytes;

  // The device's memory in use by other processes: what is neither free nor this process's.
  // Without the this-process figure it is an upper bound (non-PyTorch memory counts as others').
  double HeldElsewhereBytes() const;
};

// The figures of one line of a CUDA/HIP out-of-memory message, in either of PyTorch's wordings
// (2.1+: "has a total capacity of ... of which ... is free", older: "(GPU 0; 23.65 GiB total
// capacity; 22.88 GiB already allocated; 5.06 MiB free; 23.20 GiB reserved in total by
// PyTorch)"). nullopt where the line has no such figures.
std::optional<GpuOomFigures> ParseGpuOomFigures(std::string_view line);

}  // namespace spinup
