#include "base/sha256.h"

#include <openssl/evp.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>

namespace spinup {

Result<std::string> Sha256Fd(int fd, std::vector<unsigned char>& buf,
                             std::atomic<uint64_t>* progress, uint64_t* bytes_read) {
  uint64_t total = 0;
  if (buf.empty()) buf.resize(1 << 20);
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  if (!ctx || EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr) != 1) {
    return Status::Internal("OpenSSL SHA-256 is unavailable");
  }
  while (true) {
    ssize_t n = ::read(fd, buf.data(), buf.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return Status::FromErrno(errno, "read");
    }
    if (n == 0) break;
    EVP_DigestUpdate(ctx.get(), buf.data(), static_cast<size_t>(n));
    if (progress) progress->fetch_add(static_cast<uint64_t>(n), std::memory_order_relaxed);
    total += static_cast<uint64_t>(n);
  }
  if (bytes_read) *bytes_read = total;
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  if (EVP_DigestFinal_ex(ctx.get(), md, &len) != 1) return Status::Internal("SHA-256 final failed");
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(len * 2);
  for (unsigned i = 0; i < len; ++i) {
    hex.push_back(kHex[md[i] >> 4]);
    hex.push_back(kHex[md[i] & 15]);
  }
  return hex;
}

}  // namespace spinup
