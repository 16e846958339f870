// Writes spinup's man pages and shell completions into a folder, from the same CLI11 definitions
// that --help prints (src/cli/docgen.h): a page per command at every depth (spinup-history-show.1).
// Run by the build; the output is installed.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include <CLI/CLI.hpp>

#include "cli/cli.h"
#include "cli/docgen.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: spinup_gen_docs OUT_DIR\n";
    return 2;
  }
  namespace fs = std::filesystem;
  const fs::path out = argv[1];
  std::ostringstream sink;
  spinup::CliContext ctx;
  ctx.out = &sink;
  ctx.err = &sink;
  CLI::App app;
  spinup::BuildCliApp(app, ctx);
  auto write = [&](const fs::path& rel, const std::string& text) {
    fs::create_directories((out / rel).parent_path());
    std::ofstream f(out / rel, std::ios::binary | std::ios::trunc);
    f << text;
    if (!f) {
      std::cerr << "spinup_gen_docs: cannot write " << (out / rel) << "\n";
      std::exit(1);
    }
  };
  write("man/man1/spinup.1", spinup::ManPageTop(app, SPINUP_VERSION));
  for (const auto& cmd : spinup::DescribeCli(app)) {
    if (cmd.name.empty()) continue;
    write("man/man1/" + spinup::ManPageName(cmd) + ".1",
          spinup::ManPageCommand(cmd, SPINUP_VERSION));
  }
  write("completions/spinup.bash", spinup::BashCompletion(app));
  write("completions/_spinup", spinup::ZshCompletion(app));
  write("completions/spinup.fish", spinup::FishCompletion(app));
  return 0;
}
