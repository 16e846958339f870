// Which rules an attempt's lines matched: rule id → RuleHit, kept in first-hit order (what the
// judge walks does not depend on hashing) and indexed by a cheap hash of the id, so a matched line
// finds its entry without hashing the whole id. Clear() keeps the entries' buffers: a long crash
// loop reuses a dropped attempt's table instead of allocating every rule's entry again.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace spinup {

struct RuleHit {
  uint64_t count = 0;
  bool quiet_only = true;  // every matched line declared a level below error (INFO, WARNING)
  std::string first_text;
  std::string last_text;
  std::optional<int64_t> last_ms;
};

class RuleHits {
 public:
  using value_type = std::pair<std::string, RuleHit>;
  using iterator = std::vector<value_type>::iterator;
  using const_iterator = std::vector<value_type>::const_iterator;

  RuleHits() = default;
  RuleHits(const RuleHits&) = default;
  RuleHits& operator=(const RuleHits&) = default;
  // A moved-from table is empty (its size must not outlive its entries).
  RuleHits(RuleHits&& o) noexcept { *this = std::move(o); }
  RuleHits& operator=(RuleHits&& o) noexcept {
    entries_ = std::move(o.entries_);
    index_ = std::move(o.index_);
    size_ = std::exchange(o.size_, 0);
    shift_ = std::exchange(o.shift_, 64);
    o.entries_.clear();
    o.index_.clear();
    return *this;
  }

  iterator begin() { return entries_.begin(); }
  iterator end() { return entries_.begin() + static_cast<std::ptrdiff_t>(size_); }
  const_iterator begin() const { return entries_.begin(); }
  const_iterator end() const { return entries_.begin() + static_cast<std::ptrdiff_t>(size_); }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

  iterator find(std::string_view id);
  const_iterator find(std::string_view id) const;
  size_t count(std::string_view id) const { return find(id) == end() ? 0 : 1; }
  // Throws std::out_of_range when absent, as a map's at() does.
  RuleHit& at(std::string_view id);
  const RuleHit& at(std::string_view id) const;
  // The entry of `id`, appended (a fresh RuleHit) when absent; second: whether it was.
  std::pair<iterator, bool> try_emplace(std::string_view id);
  // Empties the table; the entries' strings keep their buffers for the next ids.
  void Clear();

 private:
  // The index slot where `id` is or would go (its entry + 1, or 0: free).
  size_t Slot(std::string_view id) const;
  void Grow();

  std::vector<value_type> entries_;  // [0, size_) in use, the rest spare
  size_t size_ = 0;
  std::vector<uint32_t> index_;  // open addressing, linear probing; a power of two, > 4 * size_
  int shift_ = 64;
};

}  // namespace spinup
