#include "logs/server_port.h"

#include <gtest/gtest.h>

namespace spinup {
namespace {

TEST(ServerPort, LaunchArgumentsInEachEnginesForm) {
  EXPECT_EQ(LaunchArgPort("args: Namespace(host='127.0.0.1', port=8000, model='m')"), 8000);
  EXPECT_EQ(LaunchArgPort("non-default args: {'model': 'm', 'port': 8001}"), 8001);
  EXPECT_EQ(LaunchArgPort("$ vllm serve m --port 8080 --tensor-parallel-size 2"), 8080);
  EXPECT_EQ(LaunchArgPort("trtllm-serve m --port=9000"), 9000);
  EXPECT_EQ(LaunchArgPort("Args { model_id: \"m\", hostname: \"0.0.0.0\", port: 80, }"), 80);
  EXPECT_EQ(LaunchArgPort("server_args=ServerArgs(host='0.0.0.0', port=30000, nccl_port=None)"),
            30000);
}

TEST(ServerPort, OtherPortsAreNotTheServers) {
  EXPECT_EQ(LaunchArgPort("master_port=29500 world_size=8"), std::nullopt);
  EXPECT_EQ(LaunchArgPort("--metrics-port 9400 --dashboard-port=8265"), std::nullopt);
  EXPECT_EQ(LaunchArgPort("NCCL INFO NET/Socket transport: 2 interfaces"), std::nullopt);
  EXPECT_EQ(LaunchArgPort("port=None"), std::nullopt);
  EXPECT_EQ(LaunchArgPort("port=99999"), std::nullopt);
  EXPECT_EQ(LaunchArgPort("port=8000abc"), std::nullopt);
}

TEST(ServerPort, TheBindErrorsPort) {
  EXPECT_EQ(BindTuplePort("OSError: [Errno 98] error while attempting to bind on address "
                          "('0.0.0.0', 8265): address already in use"),
            8265);
  EXPECT_EQ(BindTuplePort("OSError: [Errno 98] Address already in use"), std::nullopt);
}

TEST(ServerPort, TheListeningAddressesPort) {
  EXPECT_EQ(UrlPort("INFO:     Uvicorn running on http://0.0.0.0:4000 (Press CTRL+C to quit)"),
            4000);
  EXPECT_EQ(UrlPort("Uvicorn running on http://[::]:8000"), 8000);
  EXPECT_EQ(UrlPort("Uvicorn running on unix socket /tmp/s.sock"), std::nullopt);
  EXPECT_EQ(UrlPort("Uvicorn running on http://localhost/ (proxied)"), std::nullopt);
}

}  // namespace
}  // namespace spinup
