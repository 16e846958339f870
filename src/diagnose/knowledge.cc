#include "diagnose/knowledge.h"

namespace spinup {

PhaseBudget StartupKnowledge::Budget(std::string_view engine, Phase phase) const {
  const PhaseBudget* any = nullptr;
  const PhaseBudget* specific = nullptr;
  for (const auto& b : budgets) {
    if (b.phase != phase) continue;
    if (b.engine == engine) specific = &b;  // later files override earlier ones
    if (b.engine == "*") any = &b;
  }
  if (specific) return *specific;
  if (any) return *any;
  PhaseBudget fallback;
  fallback.phase = phase;
  return fallback;
}

std::vector<Phase> StartupKnowledge::PhaseOrder(std::string_view engine) const {
  for (auto it = orders.rbegin(); it != orders.rend(); ++it) {
    if (it->first == engine) return it->second;
  }
  std::vector<Phase> order;
  for (int i = 0; i < kPhaseCount; ++i) order.push_back(static_cast<Phase>(i));
  return order;
}

EngineRanks StartupKnowledge::Ranks(std::string_view engine) const {
  for (auto it = ranks.rbegin(); it != ranks.rend(); ++it) {
    if (it->first == engine) return it->second;
  }
  return {};
}

}  // namespace spinup
