// End-to-end: `spinup inspect` and `spinup verify` on generated checkpoints, run as a user would.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cmath>
#include <map>
#include <nlohmann/json.hpp>

#include "format/checkpoint_writer.h"
#include "test_util.h"

namespace spinup {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing::ReadFile;
using testing::RunSpinup;
using testing::TempDir;

// Everything about a folder that "nothing changed" covers: every entry's type, size,
// modification time (ns), and content (or link target).
std::map<std::string, std::string> Snapshot(const fs::path& root) {
  std::map<std::string, std::string> out;
  for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator();
       ++it) {
    struct stat st {};
    EXPECT_EQ(::lstat(it->path().c_str(), &st), 0);
    std::string v = std::to_string(st.st_mode) + "/" + std::to_string(st.st_size) + "/" +
                    std::to_string(st.st_mtim.tv_sec) + "." + std::to_string(st.st_mtim.tv_nsec);
    if (S_ISLNK(st.st_mode)) {
      v += "->" + fs::read_symlink(it->path()).string();
    } else if (S_ISREG(st.st_mode)) {
      v += "#" + std::to_string(std::hash<std::string>{}(ReadFile(it->path())));
    }
    out[fs::relative(it->path(), root).string()] = v;
  }
  return out;
}

class DamagedCheckpoint : public ::testing::TestWithParam<gen::Damage> {};

TEST_P(DamagedCheckpoint, VerifyNamesKindFileAndExitCodeAndChangesNothing) {
  const gen::Damage d = GetParam();
  SCOPED_TRACE(std::string(gen::DamageName(d)));
  TempDir tmp;
  fs::path dir = tmp / "model";
  auto info = gen::WriteDamaged(dir, d);
  ASSERT_TRUE(info.ok()) << info.status().message();
  auto before = Snapshot(tmp.path());

  auto r = RunSpinup({"verify", "--json", dir.string()});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  json j = json::parse(r.out);
  EXPECT_FALSE(j["ok"].get<bool>());
  ASSERT_FALSE(j["problems"].empty());
  bool found = false;
  for (const auto& p : j["problems"]) {
    if (p["kind"] == info->kind && p["file"] == info->file) found = true;
  }
  EXPECT_TRUE(found) << r.out;
  if (d != gen::Damage::kOutOfBounds) {
    // One thing wrong, one problem: nothing else is blamed.
    EXPECT_EQ(j["problems"].size(), 1u) << r.out;
    EXPECT_EQ(j["problems"][0]["kind"], info->kind);
    EXPECT_EQ(j["problems"][0]["file"], info->file);
  }

  // The human form names file and kind on one line.
  auto text = RunSpinup({"verify", dir.string()});
  EXPECT_EQ(text.exit_code, 1);
  EXPECT_NE(text.out.find(info->file + ": " + info->kind + ": "), std::string::npos) << text.out;

  // And --hash changes nothing either.
  auto hashed = RunSpinup({"verify", "--hash", dir.string()});
  EXPECT_EQ(hashed.exit_code, 1);
  EXPECT_EQ(Snapshot(tmp.path()), before);
}

INSTANTIATE_TEST_SUITE_P(AllKinds, DamagedCheckpoint, ::testing::ValuesIn(gen::AllDamages()),
                         [](const ::testing::TestParamInfo<gen::Damage>& info) {
                           std::string name(gen::DamageName(info.param));
                           for (char& c : name) {
                             if (c == '-') c = '_';
                           }
                           return name;
                         });

TEST(VerifyCli, WholeCheckpointIsOkAndUnchanged) {
  TempDir tmp;
  gen::DenseOptions o;
  o.shards = 3;
  ASSERT_TRUE(gen::WriteCheckpoint(tmp / "m", gen::DenseSpec(o)).ok());
  auto before = Snapshot(tmp.path());
  auto r = RunSpinup({"verify", "--json", (tmp / "m").string()});
  EXPECT_EQ(r.exit_code, 0) << r.out;
  json j = json::parse(r.out);
  for (const char* key : {"path", "ok", "checked_files", "hashed_bytes", "problems"}) {
    EXPECT_TRUE(j.contains(key)) << key;
  }
  EXPECT_TRUE(j["ok"].get<bool>());
  EXPECT_EQ(j["checked_files"], 4);  // 3 shards + the index
  EXPECT_EQ(j["hashed_bytes"], 0);
  EXPECT_TRUE(j["problems"].empty());
  EXPECT_EQ(Snapshot(tmp.path()), before);
}

