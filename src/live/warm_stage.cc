#include "live/warm_stage.h"

#include <charconv>

#include "base/readonly_file.h"
#include "io/reader_tasks.h"
#include "sink/live_format.h"
#include "spinup/page_cache.h"

namespace spinup {

std::optional<MemInfo> ParseMemInfo(std::string_view text) {
  MemInfo m;
  bool have_available = false;
  while (!text.empty()) {
    size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    uint64_t* field = nullptr;
    if (line.starts_with("MemTotal:")) field = &m.total;
    if (line.starts_with("MemAvailable:")) field = &m.available;
    if (field == nullptr) continue;
    std::string_view v = line.substr(line.find(':') + 1);
    while (!v.empty() && v.front() == ' ') v.remove_prefix(1);
    uint64_t kb = 0;
    auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), kb);
    if (ec != std::errc() || kb > (UINT64_MAX >> 10)) return std::nullopt;
    *field = kb << 10;
    if (field == &m.available) have_available = true;
  }
  if (!have_available) return std::nullopt;
  return m;
}

uint64_t DefaultWarmReserve(const MemInfo& mem) {
  return std::max<uint64_t>(2ull << 30, mem.total / 10);
}

WarmPlan PlanWarm(const std::vector<CheckpointFile>& files, const std::vector<uint64_t>& missing,
                  const MemInfo& mem, uint64_t reserve) {
  WarmPlan plan;
  const uint64_t budget = mem.available > reserve ? mem.available - reserve : 0;
  bool full = false;
  for (size_t i = 0; i < files.size(); ++i) {
    uint64_t m = i < missing.size() ? missing[i] : files[i].size;
    plan.checkpoint_bytes += files[i].size;
    plan.missing_bytes += m;
    if (full || plan.bytes + m > budget) {
      full = true;
      continue;
    }
    if (m > 0) plan.files.push_back(files[i]);
    plan.bytes += m;
  }
  if (full) {
    plan.note = LiveBytes(plan.missing_bytes) + " to read but only " + LiveBytes(budget) +
                " fits (MemAvailable " + LiveBytes(mem.available) + " minus a " +
                LiveBytes(reserve) + " reserve): warming the first " +
                std::to_string(plan.files.size()) + " shard(s), " + LiveBytes(plan.bytes) +
                "; the server reads the rest from storage";
  }
  return plan;
}

WarmStage::WarmStage(WarmConfig config) : config_(std::move(config)) { status_.state = "planning"; }

WarmStage::~WarmStage() {
  control_.Cancel();
  if (thread_.joinable()) thread_.join();
}

namespace {

std::optional<MemInfo> ReadMemInfo(const std::string& path) {
  auto text = ReadOnlyFile::Open(path);
  if (!text.ok()) return std::nullopt;
  std::string out;
  if (!text->ReadAt(0, 64 * 1024, &out).ok()) return std::nullopt;
  return ParseMemInfo(out);
}

}  // namespace

void WarmStage::Start() {
  started_ = std::chrono::steady_clock::now();
  running_ = true;
  try {
    thread_ = std::thread([this] { Run(); });
  } catch (const std::system_error&) {
    running_ = false;
    std::lock_guard lock(mu_);
    status_.state = "skipped";
    status_.note = "no thread to spare";
  }
}

void WarmStage::Run() {
  auto finish = [&](const std::string& state, const std::string& note) {
    std::lock_guard lock(mu_);
    if (status_.state != "stopped") status_.state = state;
    if (status_.note.empty()) status_.note = note;
    ended_ = std::chrono::steady_clock::now();
    running_ = false;
  };
  auto files = ListCheckpointFiles(config_.model_dir);
  if (!files.ok()) return finish("skipped", files.status().message());
  auto mem = ReadMemInfo(config_.meminfo_path);
  if (!mem) return finish("skipped", config_.meminfo_path + ": no MemAvailable");
  reserve_ = config_.reserve_bytes ? config_.reserve_bytes : DefaultWarmReserve(*mem);
  std::vector<uint64_t> missing;
  for (const auto& f : *files) {
    auto ranges = NonResidentRanges(f.path);
    uint64_t m = 0;
    if (ranges.ok()) {
      for (const auto& r : *ranges) m += r.length;
    } else {
      m = f.size;
    }
    missing.push_back(m);
  }
  WarmPlan plan = PlanWarm(*files, missing, *mem, reserve_);
  {
    std::lock_guard lock(mu_);
    status_.state = "warming";
    status_.bytes_total = plan.bytes;
    status_.checkpoint_bytes = plan.checkpoint_bytes;
    status_.note = plan.note;
  }
  if (plan.files.empty()) {
    return finish(plan.missing_bytes == 0 ? "done" : "skipped",
                  plan.missing_bytes == 0 ? "already in the page cache" : plan.note);
  }
  auto r = WarmFiles(plan.files, config_.reader, &control_);
  if (!r.ok() && r.status().kind() != ErrorKind::kCancelled) {
    return finish("stopped", r.status().message());
  }
  finish(control_.cancelled() ? "stopped" : "done", "");
}

void WarmStage::StopWith(const std::string& note) {
  {
    std::lock_guard lock(mu_);
    if (!running_ || status_.state == "stopped") return;
    status_.state = "stopped";
    status_.note = note;
  }
  control_.Cancel();
}

WarmStatus WarmStage::status() const {
  std::lock_guard lock(mu_);
  WarmStatus s = status_;
  s.bytes_done = std::min(control_.bytes_done(), s.bytes_total ? s.bytes_total : UINT64_MAX);
  auto end = running_ || ended_ == std::chrono::steady_clock::time_point{}
                 ? std::chrono::steady_clock::now()
                 : ended_;
  double secs = std::chrono::duration<double>(end - started_).count();
  if (secs > 0) s.bytes_per_second = static_cast<double>(control_.bytes_done()) / secs;
  return s;
}

void WarmStage::Apply(Verdict& v, int64_t /*now_ms*/) {
  if (running_) {
    if (v.state == State::kReady || v.state == State::kCrashed || v.state == State::kCrashLoop) {
      StopWith(std::string("stopped: the server is ") + std::string(StateName(v.state)));
    } else if (auto mem = ReadMemInfo(config_.meminfo_path);
               mem && reserve_ > 0 && mem->available < reserve_) {
      StopWith("stopped: MemAvailable " + LiveBytes(mem->available) + " fell below the " +
               LiveBytes(reserve_) + " reserve");
    }
  }
  v.warm = status();
}

void WarmStage::Finish(Verdict& v, int64_t now_ms) {
  StopWith("stopped: the watch ended");
  if (thread_.joinable()) thread_.join();
  Apply(v, now_ms);
}

}  // namespace spinup
