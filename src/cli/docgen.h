// Man pages and shell completions generated from the CLI11 tree that --help prints, so the three
// cannot drift (tests/docgen_test.cc compares them with --help). Pure: an App in, text out.
// tools/spinup_gen_docs.cc writes them at build time; CMake installs the output.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace spinup {

struct DocOption {
  std::vector<std::string> names;  // "-o", "--output"
  std::string value;               // "TEXT", "UINT:{auto,always,never}"... ("" for a flag)
  std::string description;
  std::string group;
  std::vector<std::string> choices;  // from an IsMember check, for completions
};

struct DocSubcommand {
  std::string name;  // the word: "show"
  std::string description;
};

struct DocCommand {
  std::string name;  // the words after `spinup`: "" for the top level, "history show" nested
  std::string description;
  std::string example;
  std::vector<DocOption> positionals;
  std::vector<DocOption> options;          // visible ones, in help order
  std::vector<DocSubcommand> subcommands;  // visible ones, each also a DocCommand of its own
};

// The top level and every visible command at any depth (`help` excluded), each before its own
// subcommands, as the generators see them.
std::vector<DocCommand> DescribeCli(const CLI::App& app);
// The command's man page: "spinup-history-show" (without the section).
std::string ManPageName(const DocCommand& cmd);

// spinup(1): overview, commands, exit codes, files, environment.
std::string ManPageTop(const CLI::App& app, const std::string& version);
// spinup-CMD(1), spinup-CMD-SUB(1).
std::string ManPageCommand(const DocCommand& cmd, const std::string& version);

std::string BashCompletion(const CLI::App& app);
std::string ZshCompletion(const CLI::App& app);
std::string FishCompletion(const CLI::App& app);

}  // namespace spinup