TEST(VerifyCli, HashMatchesAndMismatchesHuggingFaceBlobNames) {
  TempDir tmp;
  gen::DenseOptions o;
  o.shards = 2;
  auto good = gen::WriteHfCache(tmp / "good", "org/name", gen::DenseSpec(o), false);
  auto bad = gen::WriteHfCache(tmp / "bad", "org/name", gen::DenseSpec(o), true);
  ASSERT_TRUE(good.ok() && bad.ok());
  auto before = Snapshot(tmp.path());

  auto r = RunSpinup({"verify", "--hash", "--json", good->string()});
  EXPECT_EQ(r.exit_code, 0) << r.out;
  json j = json::parse(r.out);
  uint64_t shard_bytes = 0;
  std::string commit = ReadFile(*good / "refs" / "main");
  for (const char* f : {"model-00001-of-00002.safetensors", "model-00002-of-00002.safetensors"}) {
    shard_bytes += fs::file_size(*good / "snapshots" / commit / f);
  }
  EXPECT_EQ(j["hashed_bytes"].get<uint64_t>(), shard_bytes);
  ASSERT_EQ(j["digests"].size(), 2u);
  for (const auto& d : j["digests"]) {
    // The blob name is the digest sha256sum would print.
    fs::path link = *good / "snapshots" / commit / d["file"].get<std::string>();
    EXPECT_EQ(d["sha256"], fs::read_symlink(link).filename().string());
    EXPECT_EQ(d["expected"], d["sha256"]);
  }

  auto m = RunSpinup({"verify", "--hash", "--json", bad->string()});
  EXPECT_EQ(m.exit_code, 1) << m.out;
  json mj = json::parse(m.out);
  ASSERT_EQ(mj["problems"].size(), 1u) << m.out;
  EXPECT_EQ(mj["problems"][0]["kind"], "hash_mismatch");
  EXPECT_EQ(mj["problems"][0]["file"], "model-00001-of-00002.safetensors");
  // Without --hash the corrupted byte (in tensor data) goes unnoticed: headers are fine.
  EXPECT_EQ(RunSpinup({"verify", bad->string()}).exit_code, 0);
  EXPECT_EQ(Snapshot(tmp.path()), before);
}

