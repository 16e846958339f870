#include "sink/fleet_outputs.h"

#include <httplib.h>

#include <gtest/gtest.h>

#include "test_util.h"

namespace spinup {
namespace {

TEST(FleetOutputs, DefaultModelLabelFromModelOrCommandLine) {
  EXPECT_EQ(DefaultModelLabel("/models/Llama-3-70B/", {}), "Llama-3-70B");
  EXPECT_EQ(DefaultModelLabel("", {"python3", "-m", "sglang.launch_server", "--model-path",
                                   "/m/Qwen2-72B", "--tp", "8"}),
            "Qwen2-72B");
  EXPECT_EQ(DefaultModelLabel("", {"python3", "x", "--model=meta-llama/Llama-3-8B"}), "Llama-3-8B");
  EXPECT_EQ(DefaultModelLabel("", {"/usr/bin/vllm", "serve", "/data/mistral", "--port", "1"}),
            "mistral");
  EXPECT_EQ(DefaultModelLabel("", {"server"}), "spinup");
}

TEST(FleetOutputs, ServesMetricsAndWritesReportAtFinish) {
  testing::TempDir dir;
  FleetConfig c;
  c.metrics = ListenAddress{"127.0.0.1", 0};
  c.model_label = "job1";
  c.host = "host1";
  c.report_path = (dir / "r.html").string();
  auto out = FleetOutputs::Start(c, [] { return int64_t{1'700'000'000'000}; });
  ASSERT_TRUE(out.ok()) << out.status().message();
  auto sinks = (*out)->sinks();
  ASSERT_EQ(sinks.size(), 3u);  // metrics, /livez + /readyz, report
  Verdict v;
  v.state = State::kReady;
  for (Sink* s : sinks) s->OnVerdict(v);
  httplib::Client client("127.0.0.1", (*out)->metrics_port());
  auto res = client.Get("/metrics");
  ASSERT_TRUE(res);
  EXPECT_NE(res->body.find("spinup_ready{model=\"job1\",host=\"host1\"} 1"), std::string::npos)
      << res->body;
  auto ready = client.Get("/readyz");
  ASSERT_TRUE(ready);
  EXPECT_EQ(ready->status, 200);
  for (Sink* s : sinks) s->Finish(v);
  EXPECT_TRUE((*out)->Finish().ok());
  EXPECT_NE(testing::ReadFile(dir / "r.html").find("data-state=\"ready\""), std::string::npos);

  // A report path that cannot be written is reported, not ignored.
  c.metrics.reset();
  c.report_path = (dir / "no-such-dir" / "r.html").string();
  auto bad = FleetOutputs::Start(c, [] { return int64_t{0}; });
  ASSERT_TRUE(bad.ok());
  for (Sink* s : (*bad)->sinks()) s->Finish(v);
  Status st = (*bad)->Finish();
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("r.html"), std::string::npos);
}

}  // namespace
}  // namespace spinup
