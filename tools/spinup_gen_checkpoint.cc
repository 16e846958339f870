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

int main(int argc, char** argv) {
  CLI::App app{"Writes safetensors test checkpoints: dense, sparse, damaged, HF cache layout",
               "spinup_gen_checkpoint"};
  app.require_subcommand(1);
  gen::DenseOptions dense;
  gen::SparseOptions sparse;
  std::string out, kind, repo = "spinup/tiny-llama";
  bool corrupt = false;
  uint64_t seed = 1;

  auto* d = app.add_subcommand("dense", "small dense model with random data");
  d->add_option("OUT", out)->required();
  d->add_option("--layers", dense.layers);
  d->add_option("--hidden", dense.hidden);
  d->add_option("--intermediate", dense.intermediate);
  d->add_option("--vocab", dense.vocab);
  d->add_option("--shards", dense.shards)->check(CLI::Range(1, 10000));
  d->add_option("--dtype", dense.dtype);
  d->add_option("--seed", dense.seed);

  auto* s = app.add_subcommand("sparse", "large MoE model whose data is a hole (no disk cost)");
  s->add_option("OUT", out)->required();
  s->add_option("--layers", sparse.layers);
  s->add_option("--experts", sparse.experts);
  s->add_option("--hidden", sparse.hidden);
  s->add_option("--shards", sparse.shards)->check(CLI::Range(1, 10000));

  auto* x = app.add_subcommand("damaged", "a 3-shard checkpoint with one thing wrong");
  x->add_option("KIND", kind, "damage kind, or 'list'")->required();
  x->add_option("OUT", out);
  x->add_option("--seed", seed);

  auto* h = app.add_subcommand("hf-cache", "a Hugging Face cache repo folder (models--org--name)");
  h->add_option("CACHE_DIR", out)->required();
  h->add_option("--repo", repo);
  h->add_flag("--corrupt", corrupt, "make the first shard's blob disagree with its name");
  h->add_option("--layers", dense.layers);
  h->add_option("--shards", dense.shards);

  CLI11_PARSE(app, argc, argv);

  if (d->parsed()) {
    Status st = gen::WriteCheckpoint(out, gen::DenseSpec(dense));
    if (!st.ok()) {
      std::cerr << "spinup_gen_checkpoint: " << st.message() << "\n";
      return 1;
    }
    std::cout << out << "\n";
  } else if (s->parsed()) {
    Status st = gen::WriteCheckpoint(out, gen::SparseSpec(sparse));
    if (!st.ok()) {
      std::cerr << "spinup_gen_checkpoint: " << st.message() << "\n";
      return 1;
    }
    std::cout << out << "\n";
  } else if (x->parsed()) {
    if (kind == "list") {
      for (auto dmg : gen::AllDamages()) std::cout << gen::DamageName(dmg) << "\n";
      return 0;
    }
    auto dmg = gen::DamageFromName(kind);
    if (!dmg || out.empty()) {
      std::cerr << "spinup_gen_checkpoint: unknown damage '" << kind
                << "' or no OUT (try: damaged list)\n";
      return 2;
    }
    auto info = gen::WriteDamaged(out, *dmg, seed);
    if (!info.ok()) {
      std::cerr << "spinup_gen_checkpoint: " << info.status().message() << "\n";
      return 1;
    }
    std::cout << out << ": expect " << info->kind << " in " << info->file << "\n";
  } else if (h->parsed()) {
    auto path = gen::WriteHfCache(out, repo, gen::DenseSpec(dense), corrupt);
    if (!path.ok()) {
      std::cerr << "spinup_gen_checkpoint: " << path.status().message() << "\n";
      return 1;
    }
    std::cout << path->string() << "\n";
  }
  return 0;
}
