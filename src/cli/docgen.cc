#include "cli/docgen.h"

#include <cctype>
#include <sstream>

#include "cli/help.h"

namespace spinup {
namespace {

std::vector<std::string> Choices(const std::string& type_name) {
  std::vector<std::string> out;
  size_t open = type_name.find('{');
  size_t close = type_name.find('}', open);
  if (open == std::string::npos || close == std::string::npos) return out;
  std::stringstream in(type_name.substr(open + 1, close - open - 1));
  for (std::string item; std::getline(in, item, ',');) {
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

DocOption Describe(const CLI::Option* opt) {
  DocOption d;
  for (const auto& s : opt->get_snames()) d.names.push_back("-" + s);
  for (const auto& l : opt->get_lnames()) d.names.push_back("--" + l);
  if (d.names.empty()) d.names.push_back(opt->get_name());  // a positional
  if (opt->get_type_size() != 0) {
    d.value = opt->get_type_name();
    d.choices = Choices(d.value);
  }
  d.description = opt->get_description();
  d.group = opt->get_group();
  return d;
}

// A command the generators describe: not the top level's hidden ones, not `help`.
bool Visible(const CLI::App& sub) {
  return !sub.get_name().empty() && !sub.get_group().empty() && sub.get_name() != "help";
}

std::string Roff(const std::string& text);

DocCommand DescribeApp(const CLI::App& app, const std::string& path) {
  DocCommand c;
  c.name = path;
  c.description = app.get_description();
  c.example = CommandExample(app);
  for (const CLI::Option* opt : app.get_options()) {
    if (opt->get_group().empty()) continue;   // hidden
    if (opt == app.get_help_ptr()) continue;  // every command has -h/--help; said once
    if (opt->get_positional()) {
      c.positionals.push_back(Describe(opt));
    } else {
      c.options.push_back(Describe(opt));
    }
  }
  for (const CLI::App* sub : app.get_subcommands({})) {
    if (Visible(*sub)) c.subcommands.push_back({sub->get_name(), sub->get_description()});
  }
  return c;
}

// `app` (named `path`), then each visible subcommand's tree, depth first in definition order.
void DescribeTree(const CLI::App& app, const std::string& path, std::vector<DocCommand>& out) {
  out.push_back(DescribeApp(app, path));
  for (const CLI::App* sub : app.get_subcommands({})) {
    if (!Visible(*sub)) continue;
    DescribeTree(*sub, path.empty() ? sub->get_name() : path + " " + sub->get_name(), out);
  }
}

// "history show" -> {"history", "show"}.
std::vector<std::string> Words(const std::string& name) {
  std::vector<std::string> out;
  std::istringstream in(name);
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

// "\fBspinup\-history\-show\fR(1)".
std::string PageRef(const std::string& command_name) {
  DocCommand c;
  c.name = command_name;
  return "\\fB" + Roff(ManPageName(c)) + "\\fR(1)";
}

// roff: backslashes and leading dots/quotes are the only hazards in our plain text.
std::string Roff(const std::string& text) {
  std::string out;
  bool line_start = true;
  for (char c : text) {
    if (line_start && (c == '.' || c == '\'')) out += "\\&";
    if (c == '\\') {
      out += "\\e";
    } else if (c == '-') {
      out += "\\-";
    } else {
      out += c;
    }
    line_start = c == '\n';
  }
  return out;
}

std::string FirstSentence(const std::string& text) {
  size_t end = text.find(": ");
  size_t dot = text.find(". ");
  size_t cut = std::min(end, dot);
  std::string s = cut == std::string::npos ? text : text.substr(0, cut);
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s;
}

void ManOptions(const DocCommand& cmd, std::ostringstream& out) {
  std::string group;
  for (const auto& o : cmd.options) {
    if (o.group != group) {
      group = o.group;
      out << ".SS " << Roff(group) << "\n";
    }
    out << ".TP\n";
    std::string names;
    for (const auto& n : o.names)
      names += (names.empty() ? "" : ", ") + std::string("\\fB") + Roff(n) + "\\fR";
    out << names;
    if (!o.value.empty()) out << " \\fI" << Roff(o.value) << "\\fR";
    out << "\n" << Roff(o.description) << "\n";
  }
}

// A command with subcommands: each with its description and its own page.
void ManSubcommands(const DocCommand& cmd, std::ostringstream& out) {
  if (cmd.subcommands.empty()) return;
  out << ".SH SUBCOMMANDS\n";
  for (const auto& sub : cmd.subcommands) {
    const std::string full = cmd.name + " " + sub.name;
    out << ".TP\n\\fBspinup " << Roff(full) << "\\fR\n"
        << Roff(sub.description) << "\nSee " << PageRef(full) << ".\n";
  }
}

// spinup(1), then the pages of the commands above this one, then those of its subcommands.
std::string SeeAlso(const DocCommand& cmd) {
  std::string out = "\\fBspinup\\fR(1)";
  std::vector<std::string> words = Words(cmd.name);
  std::string above;
  for (size_t i = 0; i + 1 < words.size(); ++i) {
    above += (above.empty() ? "" : " ") + words[i];
    out += ",\n" + PageRef(above);
  }
  for (const auto& sub : cmd.subcommands) out += ",\n" + PageRef(cmd.name + " " + sub.name);
  return out;
}

const char* const kExitStatus =
    ".SH EXIT STATUS\n"
    ".TP\n0\nready, whole, done\n"
    ".TP\n1\ncrashed, crash loop, or problems found\n"
    ".TP\n2\nusage error (also a bare \\fBspinup\\fR), unreadable path\n"
    ".TP\n3\na startup stalled\n"
    ".TP\n4\n\\-\\-timeout passed before a verdict\n"
    ".TP\n5\nstill in progress\n";

const char* const kFiles =
    ".SH FILES\n"
    ".TP\n/etc/spinup/config.toml\n"
    "Operator defaults: metrics address, model label, stall budget, history and rules folders "
    "(\\-\\-config picks another file).\n"
    ".TP\n/etc/spinup/rules.d/*.json\n"
    "Extra rules, loaded in name order before \\-\\-rules.\n"
    ".SH ENVIRONMENT\n"
    ".TP\nNO_COLOR\nWhen set and not empty, no colour unless \\-\\-color=always.\n"
    ".TP\nNOTIFY_SOCKET\nSet by systemd for Type=notify units: spinup sends STATUS=, READY=1 "
    "and WATCHDOG=1.\n";

std::string Header(const std::string& title, const std::string& version) {
  return ".\\\" Generated by spinup_gen_docs from the command definitions; do not edit.\n"
         ".TH " +
         title + " 1 \"\" \"spinup " + version + "\" \"spinup manual\"\n";
}

}  // namespace

std::vector<DocCommand> DescribeCli(const CLI::App& app) {
  std::vector<DocCommand> out;
  DescribeTree(app, "", out);
  return out;
}

std::string ManPageName(const DocCommand& cmd) {
  std::string name = "spinup";
  for (const auto& w : Words(cmd.name)) name += "-" + w;
  return name;
}

std::string ManPageCommand(const DocCommand& cmd, const std::string& version) {
  std::string upper;
  for (char c : ManPageName(cmd)) {
    upper += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  }
  std::ostringstream out;
  out << Header(upper, version);
  out << ".SH NAME\n"
      << Roff(ManPageName(cmd)) << " \\- " << Roff(FirstSentence(cmd.description)) << "\n";
  out << ".SH SYNOPSIS\n.B spinup " << Roff(cmd.name) << "\n[\\fIOPTIONS\\fR]";
  for (const auto& p : cmd.positionals) out << " \\fI" << Roff(p.names.front()) << "\\fR";
  if (!cmd.subcommands.empty()) out << " [\\fISUBCOMMAND\\fR]";
  out << "\n.SH DESCRIPTION\n" << Roff(cmd.description) << "\n";
  if (!cmd.positionals.empty()) {
    out << ".SH ARGUMENTS\n";
    for (const auto& p : cmd.positionals) {
      out << ".TP\n\\fI" << Roff(p.names.front()) << "\\fR\n" << Roff(p.description) << "\n";
    }
  }
  ManSubcommands(cmd, out);
  out << ".SH OPTIONS\n";
  ManOptions(cmd, out);
  if (!cmd.example.empty()) out << ".SH EXAMPLE\n.nf\n" << Roff(cmd.example) << ".fi\n";
  out << kExitStatus << kFiles;
  out << ".SH SEE ALSO\n" << SeeAlso(cmd) << "\n";
  return out.str();
}

std::string ManPageTop(const CLI::App& app, const std::string& version) {
  std::ostringstream out;
  out << Header("SPINUP", version);
  out << ".SH NAME\nspinup \\- see, judge and speed up the startup of LLM inference servers\n";
  out << ".SH SYNOPSIS\n.B spinup\n\\fICOMMAND\\fR [\\fIOPTIONS\\fR]\n.br\n"
         ".B spinup help\n[\\fICOMMAND\\fR]\n.br\n.B spinup \\-\\-version\n";
  out << ".SH DESCRIPTION\n" << Roff(app.get_description()) << "\n";
  out << ".PP\nA bare \\fBspinup\\fR prints this overview and exits 2; \\fBspinup help\\fR "
         "prints it and exits 0.\n";
  out << ".SH COMMANDS\n";
  std::string see_also;
  for (const auto& cmd : DescribeCli(app)) {
    if (cmd.name.empty()) continue;
    // Subcommands are listed on their command's page; every page is in SEE ALSO.
    if (Words(cmd.name).size() == 1) {
      out << ".TP\n\\fBspinup " << Roff(cmd.name) << "\\fR\n"
          << Roff(cmd.description) << "\nSee " << PageRef(cmd.name) << ".\n";
    }
    see_also += (see_also.empty() ? "" : ",\n") + PageRef(cmd.name);
  }
  out << ".SH OPTIONS\n.TP\n\\fB\\-V\\fR, \\fB\\-\\-version\\fR\nPrint the version and git "
         "revision.\n.TP\n\\fB\\-h\\fR, \\fB\\-\\-help\\fR\nPrint the overview.\n";
  out << kExitStatus << kFiles;
  out << ".SH SEE ALSO\n" << see_also << "\n";
  return out.str();
}

namespace {

std::vector<std::string> OptionWords(const DocCommand& c) {
  std::vector<std::string> out;
  for (const auto& o : c.options) out.insert(out.end(), o.names.begin(), o.names.end());
  return out;
}

std::string Join(const std::vector<std::string>& v, const char* sep) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : sep) + s;
  return out;
}

// Single quotes for shell scripts.
std::string ShQuote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

}  // namespace

namespace {

// A `case` pattern for the command: `history`, or `'history show'` for a nested one.
std::string CaseLabel(const std::string& name) {
  return name.find(' ') == std::string::npos ? name : "'" + name + "'";
}

// Nested commands in `case "$cmd WORD"` form: the line that makes `cmd` the nested command; the
// shells' loops over the words typed so far follow these (`spinup history --limit 5 show`).
std::vector<std::string> NestedNames(const std::vector<DocCommand>& cmds) {
  std::vector<std::string> out;
  for (const auto& c : cmds) {
    if (Words(c.name).size() > 1) out.push_back(c.name);
  }
  return out;
}

std::vector<std::string> SubcommandWords(const DocCommand& c) {
  std::vector<std::string> out;
  for (const auto& sub : c.subcommands) out.push_back(sub.name);
  return out;
}

void BashCase(const DocCommand& c, std::ostringstream& out) {
  std::vector<std::string> valued;
  std::string choice_cases;
  for (const auto& o : c.options) {
    if (!o.value.empty()) valued.insert(valued.end(), o.names.begin(), o.names.end());
    if (!o.choices.empty()) {
      choice_cases += "      " + Join(o.names, "|") + ") COMPREPLY=($(compgen -W '" +
                      Join(o.choices, " ") + "' -- \"$cur\")); return ;;\n";
    }
  }
  out << "    " << CaseLabel(c.name) << ")\n      opts='" << Join(OptionWords(c), " ")
      << " --help'\n"
      << "      flags='" << Join(valued, " ") << "'\n";
  if (!c.subcommands.empty()) out << "      subs='" << Join(SubcommandWords(c), " ") << "'\n";
  if (!choice_cases.empty()) {
    out << "      case $prev in\n" << choice_cases << "      esac\n";
  }
  out << "      ;;\n";
}

}  // namespace

std::string BashCompletion(const CLI::App& app) {
  auto cmds = DescribeCli(app);
  std::vector<std::string> names = SubcommandWords(cmds.front());
  names.push_back("help");
  std::ostringstream out;
  out << "# bash completion for spinup; generated from the command definitions, do not edit.\n"
         "_spinup() {\n"
         "  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
         "  if ((COMP_CWORD == 1)); then\n"
         "    COMPREPLY=($(compgen -W '"
      << Join(names, " ") << " --help --version -V' -- \"$cur\"))\n"
      << "    return\n  fi\n  local opts='' flags='' subs='' cmd=${COMP_WORDS[1]} i\n";
  if (auto nested = NestedNames(cmds); !nested.empty()) {
    out << "  for ((i = 2; i < COMP_CWORD; i++)); do\n    case \"$cmd ${COMP_WORDS[i]}\" in\n";
    for (const auto& n : nested) out << "      '" << n << "') cmd='" << n << "' ;;\n";
    out << "    esac\n  done\n";
  }
  out << "  case $cmd in\n";
  for (const auto& c : cmds) {
    if (!c.name.empty()) BashCase(c, out);
  }
  out << "    help) COMPREPLY=($(compgen -W '" << Join(names, " ")
      << "' -- \"$cur\")); return ;;\n"
         "  esac\n"
         "  if [[ $cur == -* ]]; then\n"
         "    COMPREPLY=($(compgen -W \"$opts\" -- \"$cur\"))\n"
         "  elif [[ -n $subs ]]; then\n"
         "    COMPREPLY=($(compgen -W \"$subs\" -- \"$cur\"))\n"
         "  else\n"
         "    COMPREPLY=($(compgen -f -- \"$cur\"))\n"
         "  fi\n"
         "}\n"
         "complete -o filenames -F _spinup spinup\n";
  return out.str();
}

namespace {

// Text inside a zsh '...' spec: no quotes, brackets or colons.
std::string ZshText(std::string s, bool brackets) {
  for (auto& ch : s) {
    if (ch == '\'' || ch == ':' || (brackets && (ch == '[' || ch == ']'))) ch = ' ';
  }
  return s;
}

void ZshCase(const DocCommand& c, std::ostringstream& out) {
  out << "    " << CaseLabel(c.name) << ")\n      _arguments \\\n";
  for (const auto& o : c.options) {
    std::string desc = ZshText(o.description, true);
    if (desc.size() > 70) desc = desc.substr(0, 67) + "...";
    std::string action;
    if (!o.value.empty()) {
      action = o.choices.empty() ? ":value:_files" : ":value:(" + Join(o.choices, " ") + ")";
    }
    const bool repeat = o.description.find("repeatable") != std::string::npos;
    for (const auto& n : o.names) {
      out << "        '" << (repeat ? "*" : "") << n << "[" << desc << "]" << action << "' \\\n";
    }
  }
  if (c.subcommands.empty()) {
    out << "        '*:file:_files'\n      ;;\n";
    return;
  }
  out << "        '1:subcommand:(" << Join(SubcommandWords(c), " ") << ")'"
      << (c.positionals.empty() ? "" : " \\\n        '*:file:_files'") << "\n      ;;\n";
}

}  // namespace

std::string ZshCompletion(const CLI::App& app) {
  auto cmds = DescribeCli(app);
  std::ostringstream out;
  out << "#compdef spinup\n# zsh completion for spinup; generated from the command definitions, "
         "do not edit.\n\n_spinup() {\n  local -a commands\n  commands=(\n";
  for (const auto& c : cmds) {
    if (Words(c.name).size() != 1) continue;
    out << "    '" << c.name << ":" << ZshText(FirstSentence(c.description), false) << "'\n";
  }
  out << "    'help:show the overview or a command'\n  )\n"
         "  if ((CURRENT == 2)); then\n    _describe command commands\n    return\n  fi\n"
         "  local cmd=${words[2]}\n  shift words\n  ((CURRENT--))\n";
  if (auto nested = NestedNames(cmds); !nested.empty()) {
    // A nested command's words start at its own name, as the top level's do at theirs.
    out << "  local i\n  for ((i = 2; i < CURRENT; i++)); do\n    case \"$cmd ${words[i]}\" in\n";
    for (const auto& n : nested) {
      out << "      '" << n << "') cmd='" << n
          << "'; shift $((i - 1)) words; ((CURRENT -= i - 1)); i=1 ;;\n";
    }
    out << "    esac\n  done\n";
  }
  out << "  case $cmd in\n";
  for (const auto& c : cmds) {
    if (!c.name.empty()) ZshCase(c, out);
  }
  out << "    help) _describe command commands ;;\n  esac\n}\n\n_spinup \"$@\"\n";
  return out.str();
}

namespace {

// When fish offers a command's options: its words seen, and none of its subcommands yet.
std::string FishCondition(const DocCommand& c) {
  std::string cond;
  for (const auto& w : Words(c.name)) {
    cond += (cond.empty() ? "" : "; and ") + std::string("__fish_seen_subcommand_from ") + w;
  }
  if (!c.subcommands.empty()) {
    cond += "; and not __fish_seen_subcommand_from " + Join(SubcommandWords(c), " ");
  }
  return "-n '" + cond + "'";
}

void FishCommand(const DocCommand& c, std::ostringstream& out) {
  const std::string cond = FishCondition(c);
  for (const auto& sub : c.subcommands) {
    out << "complete -c spinup " << cond << " -a " << sub.name << " -d "
        << ShQuote(FirstSentence(sub.description)) << "\n";
  }
  if (!c.positionals.empty()) out << "complete -c spinup " << cond << " -F\n";
  for (const auto& o : c.options) {
    out << "complete -c spinup " << cond;
    for (const auto& n : o.names) {
      if (n.rfind("--", 0) == 0) {
        out << " -l " << n.substr(2);
      } else {
        out << " -s " << n.substr(1);
      }
    }
    if (!o.value.empty()) {
      out << (o.choices.empty() ? " -r -F" : " -x -a " + ShQuote(Join(o.choices, " ")));
    }
    out << " -d " << ShQuote(o.description) << "\n";
  }
}

}  // namespace

std::string FishCompletion(const CLI::App& app) {
  auto cmds = DescribeCli(app);
  std::vector<std::string> names = SubcommandWords(cmds.front());
  names.push_back("help");
  const std::string all = Join(names, " ");
  std::ostringstream out;
  out << "# fish completion for spinup; generated from the command definitions, do not edit.\n"
      << "complete -c spinup -f\n"
      << "complete -c spinup -n 'not __fish_seen_subcommand_from " << all
      << "' -s V -l version -d 'print the version'\n";
  for (const auto& c : cmds) {
    if (Words(c.name).size() != 1) continue;
    out << "complete -c spinup -n 'not __fish_seen_subcommand_from " << all << "' -a " << c.name
        << " -d " << ShQuote(FirstSentence(c.description)) << "\n";
  }
  out << "complete -c spinup -n 'not __fish_seen_subcommand_from " << all
      << "' -a help -d 'show the overview or a command'\n";
  for (const auto& c : cmds) {
    if (!c.name.empty()) FishCommand(c, out);
  }
  return out.str();
}

}  // namespace spinup
