// A checkpoint's size, guessed from what a log says of it before the weights are read: the model's
// name in the launch banner ("Llama-3.1-405B-Instruct-AWQ") or the shard count of the loader's bar.
// Only a budget uses it (weight loading's normal and stall times scale with the checkpoint), so a
// rough figure is enough, and none is better than a wrong one.
#ifndef SPINUP_DIAGNOSE_MODEL_SIZE_H_
#define SPINUP_DIAGNOSE_MODEL_SIZE_H_

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "diagnose/knowledge.h"

namespace spinup {

// The bytes of the model a banner names (model=, model_id:, model_path=, --model): its parameter
// count ("70B", "8x7B", "235B-A22B": the total) times the bytes a weight takes (4-bit names 0.5,
// 8-bit and FP8 names 1, else 2). A name with no count of its own that holds a family's name in
// `families` (longest first) is that family's size, in its published bytes per weight unless the
// name says it was quantized. Empty when neither gives a size.
std::optional<uint64_t> CheckpointBytesFromBanner(
    std::string_view banner, const std::vector<ModelFamilySize>& families = {});

// A checkpoint of `shards` safetensors files: the Hub's writers cap a shard at about 5 GB, and most
// shards of a large checkpoint are full, so 4 GiB each is a floor that holds.
uint64_t CheckpointBytesFromShards(int64_t shards);

// A size the loader states ("Prefetching 392.54GB checkpoint files"): the first number followed by
// MB, GB or TB (also MiB, GiB, TiB). Empty when the line states none.
std::optional<uint64_t> CheckpointBytesStated(std::string_view line);

}  // namespace spinup

#endif  // SPINUP_DIAGNOSE_MODEL_SIZE_H_
