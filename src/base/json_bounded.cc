#include "base/json_bounded.h"

#include <fmt/format.h>

#include <string>

namespace spinup {
namespace {

using nlohmann::json;

// Counts and stops; builds nothing (keys and strings are the lexer's, bounded by the text).
class CountingSax final : public nlohmann::json_sax<json> {
 public:
  explicit CountingSax(const JsonLimits& limits) : limits_(limits) {}
  bool null() override { return Value(); }
  bool boolean(bool) override { return Value(); }
  bool number_integer(number_integer_t) override { return Value(); }
  bool number_unsigned(number_unsigned_t) override { return Value(); }
  bool number_float(number_float_t, const string_t&) override { return Value(); }
  bool string(string_t&) override { return Value(); }
  bool binary(binary_t&) override { return Value(); }
  bool start_object(std::size_t) override { return Value() && Enter(); }
  bool key(string_t&) override { return Value(); }
  bool end_object() override { return Leave(); }
  bool start_array(std::size_t) override { return Value() && Enter(); }
  bool end_array() override { return Leave(); }
  bool parse_error(std::size_t position, const std::string&,
                   const nlohmann::detail::exception&) override {
    if (why_.empty()) why_ = fmt::format("not valid JSON at byte {}", position);
    return false;
  }

  size_t values() const { return values_; }
  const std::string& why() const { return why_; }

 private:
  bool Value() {
    if (++values_ <= limits_.max_values) return true;
    why_ = fmt::format("more than {} JSON values", limits_.max_values);
    return false;
  }
  bool Enter() {
    if (++depth_ <= limits_.max_depth) return true;
    why_ = fmt::format("JSON nested deeper than {}", limits_.max_depth);
    return false;
  }
  bool Leave() {
    --depth_;
    return true;
  }

  const JsonLimits& limits_;
  size_t values_ = 0;
  size_t depth_ = 0;
  std::string why_;
};

}  // namespace

bool JsonValueBudget::Acquire(uint64_t n) {
  if (n > total_) return false;
  std::unique_lock lock(mu_);
  cv_.wait(lock, [&] { return used_ + n <= total_; });
  used_ += n;
  return true;
}

void JsonValueBudget::Release(uint64_t n) {
  {
    std::lock_guard lock(mu_);
    used_ -= n;
  }
  cv_.notify_all();
}

JsonReservation& JsonReservation::operator=(JsonReservation&& o) noexcept {
  if (this != &o) {
    if (budget_) budget_->Release(n_);
    budget_ = o.budget_;
    n_ = o.n_;
    o.budget_ = nullptr;
  }
  return *this;
}

Result<BoundedJson> ParseJsonBounded(std::string_view text, const JsonLimits& limits,
                                     JsonValueBudget* budget) {
  CountingSax counter(limits);
  bool ok = json::sax_parse(text.begin(), text.end(), &counter, json::input_format_t::json,
                            /*strict=*/true, /*ignore_comments=*/false);
  if (!ok) return Status::Corrupt(counter.why().empty() ? "not valid JSON" : counter.why());
  BoundedJson out;
  out.values = counter.values();
  if (budget != nullptr) {
    if (!budget->Acquire(out.values)) {
      return Status::Corrupt(
          fmt::format("{} JSON values exceed the budget of {}", out.values, budget->total()));
    }
    out.reservation = JsonReservation(budget, out.values);
  }
  out.value = json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (out.value.is_discarded()) return Status::Corrupt("not valid JSON");
  return out;
}

}  // namespace spinup
