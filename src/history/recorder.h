// HistoryRecorder: the history's seat in a watch. A Sink (so it sees exactly what the other
// sinks see: log events, samples, verdicts) that
//   - before the start: opens the store and learns a BudgetBook from the comparable past starts;
//   - during it: predicts time-to-ready from each verdict and hands the Prediction to a listener
//     (the metrics sink's SetExpectations, the lead's judge wiring);
//   - after it: Commit() builds the StartRecord from the final verdict, writes it, and names the
//     regressions against the earlier starts.
// Every store failure is one warning line on `warn` ("spinup: history: ..."); the watch never
// fails because of history. Calls come from the watch loop's thread.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "history/learner.h"
#include "history/predict.h"
#include "history/record.h"
#include "history/store.h"
#include "spinup/sink.h"

namespace spinup {

struct HistoryRecorderConfig {
  std::string path;       // the database file (resolved by the CLI)
  RecordContext context;  // host, model, fingerprint, flags, versions, source
  LearnerOptions learner;
  HistoryStoreOptions store;
  int past_limit = 200;  // earlier starts read to learn from
};

class HistoryRecorder final : public Sink {
 public:
  // Opens the store and learns; on failure prints one warning and records nothing (enabled()
  // is false), but still predicts nothing and never throws.
  HistoryRecorder(HistoryRecorderConfig config, std::function<int64_t()> now_ms,
                  std::ostream& warn);

  void OnLogEvent(const LogEvent& event) override;
  void OnSample(const Sample& sample) override;
  void OnVerdict(const Verdict& verdict) override;
  void Finish(const Verdict& verdict) override;

  // After the watch: records the start with the command's exit status. Returns the new id, or
  // nullopt when history is off or the write failed (warned). Prints regressions to `warn`.
  std::optional<int64_t> Commit(std::optional<int> exit_status);

  void OnPrediction(std::function<void(const Prediction&)> listener) {
    listener_ = std::move(listener);
  }

  bool enabled() const { return store_ != nullptr; }
  const BudgetBook& book() const { return book_; }
  const std::optional<Prediction>& last_prediction() const { return prediction_; }
  // What the start's record would be now (for tests and `explain --record`).
  StartRecord Build() const;

 private:
  void Warn(const std::string& message);

  HistoryRecorderConfig config_;
  std::function<int64_t()> now_ms_;
  std::ostream& warn_;
  std::unique_ptr<HistoryStore> store_;
  std::vector<StartRecord> past_;
  BudgetBook book_;
  std::function<void(const Prediction&)> listener_;
  std::optional<Prediction> prediction_;
  std::optional<Verdict> final_;
  std::optional<Verdict> last_;
  std::optional<int64_t> first_ms_;
  std::optional<double> resident_fraction_;  // latest sample's
  bool committed_ = false;
};

}  // namespace spinup
