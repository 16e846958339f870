// The rules files' parsing, shared by rules.cc (rules, prefixes, the file) and
// rules_knowledge.cc (phase orders, ranks, budgets, thresholds, causes). Internal to src/logs.
#pragma once

#include <algorithm>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "logs/rules.h"

namespace spinup::rules_parse {

using nlohmann::json;

struct FileError {
  int line;
  std::string message;
};

// Where `"needle"` appears, so semantic errors can point into the file even though the JSON
// parser keeps no positions for values. Linear over a whole file: lines come from a table of
// newline offsets (binary search), and each search starts where the previous one ended, because
// ids are looked up in file order. A needle not found after the cursor (a "causes" list before
// the "rules", an id written with escapes) is searched from the start a bounded number of times,
// then gets the cursor's line: 20,000 rules used to cost 20,000 scans of the file.
class LineFinder {
 public:
  explicit LineFinder(std::string_view text) : text_(text) {
    for (size_t i = 0; i < text.size(); ++i) {
      if (text[i] == '\n') newlines_.push_back(i);
    }
  }
  int LineAt(size_t pos) const {
    return 1 + static_cast<int>(std::lower_bound(newlines_.begin(), newlines_.end(), pos) -
                                newlines_.begin());
  }
  int Find(std::string_view needle) {
    quoted_.assign(1, '"').append(needle).push_back('"');
    size_t pos = text_.find(quoted_, cursor_);
    if (pos == std::string_view::npos && rescans_left_ > 0) {
      --rescans_left_;
      pos = text_.find(quoted_);
    }
    if (pos == std::string_view::npos) return LineAt(cursor_);
    cursor_ = pos + quoted_.size();
    return LineAt(pos);
  }
  // A top-level key: searched from the start (a handful per file).
  int FindKey(std::string_view key) const {
    size_t pos = text_.find("\"" + std::string(key) + "\"");
    return pos == std::string_view::npos ? 1 : LineAt(pos);
  }

 private:
  std::string_view text_;
  std::vector<size_t> newlines_;
  size_t cursor_ = 0;
  int rescans_left_ = 16;
  std::string quoted_;
};

// What one file adds, kept apart until the whole file is valid (a bad file adds nothing).
struct FileContents {
  std::vector<LogRule> rules;
  std::vector<PhaseBudget> budgets;
  std::vector<KnownCause> causes;
  std::vector<std::pair<std::string, std::vector<Phase>>> orders;
  std::optional<EngineRanks> ranks;
  std::optional<JudgeThresholds> thresholds;
  ProgramWords programs;
  std::vector<ModelFamilySize> model_sizes;
  std::vector<LinePrefix> prefixes;
};

// One file being parsed: its name, its default engine, positions for messages, what it adds.
struct FileParse {
  const std::string& fname;
  std::string file_engine;
  LineFinder& lines;
  FileContents out;
};

void CheckRegexLength(const std::string& regex, const std::string& owner, int line);
std::string Str(const json& j, const char* key, int line, bool required = false);
// A capture group number 0-64 (0: none).
int Int(const json& j, const char* key, int line);
double Num(const json& j, const char* key, int line, double fallback);
Phase PhaseOf(const std::string& name, int line);
std::vector<std::string> StrList(const json& j, const char* key, int line);
// A true/false key (absent: nullopt).
std::optional<bool> Bool(const json& j, const char* key, int line);

// The knowledge beside the rules (rules_knowledge.cc).
void ParsePhaseOrder(const json& doc, FileParse& f);
void ParseRanks(const json& doc, FileParse& f);
void ParseBudgets(const json& doc, FileParse& f);
void ParsePrograms(const json& doc, FileParse& f);
void ParseModelSizes(const json& doc, FileParse& f);
void ParseThresholdsKey(const json& doc, const JudgeThresholds& current, FileParse& f);
void ParseCauses(const json& doc, FileParse& f);

}  // namespace spinup::rules_parse
