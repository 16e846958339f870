#include "doctor_fixtures.h"

#include <fmt/format.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "format/checkpoint_writer.h"
#include "test_util.h"

namespace spinup::testing {
namespace fs = std::filesystem;

void Put(const fs::path& path, const std::string& contents) {
  fs::create_directories(path.parent_path());
  WriteFile(path, contents);
}

std::string Qwen35HybridMoeConfig() {
  nlohmann::ordered_json text = {
      {"num_hidden_layers", 8},
      {"num_attention_heads", 8},
      {"num_key_value_heads", 2},
      {"head_dim", 16},
      {"hidden_size", 64},
      {"num_experts", 16},
      {"num_experts_per_tok", 4},
      {"moe_intermediate_size", 32},
      {"mtp_num_hidden_layers", 1},
      {"max_position_embeddings", 262144},
      {"layer_types",
       {"linear_attention", "linear_attention", "linear_attention", "full_attention",
        "linear_attention", "linear_attention", "linear_attention", "full_attention"}}};
  nlohmann::ordered_json c = {{"architectures", {"Qwen3_5MoeForConditionalGeneration"}},
                              {"model_type", "qwen3_5_moe"},
                              {"torch_dtype", "bfloat16"},
                              {"text_config", text}};
  return c.dump(2);
}

std::string DenseConfig(int layers, int heads, int kv_heads, int head_dim, int max_position) {
  nlohmann::ordered_json c = {{"architectures", {"LlamaForCausalLM"}},
                              {"model_type", "llama"},
                              {"num_hidden_layers", layers},
                              {"num_attention_heads", heads},
                              {"num_key_value_heads", kv_heads},
                              {"head_dim", head_dim},
                              {"hidden_size", heads * head_dim},
                              {"intermediate_size", 128},
                              {"max_position_embeddings", max_position},
                              {"torch_dtype", "bfloat16"}};
  return c.dump(2);
}

void WriteModel(const fs::path& dir, const std::string& config_json) {
  gen::DenseOptions o;
  auto spec = gen::DenseSpec(o);
  spec.config_json = config_json;
  Status st = gen::WriteCheckpoint(dir, spec);
  if (!st.ok()) throw std::runtime_error(st.message());
}

doctor::HostView HealthyView(const fs::path& model_dir, const std::vector<std::string>& extra) {
  std::vector<std::string> argv = {
      "python3", "-m",   "sglang.launch_server", "--model-path", model_dir.string(), "--tp", "2",
      "--port",  "30000"};
  argv.insert(argv.end(), extra.begin(), extra.end());
  doctor::HostView v;
  v.command = doctor::ParseServerCommand(argv, {{"HOME", "/root"}});
  v.nvml_available = true;
  for (int i = 0; i < 2; ++i) {
    v.gpus.push_back({i, "NVIDIA H100 80GB HBM3", 80ull << 30, 512ull << 20, {}});
  }
  v.links.push_back({0, 1, true, "", true});
  v.iommu_mode = "passthrough";
  v.shm_bytes = 16ull << 30;
  v.nofile_hard = 1048576;
  v.memlock_soft = UINT64_MAX;
  v.mem_available = 512ull << 30;
  v.net_interfaces = {"eth0", "lo"};
  v.caches.push_back({"HF_HOME", "/root/.cache/huggingface", true, true, 500ull << 30});
  doctor::GatherCheckpoint(model_dir.string(), "/nonexistent-hf-cache", false, v);
  v.resident_fraction = 1.0;
  return v;
}

namespace {

// A PCI config space dump with an ACS extended capability at 0x100 whose control register has
// Source Validation and Request Redirect on (or nothing on).
std::string PciConfig(bool redirect) {
  std::string cfg(4096, '\0');
  uint32_t header = 0x000d | (1u << 16);  // ACS, version 1, no next capability
  for (int i = 0; i < 4; ++i) cfg[0x100 + i] = static_cast<char>((header >> (8 * i)) & 0xff);
  uint16_t control = redirect ? 0x0005 : 0;
  cfg[0x106] = static_cast<char>(control & 0xff);
  cfg[0x107] = static_cast<char>(control >> 8);
  return cfg;
}

void Link(const fs::path& at, const std::string& target) {
  fs::create_directories(at.parent_path());
  fs::create_symlink(target, at);
}

void WriteProcess(const fs::path& proc, int pid, const std::string& cmdline) {
  std::string cl = cmdline;
  std::replace(cl.begin(), cl.end(), ' ', '\0');
  Put(proc / std::to_string(pid) / "cmdline", cl + std::string(1, '\0'));
  Put(proc / std::to_string(pid) / "stat",
      fmt::format("{} (python3) S 1 {} {} 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 100 0 0\n", pid, pid,
                  pid));
}

}  // namespace

void WriteFixtureHost(const fs::path& root, const FixtureHostOptions& o) {
  fs::path proc = root / "proc", sys = root / "sys", dev = root / "dev";
  fs::create_directories(dev);
  std::string flags = "flags\t\t: fpu vme de pse tsc msr pae mce cx8 apic sep";
  if (o.sev_snp_guest) flags += " hypervisor sev sev_es sev_snp";
  Put(proc / "cpuinfo", "processor\t: 0\nvendor_id\t: AuthenticAMD\n" + flags + "\n\n");
  if (o.sev_snp_guest) Put(dev / "sev-guest", "");
  Put(proc / "meminfo", "MemTotal: 1056000000 kB\nMemAvailable: 1000000000 kB\n");
  Put(proc / "self" / "limits",
      "Limit                     Soft Limit           Hard Limit           Units\n"
      "Max open files            1048576              1048576              files\n"
      "Max locked memory         unlimited            unlimited            bytes\n");
  Put(proc / "self" / "mounts", "shm /dev/shm tmpfs rw,nosuid,nodev,noexec,relatime,size=" +
                                    (o.shm_size.empty() ? std::string("16g") : o.shm_size) +
                                    " 0 0\n");
  std::string tcp =
      "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout "
      "inode\n";
  if (o.listener_pid != 0) {
    tcp += fmt::format(
        "   0: 00000000:{:04X} 00000000:0000 0A 00000000:00000000 00:00000000 "
        "00000000     0        0 777001 1 0000000000000000 100 0 0 10 0\n",
        o.port);
    WriteProcess(proc, o.listener_pid, "python3 -m http.server " + std::to_string(o.port));
    Link(proc / std::to_string(o.listener_pid) / "fd" / "3", "socket:[777001]");
  }
  Put(proc / "net" / "tcp", tcp);
  if (o.nvidia_holder_pid != 0) {
    WriteProcess(proc, o.nvidia_holder_pid, "sglang::scheduler_TP0");
    Put(dev / "nvidia0", "");
    Link(proc / std::to_string(o.nvidia_holder_pid) / "fd" / "5", (dev / "nvidia0").string());
  }
  for (int g = 0; g < 4; ++g) {
    Put(sys / "kernel" / "iommu_groups" / std::to_string(g) / "type",
        o.iommu_translated ? "DMA-FQ\n" : "identity\n");
  }
  fs::path bridge = sys / "bus" / "pci" / "devices" / "0000:00:01.0";
  Put(bridge / "class", "0x060400\n");
  Put(bridge / "config", PciConfig(o.acs_redirect));
  fs::create_directories(sys / "class" / "net" / "eth0");
  fs::create_directories(sys / "class" / "net" / "lo");
}

}  // namespace spinup::testing
