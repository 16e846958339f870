// Lines that take back what another rule's match says: a denial on the line (LogRule::cancels)
// and a ready line on a port no server in the paste was launched on (LogStream::NoteServerPort);
// and a writer's sentences, read for the rules that read prose (LogRule::prose) and no other.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "logs/log_stream.h"
#include "logs/rules.h"
#include "session_fixtures.h"

namespace spinup {
namespace {

std::vector<std::string> RuleIds(const std::string& text,
                                 const RuleSet& rules = testing::BuiltinRules()) {
  LogStream s(rules, LogStreamOptions{});
  std::vector<std::string> ids;
  s.OnEvent([&](const LogEvent& e) { ids.push_back(e.rule_id); });
  s.Feed(text);
  s.Finish();
  return ids;
}

bool Has(const std::vector<std::string>& ids, std::string_view id) {
  return std::find(ids.begin(), ids.end(), id) != ids.end();
}

// "no OOMKilled" is no OOM record; "was OOMKilled" is one.
TEST(LogStreamDenials, AWritersDenialOfAnOomKillCancelsTheRecord) {
  const std::string head =
      "INFO 07-08 10:41:02 [__init__.py:244] Automatically detected platform cuda.\n";
  EXPECT_TRUE(Has(RuleIds(head + "the container was OOMKilled again\n"), "oom_record.killed"));
  const auto denied =
      RuleIds(head + "the container just gets SIGKILLed, no OOMKilled in lastState\n");
  EXPECT_FALSE(Has(denied, "oom_record.killed"));
  EXPECT_TRUE(Has(denied, "generic.not_oom_record"));
}

// An ERROR line no rule names is a decisive error, unless it says the program fell back.
TEST(LogStreamDenials, AnErrorLineThatFallsBackIsNoError) {
  const std::string head =
      "2024-12-05T13:02:44.000000Z  INFO text_generation_launcher: Args { model_id: \"m\" }\n";
  EXPECT_FALSE(
      Has(RuleIds(head + "2024-12-05T13:02:54.011220Z ERROR text_generation_launcher: Method "
                         "is_available not supported by backend 'marlin' on sm_86, falling "
                         "back\n"),
          "level.error"));
  EXPECT_TRUE(
      Has(RuleIds(head + "2024-12-05T13:02:54.011220Z ERROR text_generation_launcher: Method "
                         "is_available not supported by backend 'marlin' on sm_86\n"),
          "level.error"));
}

bool HasPrefix(const std::vector<std::string>& ids, std::string_view prefix) {
  return std::any_of(ids.begin(), ids.end(), [&](const std::string& id) {
    return std::string_view(id).starts_with(prefix);
  });
}

// "No space left on device" about /dev/shm is shared memory that ran out (dev_shm), not a full
// disk; the same words about a cache directory are a full disk.
TEST(LogStreamDenials, NoSpaceOnDevShmIsNoFullDisk) {
  const std::string head =
      "INFO 07-08 10:41:02 [__init__.py:244] Automatically detected platform cuda.\n";
  const auto shm =
      RuleIds(head +
              "node-1:412:1203 [0] misc/shmutils.cc:72 NCCL WARN Error: failed to extend "
              "/dev/shm/nccl-Rr4XkP to 9637892 bytes, error: No space left on device (28)\n");
  EXPECT_TRUE(Has(shm, "generic.shm_no_space"));
  EXPECT_FALSE(HasPrefix(shm, "cause.disk_full.")) << ::testing::PrintToString(shm);
  EXPECT_TRUE(HasPrefix(shm, "cause.dev_shm."));
  // NCCL's own words for it, without the path.
  const auto fallocate = RuleIds(head +
                                 "a1f0c9d2e311:312:312 [0] include/shm.h:28 NCCL WARN Call to "
                                 "posix_fallocate failed : No space left on device\n");
  EXPECT_FALSE(HasPrefix(fallocate, "cause.disk_full.")) << ::testing::PrintToString(fallocate);
  const auto disk = RuleIds(head +
                            "OSError: [Errno 28] No space left on device: "
                            "'/root/.cache/huggingface/hub/models--m/blobs/abc.incomplete'\n");
  EXPECT_TRUE(HasPrefix(disk, "cause.disk_full.")) << ::testing::PrintToString(disk);
  EXPECT_FALSE(Has(disk, "generic.shm_no_space"));
}

// LiteLLM's Uvicorn on :4000 beside a vLLM launched on port 8000 is not vLLM's ready line; the
// server's own on :8000 is. With no launch port known, any Uvicorn line counts as before.
TEST(LogStreamDenials, AReadyLineOnAnotherPortIsAnotherPrograms) {
  const std::string head =
      "INFO 09-23 10:02:14 api_server.py:495] vLLM API server version 0.6.1.post2\n"
      "INFO 09-23 10:02:14 api_server.py:496] args: Namespace(host='127.0.0.1', port=8000, "
      "model='m')\n";
  EXPECT_FALSE(Has(
      RuleIds(head + "INFO:     Uvicorn running on http://0.0.0.0:4000 (Press CTRL+C to quit)\n"),
      "vllm.uvicorn_running"));
  EXPECT_TRUE(Has(
      RuleIds(head + "INFO:     Uvicorn running on http://0.0.0.0:8000 (Press CTRL+C to quit)\n"),
      "vllm.uvicorn_running"));
  EXPECT_TRUE(
      Has(RuleIds("INFO 09-23 10:02:14 api_server.py:495] vLLM API server version 0.6.1\n"
                  "INFO:     Uvicorn running on http://0.0.0.0:4000 (Press CTRL+C to quit)\n"),
          "vllm.uvicorn_running"));
}

// "The model is on our NFS-backed PVC" is a fact; "CUDA out of memory" in it is no error.
TEST(LogStreamProse, AWritersSentenceIsReadForProseRulesOnly) {
  const std::string head =
      "2024-05-21T09:10:32.881398Z  INFO text_generation_launcher: Sharding model on 2 "
      "processes\n";
  const auto ids = RuleIds(head +
                           "The pod has been up 47 min and never gets ready. The model is on our "
                           "NFS-backed PVC and I also saw CUDA out of memory once last week.\n");
  EXPECT_TRUE(Has(ids, "generic.network_fs_path")) << ::testing::PrintToString(ids);
  EXPECT_FALSE(Has(ids, "generic.cuda_oom")) << ::testing::PrintToString(ids);
  // The same words said by no one in particular, in a program's line, are read as before.
  EXPECT_TRUE(Has(RuleIds(head + "2024-05-21T09:10:40.000000Z  INFO text_generation_launcher: "
                                 "loading from /mnt/nfs/models/llama\n"),
                  "generic.network_fs_path"));
}

TEST(LogStreamProse, OnlyInfoRulesMayReadProse) {
  RuleSet rules;
  const Status bad = rules.AddFile("p.json", R"({"rules": [
    {"id": "t.err", "regex": "boom happened", "emit": "error", "prose": true}]})");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.message().find("\"prose\" needs an info rule"), std::string::npos) << bad.message();
  RuleSet ok;
  ASSERT_TRUE(ok.AddFile("q.json", R"({"rules": [
    {"id": "t.fact", "regex": "weights on tape", "emit": "info", "prose": true},
    {"id": "t.said", "regex": "weights on tape", "emit": "info"}]})")
                  .ok());
  ASSERT_TRUE(ok.Compile().ok());
  ASSERT_GE(ok.ProseSubset(), 0);
  const auto ids = RuleIds("I think the trouble is that we keep the weights on tape here.\n", ok);
  EXPECT_TRUE(Has(ids, "t.fact")) << ::testing::PrintToString(ids);
  EXPECT_FALSE(Has(ids, "t.said")) << ::testing::PrintToString(ids);
}

}  // namespace
}  // namespace spinup
