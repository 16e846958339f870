#include "live/startup_model.h"

namespace spinup {

Result<std::unique_ptr<SessionStartupModel>> SessionStartupModel::Create(
    const StartupModelConfig& config) {
  auto rules = LoadRules(config.rules_files);
  if (!rules.ok()) return rules.status();
  auto owned = std::make_unique<RuleSet>(std::move(*rules));
  const RuleSet& ref = *owned;
  return std::unique_ptr<SessionStartupModel>(
      new SessionStartupModel(std::move(owned), ref, config.session));
}

std::unique_ptr<SessionStartupModel> SessionStartupModel::Borrowing(const RuleSet& rules,
                                                                    SessionOptions options) {
  return std::unique_ptr<SessionStartupModel>(
      new SessionStartupModel(nullptr, rules, std::move(options)));
}

SessionStartupModel::SessionStartupModel(std::unique_ptr<RuleSet> owned, const RuleSet& rules,
                                         SessionOptions options)
    : owned_rules_(std::move(owned)) {
  options.live = true;
  session_ = std::make_unique<StartupSession>(rules, options);
}

}  // namespace spinup
