// Status and Result: how spinup's library reports failure without exceptions crossing its API.
//
// A Status is either OK or carries a named error kind and a one-line message that names the file
// (or process, or flag) and the problem, ready to print after "spinup: ". Result<T> holds a value
// or a non-OK Status. Both are cheap values; they are not thread-safe to mutate concurrently.
#pragma once

#include <cassert>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace spinup {

enum class ErrorKind {
  kOk = 0,
  kNotFound,         // a file, process or unit that should be there is not
  kInvalidArgument,  // bad flag value or usage
  kCorrupt,          // malformed input: a damaged header, an unparsable log rule
  kIo,               // the OS refused a read, open or stat; message carries errno text
  kUnsupported,      // e.g. unknown dtype, io_uring refused by the kernel
  kPermission,       // EACCES / EPERM
  kTimeout,
  kCancelled,
  kInternal,
};

std::string_view ErrorKindName(ErrorKind kind);

class [[nodiscard]] Status {
 public:
  Status() = default;  // OK
  static Status Ok() { return {}; }
  static Status NotFound(std::string msg) { return {ErrorKind::kNotFound, std::move(msg)}; }
  static Status InvalidArgument(std::string msg) {
    return {ErrorKind::kInvalidArgument, std::move(msg)};
  }
  static Status Corrupt(std::string msg) { return {ErrorKind::kCorrupt, std::move(msg)}; }
  static Status Io(std::string msg) { return {ErrorKind::kIo, std::move(msg)}; }
  static Status Unsupported(std::string msg) { return {ErrorKind::kUnsupported, std::move(msg)}; }
  static Status Permission(std::string msg) { return {ErrorKind::kPermission, std::move(msg)}; }
  static Status Timeout(std::string msg) { return {ErrorKind::kTimeout, std::move(msg)}; }
  static Status Cancelled(std::string msg) { return {ErrorKind::kCancelled, std::move(msg)}; }
  static Status Internal(std::string msg) { return {ErrorKind::kInternal, std::move(msg)}; }
  // Maps an errno value to the matching kind; `context` names the file and the operation.
  static Status FromErrno(int err, std::string_view context);

  bool ok() const { return kind_ == ErrorKind::kOk; }
  ErrorKind kind() const { return kind_; }
  const std::string& message() const { return message_; }
  // "ok", or the message alone (it already names file and problem).
  std::string ToString() const { return ok() ? std::string("ok") : message_; }

 private:
  Status(ErrorKind kind, std::string msg) : kind_(kind), message_(std::move(msg)) {}
  ErrorKind kind_ = ErrorKind::kOk;
  std::string message_;
};

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}        // NOLINT: implicit by design
  Result(Status status) : v_(std::move(status)) {  // NOLINT
    assert(!std::get<Status>(v_).ok());
  }
  bool ok() const { return std::holds_alternative<T>(v_); }
  explicit operator bool() const { return ok(); }
  const Status& status() const {
    static const Status kOk;
    return ok() ? kOk : std::get<Status>(v_);
  }
  T& value() & { return std::get<T>(v_); }
  const T& value() const& { return std::get<T>(v_); }
  T&& value() && { return std::get<T>(std::move(v_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

 private:
  std::variant<T, Status> v_;
};

}  // namespace spinup