TEST(VerifyCli, UsageErrorsExitTwo) {
  TempDir tmp;
  auto r = RunSpinup({"verify", (tmp / "missing").string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err.rfind("spinup: ", 0), 0u) << r.err;
  EXPECT_EQ(RunSpinup({"verify"}).exit_code, 2);
  EXPECT_EQ(RunSpinup({"verify", "--bogus", tmp.path().string()}).exit_code, 2);
}

TEST(InspectCli, JsonKeysAndValuesForAKnownCheckpoint) {
  TempDir tmp;
  std::vector<gen::TensorSpec> tensors = {
      {"w", "BF16", {1000, 1000}}, {"n", "F32", {1000}}, {"s", "I64", {}}};
  gen::CheckpointSpec spec;
  spec.shards = {gen::LayOut("model.safetensors", tensors)};
  spec.write_index = false;
  ASSERT_TRUE(gen::WriteCheckpoint(tmp.path(), spec).ok());
  auto before = Snapshot(tmp.path());
  auto r = RunSpinup({"inspect", tmp.path().string(), "--json", "--tp", "4", "--gpu-mem", "1MB",
                      "--read-bw", "1MB/s"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json j = json::parse(r.out);
  for (const char* key : {"path", "format", "shards", "tensors", "total_bytes", "file_bytes",
                          "parameters", "dtypes", "config", "tp", "per_rank_bytes", "gpu_mem_bytes",
                          "fits", "headroom_bytes", "read_bytes_per_s", "predicted_load_seconds"}) {
    EXPECT_TRUE(j.contains(key)) << key;
  }
  for (const char* key : {"architecture", "model_type", "layers", "experts", "experts_per_token",
                          "hidden_size", "dtype", "quantization"}) {
    EXPECT_TRUE(j["config"].contains(key)) << key;
    EXPECT_TRUE(j["config"][key].is_null()) << key;  // no config.json
  }
  uint64_t file = fs::file_size(tmp / "model.safetensors");
  EXPECT_EQ(j["format"], "safetensors");
  EXPECT_EQ(j["shards"], 1);
  EXPECT_EQ(j["tensors"], 3);
  EXPECT_EQ(j["total_bytes"], 2'000'000 + 4'000 + 8);
  EXPECT_EQ(j["file_bytes"], file);
  EXPECT_EQ(j["parameters"], 1'000'000 + 1'000 + 1);
  EXPECT_EQ(j["dtypes"]["BF16"], 2'000'000);
  EXPECT_EQ(j["dtypes"]["F32"], 4'000);
  EXPECT_EQ(j["dtypes"]["I64"], 8);
  EXPECT_EQ(j["tp"], 4);
  EXPECT_EQ(j["per_rank_bytes"], 500'000 + 4'000 + 8);
  EXPECT_EQ(j["gpu_mem_bytes"], 1'000'000);
  EXPECT_EQ(j["fits"], true);
  EXPECT_EQ(j["headroom_bytes"], 1'000'000 - 504'008);
  EXPECT_DOUBLE_EQ(j["read_bytes_per_s"].get<double>(), 1e6);
  EXPECT_DOUBLE_EQ(j["predicted_load_seconds"].get<double>(), static_cast<double>(file) / 1e6);

  // Without the optional flags the derived keys are null.
  auto plain = json::parse(RunSpinup({"inspect", "--json", tmp.path().string()}).out);
  for (const char* key :
       {"gpu_mem_bytes", "fits", "headroom_bytes", "read_bytes_per_s", "predicted_load_seconds"}) {
    EXPECT_TRUE(plain[key].is_null()) << key;
  }
  EXPECT_EQ(plain["tp"], 1);
  EXPECT_EQ(plain["per_rank_bytes"], 2'004'008);

  // Does not fit: headroom goes negative.
  auto tight =
      json::parse(RunSpinup({"inspect", "--json", "--gpu-mem", "1KiB", tmp.path().string()}).out);
  EXPECT_EQ(tight["fits"], false);
  EXPECT_EQ(tight["headroom_bytes"], 1024 - 2'004'008);
  EXPECT_EQ(Snapshot(tmp.path()), before);
}

TEST(InspectCli, SparseCheckpointHumanSummary) {
  TempDir tmp;
  gen::SparseOptions o;  // 39 shards, 37,203 tensors, ~238 GB apparent
#ifdef __SANITIZE_ADDRESS__
  o.experts = 32;  // unoptimized JSON parsing under ASan: a smaller table
#endif
  ASSERT_TRUE(gen::WriteCheckpoint(tmp.path(), gen::SparseSpec(o)).ok());
  auto j = json::parse(RunSpinup({"inspect", "--json", tmp.path().string()}).out);
  const uint64_t tensors = 48 * (7 + 3 * o.experts) + 3;
  EXPECT_EQ(j["tensors"], tensors);
  auto r = RunSpinup(
      {"inspect", tmp.path().string(), "--tp", "8", "--gpu-mem", "96GiB", "--read-bw", "500MB/s"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("39 shards, " + std::to_string(tensors) + " tensors"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("Qwen3MoeForCausalLM"), std::string::npos);
  EXPECT_NE(r.out.find("48 layers, " + std::to_string(o.experts) + " experts (8 per token)"),
            std::string::npos);
  EXPECT_NE(r.out.find("per rank (TP 8)"), std::string::npos);
  EXPECT_NE(r.out.find("fits in"), std::string::npos);
  // file_bytes / 500 MB/s, rounded to minutes (about 8 for the full-size checkpoint).
  double seconds = j["file_bytes"].get<double>() / 500e6;
  std::string when = seconds < 90 ? "about " + std::to_string(std::lround(seconds)) + " s"
                                  : "about " + std::to_string(std::lround(seconds / 60)) + " min";
  if (o.experts == 256) {
    EXPECT_EQ(when, "about 8 min");
  }
  EXPECT_NE(r.out.find(" GB at 500 MB/s: " + when + " of reading before anything else"),
            std::string::npos)
      << r.out;
}

TEST(InspectCli, BadFlagsAndPathsAreUsageErrors) {
  TempDir tmp;
  gen::DenseOptions o;
  ASSERT_TRUE(gen::WriteCheckpoint(tmp.path(), gen::DenseSpec(o)).ok());
  EXPECT_EQ(RunSpinup({"inspect", tmp.path().string(), "--gpu-mem", "lots"}).exit_code, 2);
  EXPECT_EQ(RunSpinup({"inspect", tmp.path().string(), "--read-bw", "0MB/s"}).exit_code, 2);
  EXPECT_EQ(RunSpinup({"inspect", tmp.path().string(), "--tp", "0"}).exit_code, 2);
  auto r = RunSpinup({"inspect", (tmp / "absent").string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("spinup: "), std::string::npos);
}

TEST(InspectCli, DamagedCheckpointStillInspectsWithAWarning) {
  TempDir tmp;
  ASSERT_TRUE(gen::WriteDamaged(tmp / "m", gen::Damage::kLfsPointer).ok());
  auto r = RunSpinup({"inspect", (tmp / "m").string()});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("lfs_pointer"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("run spinup verify"), std::string::npos);
}

}  // namespace
}  // namespace spinup
