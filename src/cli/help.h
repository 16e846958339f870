// Help text: wrapped to the terminal (80 to 100 columns), option groups, one example per command
// (a footer starting "Example:"), the overview printed by a bare `spinup`, typo suggestions.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace spinup {

// The help width for a terminal of `columns` (0: not a terminal): 80 to 100.
int HelpWidth(int columns);

// Greedy word wrap for text whose first line starts at column `indent` (the caller placed it);
// later lines get `indent` spaces. Explicit newlines are kept.
std::string WrapText(std::string_view text, size_t width, size_t indent);

class HelpFormatter : public CLI::Formatter {
 public:
  explicit HelpFormatter(int width);
  std::string make_option(const CLI::Option* opt, bool is_positional) const override;
  std::string make_subcommand(const CLI::App* sub) const override;
  std::string make_description(const CLI::App* app) const override;
  std::string make_footer(const CLI::App* app) const override;
  std::string make_help(const CLI::App* app, std::string name,
                        CLI::AppFormatMode mode) const override;

 private:
  std::string Columns(const std::string& left, const std::string& right) const;
  size_t width_;
};

// The closest command name to `typo` (edit distance at most 2, or a prefix); "" when none is.
std::string SuggestCommand(std::string_view typo, const std::vector<std::string>& names);

// Names of the app's visible subcommands, in definition order.
std::vector<std::string> CommandNames(const CLI::App& app);

// The example in a command's footer ("" when it has none).
std::string CommandExample(const CLI::App& sub);

}  // namespace spinup
