// Every alert in contrib/prometheus/alerts.yml carries a runbook_url whose anchor exists in
// docs/alerts.md, so an alert never points at nothing.
#include <gtest/gtest.h>

#include <cctype>
#include <regex>
#include <set>
#include <string>

#include "test_util.h"

namespace spinup {
namespace {

std::string Anchor(std::string heading) {
  std::string out;
  for (char c : heading) {
    if (std::isalnum(static_cast<unsigned char>(c))) out += static_cast<char>(std::tolower(c));
    if (c == ' ' || c == '-') out += '-';
  }
  return out;
}

TEST(AlertRunbooks, EveryAlertLinksToAnExistingSection) {
  const std::string rules =
      testing::ReadFile(testing::SourceDir() / "contrib" / "prometheus" / "alerts.yml");
  const std::string docs = testing::ReadFile(testing::SourceDir() / "docs" / "alerts.md");
  std::set<std::string> anchors;
  std::regex heading(R"(^## (.+)$)", std::regex::multiline);
  for (std::sregex_iterator it(docs.begin(), docs.end(), heading), end; it != end; ++it) {
    anchors.insert(Anchor((*it)[1]));
  }
  std::regex alert(R"(- alert: (\w+)[\s\S]*?runbook_url: "docs/alerts\.md#([a-z0-9-]+)\")");
  int alerts = 0;
  for (std::sregex_iterator it(rules.begin(), rules.end(), alert), end; it != end; ++it) {
    ++alerts;
    const std::string name = (*it)[1];
    EXPECT_EQ((*it)[2], Anchor(name)) << name << "'s runbook_url names another alert";
    EXPECT_TRUE(anchors.count((*it)[2])) << name << ": no section in docs/alerts.md";
  }
  size_t declared = 0;
  for (size_t at = rules.find("- alert:"); at != std::string::npos;
       at = rules.find("- alert:", at + 1)) {
    ++declared;
  }
  EXPECT_EQ(static_cast<size_t>(alerts), declared) << "an alert without a runbook_url";
  EXPECT_GE(alerts, 5);
}

}  // namespace
}  // namespace spinup
