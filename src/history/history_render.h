// Renderers for `spinup history`: the list of recent starts (text table with per-phase medians
// and trend, or JSON), one start in detail, and one start as the HTML report's ReportData.
// Pure: records in, text out (documented in docs/history.md).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "history/learner.h"
#include "history/predict.h"
#include "history/record.h"
#include "sink/html_report.h"

namespace spinup {

nlohmann::json StartJson(const StartRecord& record);
// `records` newest first.
nlohmann::json HistoryListJson(const std::vector<StartRecord>& records);
std::string HistoryListText(const std::vector<StartRecord>& records);
std::string StartDetailText(const StartRecord& record, const RegressionReport& regressions);
nlohmann::json StartDetailJson(const StartRecord& record, const RegressionReport& regressions);
// The record as what the HTML report draws: a verdict rebuilt from the recorded phases.
ReportData StartReportData(const StartRecord& record);

// The budgets the next start like `records`' newest would be judged by (docs/history.md).
nlohmann::json BudgetBookJson(const BudgetBook& book);
std::string BudgetBookText(const BudgetBook& book);

// "▁▃▅█" for the values (oldest first), scaled between their min and max.
std::string Sparkline(const std::vector<double>& values);

}  // namespace spinup
