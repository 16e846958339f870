# The README's two commands: `make demo` and `make test`. Both install dependencies first.
# `make release` builds dist/ (tarball, .deb, debug file) from the normal build.
BUILD       ?= build
CHECK_BUILD ?= build-check
FUZZ_SECONDS ?= 30
JOBS        ?= $(shell nproc)
CMAKE_GEN   := -G Ninja
VERSION     := $(shell grep -m1 -o 'spinup VERSION [0-9.]*' CMakeLists.txt | cut -d' ' -f3)
# What the release checks need from the normal build: the binary, its man pages and completions,
# and the checkpoint generator check-portable feeds it (not the test suite: that runs in the
# sanitizer build).
RELEASE_TARGETS := spinup spinup_docs spinup_gen_checkpoint

.PHONY: deps configure build demo test unit check-compile check-suite check-build fuzz fuzz-only \
        release-build portable package release bench format clean

deps:
	@scripts/install-deps

# The normal build is the portable one (SPINUP_PORTABLE, on by default).
configure: deps
	@cmake -S . -B $(BUILD) $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null

build: configure
	@cmake --build $(BUILD) -j $(JOBS)

demo: build
	@scripts/demo $(BUILD)

# ONE clang build with ASan+UBSan runs the whole suite and links the fuzzers, then bounded
# fuzzing; then the release checks on the portable binary, built alone (not the suite again).
# The release build runs niced beside the suite and the fuzzers: the integration tests mostly
# wait on their servers, so it takes the idle CPU; its log is shown only when it fails.
test: check-compile configure
	@nice -n 5 cmake --build $(BUILD) -j $(JOBS) --target $(RELEASE_TARGETS) \
	  >$(BUILD)/release-build.log 2>&1 & build=$$!; \
	  $(MAKE) --no-print-directory check-suite fuzz-only; rc=$$?; \
	  wait $$build || { cat $(BUILD)/release-build.log; exit 1; }; exit $$rc
	@$(MAKE) --no-print-directory portable package
	@echo "make test: all suites passed"

# The suite on the normal (unsanitized) build, for a quick local run.
unit: build
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

check-compile: deps
	@scripts/long-functions --check >/dev/null || \
	  { scripts/long-functions; echo "make test: split these (house limits)"; exit 1; }
	@CXX=clang++ cmake -S . -B $(CHECK_BUILD) $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=Debug \
	  -DSPINUP_SANITIZE=ON -DSPINUP_FUZZ=ON -DSPINUP_BUILD_BENCH=OFF >/dev/null
	@cmake --build $(CHECK_BUILD) -j $(JOBS)

# intercept_tls_get_addr=0: clang 14's leak checker misreads the dynamic TLS of the libsystemd
# that spinup loads at run time to read journals (Debian's 252.39), and its tracer dies at exit
# ("Tracer caught signal 11" after a "DTLS" line). Leaks are still checked.
check-suite:
	@cd $(CHECK_BUILD) && ASAN_OPTIONS=detect_leaks=1:intercept_tls_get_addr=0 \
	  UBSAN_OPTIONS=print_stacktrace=1 \
	  ctest --output-on-failure -j $(JOBS)

fuzz-only:
	@scripts/run-fuzz $(CHECK_BUILD) $(FUZZ_SECONDS) $(JOBS)

# The sanitizer build and its suite, or it and bounded fuzzing, alone.
check-build: check-compile
	@$(MAKE) --no-print-directory check-suite

fuzz: check-compile
	@$(MAKE) --no-print-directory fuzz-only

release-build: configure
	@cmake --build $(BUILD) -j $(JOBS) --target $(RELEASE_TARGETS)

# Shared libraries, symbol versions, and a run inside a minimal Debian root (docs/install.md).
portable: release-build
	@scripts/check-portable $(BUILD)/spinup

# The .deb installs and lints clean; cmake --install lays out the same files.
package: release-build
	@scripts/make-release $(BUILD) $(VERSION) dist
	@scripts/check-package dist/spinup_$(VERSION)_amd64.deb $(BUILD)

release: release-build
	@scripts/make-release $(BUILD) $(VERSION) dist
	@ls -l dist

bench: build
	@for b in $(BUILD)/*_bench; do echo "== $$b"; $$b; done

format:
	@clang-format -i $$(git ls-files '*.cc' '*.h')

clean:
	rm -rf $(BUILD) $(CHECK_BUILD) dist
