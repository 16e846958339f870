#include "cli/cli.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <ostream>
#include <string>
#include <vector>

#include "cli/exit_codes.h"
#include "cli/help.h"

extern const char* const kSpinupGitRevision;  // generated/version.cc (cmake/version.cmake)

namespace spinup {
namespace {

// A config or colour problem found after the flags parsed: a usage error like any other.
class SettingsError : public CLI::ParseError {
 public:
  explicit SettingsError(const std::string& msg)
      : CLI::ParseError("SettingsError", msg, kExitUsage) {}
};

void AddCommonOptions(CLI::App& sub, CliContext& ctx) {
  sub.add_option("--color", ctx.color,
                 "colour: auto (a terminal, unless NO_COLOR is set), always or never")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->group("Common");
  sub.add_option("--config", ctx.config_flag,
                 "config file (default /etc/spinup/config.toml when present; docs/config.md)")
      ->group("Common");
  // Nested commands (`history show`) take them too; their command's callback below reads them.
  for (CLI::App* nested : sub.get_subcommands({})) AddCommonOptions(*nested, ctx);
}

void AddCommonFlags(CLI::App& sub, CliContext& ctx) {
  AddCommonOptions(sub, ctx);
  // Runs once this command and its subcommands are parsed, before their callbacks: the one place
  // the file is read and colour decided.
  sub.parse_complete_callback([&ctx] {
    auto s = LoadSettings(ctx.config_flag, ctx.env.paths);
    if (!s.ok()) throw SettingsError(s.status().message());
    ctx.settings = std::move(*s);
    ctx.settings.color_out = ResolveColor(ctx.color, ctx.out_is_tty, ctx.env.no_color);
    ctx.settings.color_err = ResolveColor(ctx.color, ctx.err_is_tty, ctx.env.no_color);
  });
}

const char* const kOverviewFooter =
    "Run 'spinup help COMMAND' (or 'spinup COMMAND --help') for a command's options and an "
    "example; 'man spinup-COMMAND' for more.\n"
    "Exit codes: 0 ready/ok, 1 crashed or problems found, 2 usage error, 3 stalled, 4 timed out, "
    "5 still in progress.";

void AddHelpCommand(CLI::App& app, CliContext& ctx) {
  auto* help = app.add_subcommand("help", "Show the overview, or a command's options and example");
  help->add_option("COMMAND", ctx.help_topic, "the command to explain (and its subcommand)");
  help->group("Help");
  help->callback([&app, &ctx] {
    // App::help() would describe the selected subcommand (this one): format directly.
    CLI::App* sub = &app;
    std::string name = "spinup";
    for (const std::string& word : ctx.help_topic) {
      CLI::App* next = nullptr;
      for (CLI::App* s : sub->get_subcommands({})) {
        if (s->get_name() == word && !s->get_group().empty()) next = s;
      }
      if (next == nullptr) {
        std::string hint = SuggestCommand(word, CommandNames(*sub));
        *ctx.err << "spinup: unknown command '" << (sub == &app ? "" : name.substr(7) + " ") << word
                 << "'" << (hint.empty() ? "" : "; did you mean '" + hint + "'?") << "\n";
        ctx.exit_code = kExitUsage;
        return;
      }
      sub = next;
      name += " " + word;
    }
    *ctx.out << sub->get_formatter()->make_help(sub, name, CLI::AppFormatMode::Normal);
    ctx.exit_code = kExitOk;
  });
}

// The first word that is not a flag names the command; catch typos before CLI11 reports them as
// "unexpected arguments".
bool CheckCommandWord(int argc, const char* const* argv, CLI::App& app, std::ostream& err) {
  if (argc < 2 || argv[1][0] == '-') return true;
  const std::string word = argv[1];
  for (const auto& n : CommandNames(app)) {
    if (n == word) return true;
  }
  std::string hint = SuggestCommand(word, CommandNames(app));
  err << "spinup: unknown command '" << word << "'"
      << (hint.empty() ? "" : "; did you mean '" + hint + "'?") << "\n"
      << "Run 'spinup help' for the list of commands.\n";
  return false;
}

}  // namespace

std::string VersionString() {
  return std::string("spinup ") + SPINUP_VERSION + " (git " + kSpinupGitRevision + ")";
}

void BuildCliApp(CLI::App& app, CliContext& ctx) {
  app.description(
      "spinup: see what a large-model inference server is doing while it starts, judge it, and "
      "load its checkpoint fast.");
  app.name("spinup");
  app.set_version_flag("-V,--version", VersionString(), "print the version and git revision");
  app.footer(kOverviewFooter);
  app.formatter(std::make_shared<HelpFormatter>(HelpWidth(ctx.env.columns)));
  app.option_defaults()->group("Options");

  AddInspectCommand(app, ctx);
  AddVerifyCommand(app, ctx);
  AddRunCommand(app, ctx);
  AddWatchCommand(app, ctx);
  AddExplainCommand(app, ctx);
  AddReportCommand(app, ctx);
  AddBenchCommand(app, ctx);
  AddWarmCommand(app, ctx);
  AddEvictCommand(app, ctx);
  AddDoctorCommand(app, ctx);
  AddHistoryCommand(app, ctx);
  AddHelpCommand(app, ctx);
  app.require_subcommand(0, 1);
  const std::pair<const char*, const char*> kGroups[] = {
      {"inspect", "Before a start"}, {"verify", "Before a start"}, {"doctor", "Before a start"},
      {"run", "During a start"},     {"watch", "During a start"},  {"explain", "After a start"},
      {"report", "After a start"},   {"history", "After a start"}, {"bench", "Page cache"},
      {"warm", "Page cache"},        {"evict", "Page cache"}};
  for (const auto& [name, group] : kGroups) app.get_subcommand(name)->group(group);
  for (CLI::App* sub : app.get_subcommands({})) AddCommonFlags(*sub, ctx);
}

CliEnv DetectCliEnv(const std::ostream& out, const std::ostream& err) {
  CliEnv env;
  env.out_is_tty = (&out == &std::cout) && isatty(STDOUT_FILENO);
  env.err_is_tty = (&err == &std::cerr) && isatty(STDERR_FILENO);
  winsize ws{};
  if (env.out_is_tty && ::ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0) env.columns = ws.ws_col;
  const char* no_color = std::getenv("NO_COLOR");
  env.no_color = no_color != nullptr && *no_color != '\0';
  return env;
}

int RunCli(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  return RunCli(argc, argv, out, err, DetectCliEnv(out, err));
}

int RunCli(int argc, const char* const* argv, std::ostream& out, std::ostream& err,
           const CliEnv& env) {
  CliContext ctx;
  ctx.out = &out;
  ctx.err = &err;
  ctx.env = env;
  ctx.out_is_tty = env.out_is_tty;
  ctx.err_is_tty = env.err_is_tty;
  ctx.own_process = &out == &std::cout && &err == &std::cerr;

  CLI::App app;
  BuildCliApp(app, ctx);

  // A bare `spinup` is a usage error (exit 2) that shows the overview on stdout.
  if (argc < 2) {
    out << app.help();
    return kExitUsage;
  }
  if (!CheckCommandWord(argc, argv, app, err)) return kExitUsage;
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    out << app.help();
    return kExitOk;
  } catch (const CLI::CallForAllHelp& e) {
    out << app.help("", CLI::AppFormatMode::All);
    return kExitOk;
  } catch (const CLI::CallForVersion& e) {
    out << e.what() << "\n";
    return kExitOk;
  } catch (const CLI::ParseError& e) {
    err << "spinup: " << e.what() << "\n";
    return kExitUsage;
  }
  if (app.get_subcommands().empty()) {
    out << app.help();
    return kExitUsage;
  }
  // Output that did not reach its file (`verify --json > /dev/full`) is a failure, like cat's.
  out.flush();
  if (!out) {
    err << "spinup: cannot write the output: " << (errno ? std::strerror(errno) : "write error")
        << "\n";
    return ctx.exit_code == kExitOk ? kExitProblem : ctx.exit_code;
  }
  return ctx.exit_code;
}

}  // namespace spinup
