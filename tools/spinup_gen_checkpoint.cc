// spinup_gen_checkpoint: writes test checkpoints (see src/format/checkpoint_writer.h).
//
//   spinup_gen_checkpoint dense OUT [--layers N --hidden N --intermediate N --vocab N --shards N]
//   spinup_gen_checkpoint sparse OUT [--layers N --experts N --shards N]   (no disk cost)
//   spinup_gen_checkpoint damaged KIND OUT      (KIND: truncated, missing-shard, ... or "list")
//   spinup_gen_checkpoint hf-cache CACHE_DIR [--repo org/name] [--corrupt]
#include <CLI/CLI.hpp>
#include <iostream>

#include "format/checkpoint_writer.h"

using namespace spinup;

namespace {

struct Args {
  gen::DenseOptions dense;
  gen::SparseOptions sparse;
  std::string out, kind, repo = "spinup/tiny-llama";
  bool corrupt = false;
  uint64_t seed = 1;
};

struct Commands {
  CLI::App* dense;
  CLI::App* sparse;
  CLI::App* damaged;
  CLI::App* hf_cache;
};

Commands AddCommands(CLI::App& app, Args& a) {
  auto* d = app.add_subcommand("dense", "small dense model with random data");
  d->add_option("OUT", a.out)->required();
  d->add_option("--layers", a.dense.layers);
  d->add_option("--hidden", a.dense.hidden);
  d->add_option("--intermediate", a.dense.intermediate);
  d->add_option("--vocab", a.dense.vocab);
  d->add_option("--shards", a.dense.shards)->check(CLI::Range(1, 10000));
  d->add_option("--dtype", a.dense.dtype);
  d->add_option("--seed", a.dense.seed);

  auto* s = app.add_subcommand("sparse", "large MoE model whose data is a hole (no disk cost)");
  s->add_option("OUT", a.out)->required();
  s->add_option("--layers", a.sparse.layers);
  s->add_option("--experts", a.sparse.experts);
  s->add_option("--hidden", a.sparse.hidden);
  s->add_option("--shards", a.sparse.shards)->check(CLI::Range(1, 10000));

  auto* x = app.add_subcommand("damaged", "a 3-shard checkpoint with one thing wrong");
  x->add_option("KIND", a.kind, "damage kind, or 'list'")->required();
  x->add_option("OUT", a.out);
  x->add_option("--seed", a.seed);

  auto* h = app.add_subcommand("hf-cache", "a Hugging Face cache repo folder (models--org--name)");
  h->add_option("CACHE_DIR", a.out)->required();
  h->add_option("--repo", a.repo);
  h->add_flag("--corrupt", a.corrupt, "make the first shard's blob disagree with its name");
  h->add_option("--layers", a.dense.layers);
  h->add_option("--shards", a.dense.shards);
  return {d, s, x, h};
}

int Fail(const Status& st) {
  std::cerr << "spinup_gen_checkpoint: " << st.message() << "\n";
  return 1;
}

int WriteSpec(const std::string& out, const gen::CheckpointSpec& spec) {
  Status st = gen::WriteCheckpoint(out, spec);
  if (!st.ok()) return Fail(st);
  std::cout << out << "\n";
  return 0;
}

int WriteDamaged(const Args& a) {
  if (a.kind == "list") {
    for (auto dmg : gen::AllDamages()) std::cout << gen::DamageName(dmg) << "\n";
    return 0;
  }
  auto dmg = gen::DamageFromName(a.kind);
  if (!dmg || a.out.empty()) {
    std::cerr << "spinup_gen_checkpoint: unknown damage '" << a.kind
              << "' or no OUT (try: damaged list)\n";
    return 2;
  }
  auto info = gen::WriteDamaged(a.out, *dmg, a.seed);
  if (!info.ok()) return Fail(info.status());
  std::cout << a.out << ": expect " << info->kind << " in " << info->file << "\n";
  return 0;
}

int WriteHfCache(const Args& a) {
  auto path = gen::WriteHfCache(a.out, a.repo, gen::DenseSpec(a.dense), a.corrupt);
  if (!path.ok()) return Fail(path.status());
  std::cout << path->string() << "\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Writes safetensors test checkpoints: dense, sparse, damaged, HF cache layout",
               "spinup_gen_checkpoint"};
  app.require_subcommand(1);
  Args a;
  Commands c = AddCommands(app, a);
  CLI11_PARSE(app, argc, argv);
  if (c.dense->parsed()) return WriteSpec(a.out, gen::DenseSpec(a.dense));
  if (c.sparse->parsed()) return WriteSpec(a.out, gen::SparseSpec(a.sparse));
  if (c.damaged->parsed()) return WriteDamaged(a);
  if (c.hf_cache->parsed()) return WriteHfCache(a);
  return 0;
}
