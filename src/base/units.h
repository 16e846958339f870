// Byte sizes and rates as people type them ("96GiB", "500MB/s", "2.2GB/s") and as spinup prints
// them. Pure functions: no I/O, no locale.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "spinup/status.h"

namespace spinup {

// A byte count: a non-negative decimal number with an optional unit. Units are case-insensitive:
// B; K, KB, M, MB, G, GB, T, TB, P, PB (powers of 1000); KiB, MiB, GiB, TiB, PiB (powers of 1024).
// Fractions round to the nearest byte. Fails on junk, negative values or more than 2^64-1 bytes.
Result<uint64_t> ParseByteSize(std::string_view text);

// A rate in bytes per second: a size as above, optionally followed by "/s" ("2.2GB/s", "500MB").
// Zero is rejected (it would predict an infinite load time).
Result<double> ParseByteRate(std::string_view text);

// Decimal units, one decimal place above 1 kB: "241.5 GB", "512 B".
std::string FormatBytes(uint64_t bytes);
// Binary units, one decimal place: "1.5 GiB".
std::string FormatBytesBinary(uint64_t bytes);
// "500 MB/s", "2.2 GB/s".
std::string FormatRate(double bytes_per_s);
// A rough duration for people: "under 1 s", "about 40 s", "about 8 min", "about 2 h 5 min".
std::string FormatApproxDuration(double seconds);

}  // namespace spinup
