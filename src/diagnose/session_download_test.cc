// A Hub download inside the engine's load (vLLM and SGLang fetch the checkpoint from their
// loader): its own phase while it runs, for the ranks that wait for it, and in the load's figure
// (issue 10, red-team round twenty-six), written from the engines' sources.
#include <gtest/gtest.h>

#include <string>

#include "diagnose/startup_session.h"
#include "session_fixtures.h"

namespace spinup {
namespace {

Verdict Explain(const std::string& log) { return testing::ExplainLog(log); }

const TimelineEntry* Find(const Verdict& v, Phase phase, const std::string& rank = "") {
  for (const TimelineEntry& e : v.timeline) {
    if (e.phase == phase && (rank.empty() || e.rank == rank)) return &e;
  }
  return nullptr;
}

const std::string kStart =
    "INFO 08-05 15:47:06 [core.py:69] Initializing a V1 LLM engine (v0.9.2) with config: "
    "model='google/gemma-3-27b-it'\n"
    "INFO 08-05 15:47:10 [gpu_model_runner.py:1770] Starting to load model "
    "google/gemma-3-27b-it...\n"
    "INFO 08-05 15:47:12 [weight_utils.py:292] Using model weights format ['*.safetensors']\n";

// The log ends while the Hub's bars still run: the start is downloading, not loading.
TEST(SessionDownload, AHubBarInALoadThatReadNothingIsTheDownload) {
  const Verdict v = Explain(
      kStart +
      "model-00002-of-00012.safetensors:  43%|####3     | 2.11G/4.95G [01:45<02:21, 20.1MB/s]\n");
  EXPECT_EQ(v.state, State::kInProgress) << v.headline;
  EXPECT_EQ(v.phase, Phase::kDownload);
  const TimelineEntry* download = Find(v, Phase::kDownload);
  ASSERT_NE(download, nullptr);
  ASSERT_TRUE(download->start_ms);
  EXPECT_EQ(Find(v, Phase::kWeightLoad), nullptr);  // the load so far was the download
}

// Once the loader's own bar moves, the load goes on; its end line's figure counts the download,
// which the load's span leaves out.
TEST(SessionDownload, TheLoadersBarEndsTheDownload) {
  const Verdict v = Explain(
      kStart +
      "Fetching 12 files: 100%|##########| 12/12 [10:02<00:00, 50.2s/it]\n"
      "INFO 08-05 15:57:20 [weight_utils.py:281] Time spent downloading weights for "
      "google/gemma-3-27b-it: 601.5 seconds\n"
      "Loading safetensors checkpoint shards: 100% Completed | 12/12 [00:20<00:00,  1.70s/it]\n"
      "INFO 08-05 15:57:41 [gpu_model_runner.py:1801] Model loading took 51.5 GiB and 631.2 "
      "seconds\n");
  const TimelineEntry* download = Find(v, Phase::kDownload);
  ASSERT_NE(download, nullptr) << v.headline;
  ASSERT_TRUE(download->seconds);
  EXPECT_NEAR(*download->seconds, 601.5, 1);
  const TimelineEntry* load = Find(v, Phase::kWeightLoad);
  ASSERT_NE(load, nullptr);
  ASSERT_TRUE(load->seconds);
  EXPECT_LT(*load->seconds, 40);  // 631 s less the download
}

// One rank downloads under the file lock while the other waits for it: both waited on the Hub.
TEST(SessionDownload, TheRanksThatWaitedForTheDownloadDownloadedToo) {
  const Verdict v = Explain(
      "INFO 09-22 06:40:00 [api_server.py:1896] vLLM API server version 0.10.2\n"
      "(VllmWorker TP0 pid=3420) INFO 09-22 06:40:27 [gpu_model_runner.py:2338] Starting to load "
      "model X...\n"
      "(VllmWorker TP1 pid=3423) INFO 09-22 06:40:27 [gpu_model_runner.py:2338] Starting to load "
      "model X...\n"
      "(VllmWorker TP0 pid=3420) INFO 09-22 06:52:38 [weight_utils.py:369] Time spent "
      "downloading weights for X: 731.28 seconds\n"
      "(VllmWorker TP0 pid=3420) INFO 09-22 06:52:58 [gpu_model_runner.py:2392] Model loading "
      "took 22.4 GiB and 751.2 seconds\n"
      "(VllmWorker TP1 pid=3423) INFO 09-22 06:52:59 [gpu_model_runner.py:2392] Model loading "
      "took 22.4 GiB and 752.9 seconds\n");
  for (const std::string rank : {"TP0", "TP1"}) {
    const TimelineEntry* download = Find(v, Phase::kDownload, rank);
    ASSERT_NE(download, nullptr) << rank << ": " << v.headline;
    ASSERT_TRUE(download->seconds);
    EXPECT_GT(*download->seconds, 700) << rank;
    const TimelineEntry* load = Find(v, Phase::kWeightLoad, rank);
    ASSERT_NE(load, nullptr) << rank;
    ASSERT_TRUE(load->seconds);
    EXPECT_LT(*load->seconds, 60) << rank;
  }
}

// The download's budget scales with the checkpoint like the load's: 4.6 minutes for a 7B model's
// 14 GB is slow (about 50 MB/s).
TEST(SessionDownload, ADownloadSlowerThanTheCheckpointNeedsIsSlow) {
  const Verdict v = Explain(
      "INFO 07-24 09:15:02 api_server.py:212] vLLM API server version 0.5.3\n"
      "INFO 07-24 09:15:07 model_runner.py:680] Starting to load model "
      "mistralai/Mistral-7B-Instruct-v0.3...\n"
      "model-00001-of-00003.safetensors: 100%|##########| 4.95G/4.95G [04:37<00:00, 17.8MB/s]\n"
      "Fetching 3 files: 100%|##########| 3/3 [04:42<00:00, 94.07s/it]\n"
      "INFO 07-24 09:19:51 model_runner.py:692] Loading model weights took 13.5083 GB\n"
      "INFO 07-24 09:20:05 api_server.py:232] Started server process [1]\n"
      "INFO:     Uvicorn running on http://0.0.0.0:8000 (Press CTRL+C to quit)\n");
  EXPECT_EQ(v.state, State::kReady) << v.headline;
  const TimelineEntry* download = Find(v, Phase::kDownload);
  ASSERT_NE(download, nullptr);
  EXPECT_TRUE(download->slow);
  const TimelineEntry* load = Find(v, Phase::kWeightLoad);
  ASSERT_NE(load, nullptr);
  EXPECT_FALSE(load->slow);
}

}  // namespace
}  // namespace spinup
