// `spinup doctor [flags] -- SERVER COMMAND...` or `spinup doctor --unit NAME`: reads the exact
// server command, gathers the host view (read-only), runs the checks, prints text or JSON.
// Exit 0 nothing failed, 1 a check failed, 2 usage error. See docs/doctor.md.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <map>
#include <memory>
#include <ostream>

#include "base/readonly_file.h"
#include "base/units.h"
#include "cli/cli.h"
#include "cli/exit_codes.h"
#include "doctor/doctor.h"
#include "doctor/unit_file.h"
#include "io/reader_tasks.h"
#include "proc/nvml.h"

extern char** environ;

namespace spinup {
namespace {

struct DoctorFlags {
  std::vector<std::string> command;
  std::string unit;
  std::vector<std::string> rules;
  bool json = false;
  std::string gpu_mem;
  std::string read_bw;
  bool measure_read = false;
  bool no_gpu = false;
  std::string nvml_library = "libnvidia-ml.so.1";
  std::string unit_root = "/";
  std::string proc_root = "/proc";
  std::string sys_root = "/sys";
  std::string dev_root = "/dev";
};

std::map<std::string, std::string> ProcessEnvironment() {
  std::map<std::string, std::string> env;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    std::string kv = *e;
    auto eq = kv.find('=');
    if (eq != std::string::npos) env[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  return env;
}

std::filesystem::path HfCache(const std::map<std::string, std::string>& env) {
  auto get = [&](const char* k) {
    auto it = env.find(k);
    return it == env.end() ? std::string() : it->second;
  };
  if (!get("HF_HUB_CACHE").empty()) return get("HF_HUB_CACHE");
  if (!get("HF_HOME").empty()) return std::filesystem::path(get("HF_HOME")) / "hub";
  return std::filesystem::path(get("HOME")) / ".cache" / "huggingface" / "hub";
}

void RunDoctor(const DoctorFlags& f, CliContext& ctx) {
  auto fail_usage = [&](const std::string& msg) {
    *ctx.err << "spinup: " << msg << "\n";
    ctx.exit_code = kExitUsage;
  };
  if (f.unit.empty() == f.command.empty()) {
    return fail_usage("doctor: give either --unit NAME or the server command after --");
  }
  doctor::GatherOptions opt;
  if (!f.gpu_mem.empty()) {
    auto v = ParseByteSize(f.gpu_mem);
    if (!v.ok()) return fail_usage("--gpu-mem: " + v.status().message());
    opt.gpu_mem = *v;
  }
  if (!f.read_bw.empty()) {
    auto v = ParseByteRate(f.read_bw);
    if (!v.ok()) return fail_usage("--read-bw: " + v.status().message());
    opt.read_bytes_per_s = *v;
    opt.read_source = "--read-bw";
  }
  std::map<std::string, std::string> env = ProcessEnvironment();
  std::vector<std::string> argv = f.command;
  std::vector<std::string> sources, problems;
  if (!f.unit.empty()) {
    auto unit = doctor::ReadServiceUnit(f.unit_root, f.unit);
    if (!unit.ok()) return fail_usage(unit.status().message());
    // systemd starts units with their own environment; HOME and USER stand in for User=.
    std::map<std::string, std::string> base;
    for (const char* k : {"HOME", "USER", "PATH"}) {
      if (env.count(k)) base[k] = env[k];
    }
    for (const auto& [k, v] : unit->env) base[k] = v;
    env = std::move(base);
    argv = unit->argv;
    sources = unit->sources;
    problems = unit->problems;
  }
  doctor::ServerCommand cmd = doctor::ParseServerCommand(argv, env);
  for (auto& p : problems) cmd.problems.push_back(std::move(p));
  auto rules = doctor::EmbeddedDoctorRules();
  if (!rules.ok()) {
    *ctx.err << "spinup: " << rules.status().message() << "\n";
    ctx.exit_code = kExitProblem;
    return;
  }
  for (const auto& file : f.rules) {
    auto text = ReadSmallFile(file, 4 << 20);
    Status st = text.ok() ? doctor::MergeDoctorRules(*text, file, *rules) : text.status();
    if (!st.ok()) return fail_usage(st.message());
  }
  std::unique_ptr<proc::NvmlGpu> nvml;
  if (!f.no_gpu) nvml = std::make_unique<proc::NvmlGpu>(f.nvml_library);
  opt.nvml = nvml.get();
  opt.roots.proc = f.proc_root;
  opt.roots.sys = f.sys_root;
  opt.roots.dev = f.dev_root;
  opt.roots.own_pid = f.proc_root == "/proc" ? static_cast<int>(::getpid()) : 0;
  opt.hf_cache = HfCache(cmd.env);
  doctor::HostView view = doctor::GatherHostView(cmd, opt);
  if (f.measure_read && !opt.read_bytes_per_s && view.checkpoint) {
    std::vector<CheckpointFile> files;
    for (const auto& s : view.checkpoint->shards) {
      if (s.present) files.push_back({s.path.string(), s.file_size});
    }
    auto measured = MeasureReadRate(files, kMeasureReadSampleBytes, ReaderOptions{});
    if (measured.ok() && measured->bytes_per_s > 0) {
      view.read_bytes_per_s = measured->bytes_per_s;
      view.read_source = "measured";
    }
  }
  doctor::DoctorReport report = doctor::RunChecks(view, *rules);
  report.sources = sources;
  *ctx.out << (f.json ? doctor::DoctorReportJson(report) : doctor::DoctorReportText(report));
  ctx.exit_code = doctor::DoctorExitCode(report) != 0 ? kExitProblem : kExitOk;
}

}  // namespace

void AddDoctorCommand(CLI::App& app, CliContext& ctx) {
  auto f = std::make_shared<DoctorFlags>();
  auto* sub = app.add_subcommand(
      "doctor",
      "Check a server command and this host for the known causes of failed or hung starts, "
      "before starting (exit 0 nothing failed, 1 a check failed, 2 usage)");
  sub->add_option("command", f->command, "the server command line (after --)");
  sub->add_option("--unit", f->unit, "read the command from this systemd unit (and drop-ins)");
  sub->add_flag("--json", f->json, "print one JSON object (docs/doctor.md)");
  sub->add_option("--rules", f->rules,
                  "extra doctor rules file (JSON like rules/doctor/doctor.json); repeatable")
      ->allow_extra_args(false);  // one file per --rules, so `--` still starts the command
  sub->add_option("--gpu-mem", f->gpu_mem, "memory per GPU when NVML is absent, e.g. 80GiB");
  sub->add_option("--read-bw", f->read_bw, "storage read rate for the load-time estimate");
  sub->add_flag("--measure-read", f->measure_read,
                "read up to 1 GiB of the checkpoint to measure the read rate (slower)");
  sub->add_flag("--no-gpu", f->no_gpu, "do not load NVML");
  sub->add_option("--nvml-library", f->nvml_library, "NVML library to load (tests)");
  sub->add_option("--unit-root", f->unit_root, "root for unit and environment files (default /)");
  sub->add_option("--proc-root", f->proc_root, "/proc to read (containers, tests)");
  sub->add_option("--sys-root", f->sys_root, "/sys to read");
  sub->add_option("--dev-root", f->dev_root, "/dev to read");
  sub->footer(
      "Example:\n  spinup doctor -- python -m sglang.launch_server --model-path /models/X --tp 4");
  sub->callback([f, &ctx] { RunDoctor(*f, ctx); });
}

}  // namespace spinup
