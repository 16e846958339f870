// The watch loop's notion of time, injected so that tests can drive it without sleeping.
#pragma once

#include <cstdint>

namespace spinup {

class Clock {
 public:
  virtual ~Clock() = default;
  // Wall clock in Unix milliseconds (the unit of LogEvent/Sample times).
  virtual int64_t NowMs() = 0;
};

class SystemClock final : public Clock {
 public:
  int64_t NowMs() override;
};

// A clock that only moves when told to (tests).
class FakeClock final : public Clock {
 public:
  explicit FakeClock(int64_t start_ms = 1'700'000'000'000) : now_ms_(start_ms) {}
  int64_t NowMs() override { return now_ms_; }
  void AdvanceMs(int64_t ms) { now_ms_ += ms; }
  void SetMs(int64_t ms) { now_ms_ = ms; }

 private:
  int64_t now_ms_;
};

}  // namespace spinup
