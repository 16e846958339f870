// Linked into the portable spinup binary only (CMakeLists.txt, SPINUP_PORTABLE): keeps its
// highest glibc symbol version at 2.34 while building on Debian 12 (glibc 2.36).
//
// GCC 12's static libstdc++ reaches arc4random (GLIBC_2.36) through std::random_device, which
// every program that throws a std::runtime_error pulls in (stdexcept -> COW strings -> random.o),
// although spinup never uses random_device. Defining it here binds that reference inside the
// executable, on getrandom (GLIBC_2.25), so the binary still starts on glibc 2.34.
#include <sys/random.h>

#include <cstddef>
#include <cstdint>

extern "C" uint32_t arc4random(void) {
  uint32_t value = 0;
  auto* p = reinterpret_cast<unsigned char*>(&value);
  size_t got = 0;
  while (got < sizeof(value)) {
    ssize_t n = getrandom(p + got, sizeof(value) - got, 0);
    if (n > 0) got += static_cast<size_t>(n);
  }
  return value;
}
