#include "diagnose/rank_format.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <utility>

namespace spinup {
namespace {

std::string RankLabel(const std::string& r) { return r.empty() ? "main" : r; }

// The number that orders ranks in a range: TP index when present, else the last number.
std::optional<std::pair<std::string, int>> RankKey(const std::string& r) {
  size_t tp = r.find("TP");
  size_t start = std::string::npos;
  if (tp != std::string::npos && tp + 2 < r.size() &&
      std::isdigit(static_cast<unsigned char>(r[tp + 2]))) {
    start = tp + 2;
  } else {
    size_t k = r.size();
    while (k > 0 && std::isdigit(static_cast<unsigned char>(r[k - 1]))) --k;
    if (k == r.size()) return std::nullopt;
    start = k;
  }
  size_t end = start;
  while (end < r.size() && std::isdigit(static_cast<unsigned char>(r[end]))) ++end;
  if (end - start > 6) return std::nullopt;
  std::string prefix = r.substr(0, start);
  // "TP3_EP3" ranges as TP, "DP1_TP3_EP3" as DP1_TP: TP ranks of different DP groups are
  // different processes, never one range.
  if (tp != std::string::npos) prefix = r.substr(0, tp) + "TP";
  return std::make_pair(prefix, std::stoi(r.substr(start, end - start)));
}

}  // namespace

std::string FormatRanks(const std::vector<std::string>& ranks) {
  if (ranks.empty()) return "";
  if (ranks.size() == 1) return RankLabel(ranks[0]);
  // Ranges per prefix ("DP0_TP0\u2013DP0_TP3, DP1_TP0\u2013DP1_TP3"), when every rank has one.
  std::map<std::string, std::vector<int>> groups;
  bool rangeable = true;
  for (const auto& r : ranks) {
    auto k = RankKey(r);
    if (!k) {
      rangeable = false;
      break;
    }
    groups[k->first].push_back(k->second);
  }
  if (rangeable && groups.size() <= 8) {
    std::string out;
    for (auto& [prefix, nums] : groups) {
      std::sort(nums.begin(), nums.end());
      nums.erase(std::unique(nums.begin(), nums.end()), nums.end());
      for (size_t i = 0; i < nums.size();) {
        size_t j = i;
        while (j + 1 < nums.size() && nums[j + 1] == nums[j] + 1) ++j;
        if (!out.empty()) out += ", ";
        out += prefix + std::to_string(nums[i]);
        if (j > i) out += "\u2013" + prefix + std::to_string(nums[j]);
        i = j + 1;
      }
    }
    return out;
  }
  std::string out;
  for (size_t i = 0; i < ranks.size() && i < 8; ++i) {
    if (i) out += ", ";
    out += RankLabel(ranks[i]);
  }
  if (ranks.size() > 8) out += fmt::format(" and {} more", ranks.size() - 8);
  return out;
}

std::string_view PeerGroup(std::string_view rank) {
  const auto digits = [&] {
    while (!rank.empty() && rank.back() >= '0' && rank.back() <= '9') rank.remove_suffix(1);
  };
  digits();
  // vLLM's expert-parallel workers (Worker_TP1_EP1): the expert rank follows the tensor-parallel
  // one inside a data-parallel group, so they are that group's peers.
  if (rank.ends_with("_EP")) {
    rank.remove_suffix(3);
    digits();
  }
  return rank;
}

bool IndependentGroup(std::string_view group, const std::vector<std::string>& independent) {
  return std::any_of(independent.begin(), independent.end(),
                     [&](const std::string& end) { return group.ends_with(end); });
}

int RankIndex(std::string_view rank, std::string_view word) {
  if (word.empty()) return -1;
  for (size_t at = 0; at < rank.size();) {
    const size_t end = std::min(rank.find('_', at), rank.size());
    const std::string_view token = rank.substr(at, end - at);
    if (token.size() > word.size() && token.size() - word.size() <= 6 && token.starts_with(word)) {
      int n = 0;
      bool digits = true;
      for (char ch : token.substr(word.size())) {
        digits = digits && ch >= '0' && ch <= '9';
        if (digits) n = n * 10 + (ch - '0');
      }
      if (digits) return n;
    }
    at = end + 1;
  }
  return -1;
}

}  // namespace spinup
