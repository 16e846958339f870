#include "cli/help.h"

#include <algorithm>
#include <sstream>

namespace spinup {

int HelpWidth(int columns) {
  if (columns <= 0) return 80;
  return std::clamp(columns, 80, 100);
}

std::string WrapText(std::string_view text, size_t width, size_t indent) {
  std::string out;
  size_t col = indent;  // the caller has already placed the first line at the indent
  bool line_start = true;
  auto newline = [&] {
    out += '\n';
    out.append(indent, ' ');
    col = indent;
    line_start = true;
  };
  size_t i = 0;
  while (i < text.size()) {
    if (text[i] == '\n') {
      newline();
      ++i;
      // Keep a paragraph's own indentation (examples are indented by two).
      while (i < text.size() && text[i] == ' ') {
        out += ' ';
        ++col;
        ++i;
      }
      continue;
    }
    if (text[i] == ' ') {
      ++i;
      continue;
    }
    size_t end = text.find_first_of(" \n", i);
    if (end == std::string_view::npos) end = text.size();
    std::string_view word = text.substr(i, end - i);
    if (!line_start && col + 1 + word.size() > width) newline();
    if (!line_start) {
      out += ' ';
      ++col;
    }
    out += word;
    col += word.size();
    line_start = false;
    i = end;
  }
  return out;
}

HelpFormatter::HelpFormatter(int width) : width_(static_cast<size_t>(width)) { column_width(26); }

std::string HelpFormatter::Columns(const std::string& left, const std::string& right) const {
  const size_t col = get_column_width();
  std::string out = "  " + left;
  if (right.empty()) return out + "\n";
  if (out.size() + 1 >= col) {
    out += "\n" + std::string(col, ' ');
  } else {
    out.append(col - out.size(), ' ');
  }
  return out + WrapText(right, width_, col) + "\n";
}

std::string HelpFormatter::make_option(const CLI::Option* opt, bool is_positional) const {
  return Columns(make_option_name(opt, is_positional) + make_option_opts(opt),
                 make_option_desc(opt));
}

std::string HelpFormatter::make_subcommand(const CLI::App* sub) const {
  return Columns(sub->get_display_name(true), sub->get_description());
}

std::string HelpFormatter::make_description(const CLI::App* app) const {
  const std::string& d = app->get_description();
  return d.empty() ? std::string() : WrapText(d, width_, 0) + "\n";
}

std::string HelpFormatter::make_footer(const CLI::App* app) const {
  const std::string& f = app->get_footer();
  return f.empty() ? std::string() : WrapText(f, width_, 0) + "\n";
}

std::string HelpFormatter::make_help(const CLI::App* app, std::string name,
                                     CLI::AppFormatMode mode) const {
  // CLI11 puts two blank lines between option groups; one reads better.
  std::string text = CLI::Formatter::make_help(app, std::move(name), mode);
  for (size_t at; (at = text.find("\n\n\n")) != std::string::npos;) text.erase(at, 1);
  return text;
}

namespace {

size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t sub = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, sub});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

}  // namespace

std::string SuggestCommand(std::string_view typo, const std::vector<std::string>& names) {
  if (typo.empty() || typo.size() > 64) return {};
  std::string best;
  size_t best_d = 3;
  for (const auto& n : names) {
    size_t d = EditDistance(typo, n);
    if (typo.size() >= 2 && n.compare(0, typo.size(), typo) == 0) d = std::min<size_t>(d, 1);
    if (d < best_d) {
      best_d = d;
      best = n;
    }
  }
  return best;
}

std::vector<std::string> CommandNames(const CLI::App& app) {
  std::vector<std::string> out;
  for (const CLI::App* sub : app.get_subcommands({})) {
    if (!sub->get_name().empty() && !sub->get_group().empty()) out.push_back(sub->get_name());
  }
  return out;
}

std::string CommandExample(const CLI::App& sub) {
  const std::string& f = sub.get_footer();
  constexpr std::string_view kTag = "Example:\n";
  size_t at = f.find(kTag);
  if (at == std::string::npos) return {};
  std::string ex = f.substr(at + kTag.size());
  // Examples are written indented by two; the generators want them bare.
  std::string out;
  std::istringstream in(ex);
  for (std::string line; std::getline(in, line);) {
    if (line.compare(0, 2, "  ") == 0) line.erase(0, 2);
    if (line.empty()) break;
    out += line + "\n";
  }
  return out;
}

}  // namespace spinup
