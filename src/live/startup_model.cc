#include "live/startup_model.h"

namespace spinup {

Result<std::unique_ptr<SessionStartupModel>> SessionStartupModel::Create(
    const StartupModelConfig& config) {
  auto rules = LoadRules(config.rules_files);
  if (!rules.ok()) return rules.status();
  SessionOptions options = config.session;
  options.live = true;
  return std::unique_ptr<SessionStartupModel>(
      new SessionStartupModel(std::move(*rules), std::move(options)));
}

SessionStartupModel::SessionStartupModel(RuleSet rules, SessionOptions options)
    : rules_(std::move(rules)), session_(std::make_unique<StartupSession>(rules_, options)) {}

}  // namespace spinup
