#include "diagnose/rule_hits.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <stdexcept>

#include "base/assign.h"

namespace spinup {
namespace {

// Rule ids share prefixes ("vllm.") and often suffixes: the length and both ends, mixed.
uint64_t HashId(std::string_view id) {
  uint64_t head = 0, tail = 0;
  const size_t n = std::min<size_t>(id.size(), 8);
  std::memcpy(&head, id.data(), n);
  std::memcpy(&tail, id.data() + id.size() - n, n);
  const uint64_t h = (head * 0xff51afd7ed558ccdull) ^ (tail + id.size());
  return h * 0x9e3779b97f4a7c15ull;
}

}  // namespace

size_t RuleHits::Slot(std::string_view id) const {
  const size_t mask = index_.size() - 1;
  size_t s = static_cast<size_t>(HashId(id) >> shift_);
  while (index_[s] != 0 && entries_[index_[s] - 1].first != id) s = (s + 1) & mask;
  return s;
}

RuleHits::iterator RuleHits::find(std::string_view id) {
  if (size_ == 0) return end();
  const uint32_t e = index_[Slot(id)];
  return e == 0 ? end() : entries_.begin() + (e - 1);
}

RuleHits::const_iterator RuleHits::find(std::string_view id) const {
  if (size_ == 0) return end();
  const uint32_t e = index_[Slot(id)];
  return e == 0 ? end() : entries_.begin() + (e - 1);
}

RuleHit& RuleHits::at(std::string_view id) {
  auto it = find(id);
  if (it == end()) throw std::out_of_range("RuleHits::at");
  return it->second;
}

const RuleHit& RuleHits::at(std::string_view id) const {
  auto it = find(id);
  if (it == end()) throw std::out_of_range("RuleHits::at");
  return it->second;
}

std::pair<RuleHits::iterator, bool> RuleHits::try_emplace(std::string_view id) {
  if (4 * (size_ + 1) > index_.size()) Grow();  // at most a quarter full: probes stay short
  const size_t s = Slot(id);
  if (index_[s] != 0) return {entries_.begin() + (index_[s] - 1), false};
  if (size_ == entries_.size()) {
    entries_.emplace_back(std::string(id), RuleHit{});
  } else {
    value_type& v = entries_[size_];  // a spare entry: its strings keep their buffers
    AssignBytes(v.first, id);
    v.second.count = 0;
    v.second.quiet_only = true;
    v.second.first_text.clear();
    v.second.last_text.clear();
    v.second.last_ms.reset();
  }
  index_[s] = static_cast<uint32_t>(++size_);
  return {entries_.begin() + static_cast<std::ptrdiff_t>(size_ - 1), true};
}

void RuleHits::Clear() {
  size_ = 0;
  std::fill(index_.begin(), index_.end(), 0u);
}

void RuleHits::Grow() {
  const size_t cap = index_.empty() ? 64 : index_.size() * 2;
  index_.assign(cap, 0u);
  shift_ = 64 - std::countr_zero(cap);
  for (size_t i = 0; i < size_; ++i) index_[Slot(entries_[i].first)] = static_cast<uint32_t>(i + 1);
}

}  // namespace spinup
