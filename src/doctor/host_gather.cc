// GatherHostView: composes the gatherers; plus the engines' cache folders and the checkpoint.
#include <sys/statvfs.h>
#include <unistd.h>

#include <fmt/format.h>

#include <system_error>

#include "base/readonly_file.h"
#include "doctor/host_view.h"
#include "proc/nvml.h"
#include "spinup/page_cache.h"

namespace spinup::doctor {
namespace fs = std::filesystem;
namespace {

std::string EnvOr(const std::map<std::string, std::string>& env, const char* name,
                  const std::string& fallback) {
  auto it = env.find(name);
  return it == env.end() || it->second.empty() ? fallback : it->second;
}

CacheDir Probe(std::string name, std::string path) {
  CacheDir c;
  c.name = std::move(name);
  c.path = std::move(path);
  std::error_code ec;
  c.exists = fs::is_directory(c.path, ec);
  fs::path p = c.path;
  // Writable means the folder, or the nearest existing parent it would be created in.
  for (int i = 0; i < 64 && !p.empty() && !fs::exists(p, ec); ++i) p = p.parent_path();
  if (p.empty()) return c;
  c.writable = ::access(p.c_str(), W_OK) == 0;
  struct statvfs st {};
  if (::statvfs(p.c_str(), &st) == 0) {
    c.free_bytes = static_cast<uint64_t>(st.f_bavail) * st.f_frsize;
  }
  return c;
}

}  // namespace

void GatherCaches(const std::map<std::string, std::string>& env, HostView& view) {
  std::string home = EnvOr(env, "HOME", "");
  std::string user = EnvOr(env, "USER", "root");
  auto under_home = [&](const char* rel) { return home.empty() ? std::string() : home + rel; };
  struct Spec {
    const char* var;
    std::string fallback;
  };
  std::string hf = EnvOr(env, "HF_HOME", under_home("/.cache/huggingface"));
  std::vector<Spec> specs = {
      {"HF_HOME", hf},
      {"TRITON_CACHE_DIR", under_home("/.triton/cache")},
      {"TORCHINDUCTOR_CACHE_DIR", "/tmp/torchinductor_" + user},
      {"FLASHINFER_WORKSPACE_BASE", under_home("/.cache/flashinfer")},
  };
  if (view.command.engine != Engine::kSglang) {
    specs.push_back({"VLLM_CACHE_ROOT", under_home("/.cache/vllm")});
  }
  if (view.command.engine != Engine::kVllm) {
    specs.push_back(
        {"SGLANG_DG_CACHE_DIR", EnvOr(env, "DG_JIT_CACHE_DIR", under_home("/.cache/deep_gemm"))});
  }
  for (const auto& s : specs) {
    std::string path = EnvOr(env, s.var, s.fallback);
    if (!path.empty()) view.caches.push_back(Probe(s.var, path));
  }
}

void GatherCheckpoint(const std::string& model, const fs::path& hf_cache, bool hf_offline,
                      HostView& view) {
  std::error_code ec;
  fs::path path = model;
  bool local = fs::exists(path, ec) || model.starts_with("/") || model.starts_with(".");
  if (!local) {
    auto slash = model.find('/');
    fs::path repo = hf_cache / ("models--" + model.substr(0, slash) + "--" +
                                (slash == std::string::npos ? "" : model.substr(slash + 1)));
    if (slash == std::string::npos || !fs::is_directory(repo, ec)) {
      view.checkpoint_error = fmt::format("{} is not a local folder and not in the HF cache ({})",
                                          model, hf_cache.string());
      view.checkpoint_download = !hf_offline;
      view.checkpoint_fix = hf_offline
                                ? fmt::format(
                                      "HF_HUB_OFFLINE=1 forbids the download: run `hf download {}` "
                                      "first, or point --model at a local copy",
                                      model)
                                : fmt::format(
                                      "download it before the start (`hf download {}`) and pass "
                                      "the local folder, so the start never waits on the Hub",
                                      model);
      return;
    }
    path = repo;
  }
  auto ck = LoadCheckpoint(path);
  if (!ck.ok()) {
    view.checkpoint_error = ck.status().message();
    view.checkpoint_fix = "pass a model folder with config.json and *.safetensors";
    return;
  }
  fs::path config = ck->root / "config.json";
  if (fs::exists(config, ec)) {
    if (auto text = ReadSmallFile(config, 16 << 20); text.ok()) view.shape = ParseModelShape(*text);
  }
  view.checkpoint = std::move(*ck);
}

HostView GatherHostView(const ServerCommand& command, const GatherOptions& o) {
  HostView view;
  view.command = command;
  view.gpu_mem_flag = o.gpu_mem;
  if (o.nvml != nullptr) {
    GatherGpus(*o.nvml, view);
  } else {
    view.nvml_message = "GPU: NVML not loaded (--no-gpu)";
  }
  for (const auto& g : view.gpus) {
    for (int pid : g.pids) {
      ProcessRef ref;
      ref.pid = pid;
      ref.what = fmt::format("GPU {}", g.index);
      view.gpu_holders.push_back(ref);
    }
  }
  GatherProcesses(o.roots, command.port, view);
  GatherPlatform(o.roots, view);
  GatherLimits(o.roots, view);
  GatherCaches(command.env, view);
  if (command.model) {
    const std::string* off = command.getenv("HF_HUB_OFFLINE");
    bool offline = off != nullptr && (*off == "1" || *off == "true" || *off == "TRUE");
    GatherCheckpoint(*command.model, o.hf_cache, offline, view);
  }
  view.read_bytes_per_s = o.read_bytes_per_s;
  view.read_source = o.read_source;
  if (view.checkpoint && o.residency) {
    std::vector<std::string> paths;
    for (const auto& s : view.checkpoint->shards) {
      if (s.present) paths.push_back(s.path.string());
    }
    if (auto r = MeasureResidency(paths); r.ok()) view.resident_fraction = r->fraction();
  }
  return view;
}

}  // namespace spinup::doctor
