// Parsing untrusted JSON (safetensors headers, an index, config.json, event-stream lines, rules
// files) with its memory bounded by the input's structure, not just its size. A DOM costs about
// 50-150 bytes per value whatever the value's text length, so "[[],[],...]" of 100 MB would take
// gigabytes. A first pass (SAX, no tree built) counts nesting depth and values and stops at the
// first budget exceeded; the DOM is built only for documents within budget.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string_view>

#include "spinup/status.h"

namespace spinup {

struct JsonLimits {
  size_t max_depth = 64;          // nested arrays/objects
  size_t max_values = 1'000'000;  // every value counts: scalars, arrays, objects, object keys
};

// Memory shared by parses running at once (the loader reads up to 16 headers in parallel): a DOM
// of N values is built only after N is reserved here, and released when the caller's tree dies.
// Bounds the sum over threads, not just each parse.
class JsonValueBudget {
 public:
  explicit JsonValueBudget(uint64_t total_values) : total_(total_values) {}
  // Blocks until `n` values fit; false (at once) when `n` exceeds the whole budget.
  bool Acquire(uint64_t n);
  void Release(uint64_t n);
  uint64_t total() const { return total_; }

 private:
  const uint64_t total_;
  uint64_t used_ = 0;
  std::mutex mu_;
  std::condition_variable cv_;
};

// The reservation a bounded parse holds while its tree lives.
class JsonReservation {
 public:
  JsonReservation() = default;
  JsonReservation(JsonValueBudget* budget, uint64_t n) : budget_(budget), n_(n) {}
  JsonReservation(JsonReservation&& o) noexcept : budget_(o.budget_), n_(o.n_) {
    o.budget_ = nullptr;
  }
  JsonReservation& operator=(JsonReservation&& o) noexcept;
  JsonReservation(const JsonReservation&) = delete;
  JsonReservation& operator=(const JsonReservation&) = delete;
  ~JsonReservation() {
    if (budget_) budget_->Release(n_);
  }

 private:
  JsonValueBudget* budget_ = nullptr;
  uint64_t n_ = 0;
};

struct BoundedJson {
  nlohmann::json value;
  size_t values = 0;            // what the first pass counted
  JsonReservation reservation;  // keep alive as long as `value`
};

// kCorrupt with a short reason ("not valid JSON at byte 123", "nested deeper than 64",
// "more than 1000000 values") when the text is not within `limits`. With `budget`, the DOM is
// built only once its values are reserved there.
Result<BoundedJson> ParseJsonBounded(std::string_view text, const JsonLimits& limits,
                                     JsonValueBudget* budget = nullptr);

}  // namespace spinup
