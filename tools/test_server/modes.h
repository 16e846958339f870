// The test server's four modes; main() picks one from the flags.
#pragma once

namespace test_server {

// A rank child (--rank-child): plays one scheduler's startup, then idles or hangs or crashes.
[[noreturn]] void RankMain();

// The launcher: spawns the ranks, relays their fate, serves HTTP once all are ready. Returns the
// exit code.
int RunMain();

// --replay LOG: the log's lines, with the gaps between their timestamps scaled.
int Replay();

// --generate-model DIR: a small valid safetensors checkpoint (U8 tensors) plus config.json.
int GenerateModel();

}  // namespace test_server
