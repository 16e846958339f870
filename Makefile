# The README's two commands: `make demo` and `make test`. Both install dependencies first.
# `make release` builds dist/ (tarball, .deb, debug file) from the normal build.
BUILD       ?= build
CHECK_BUILD ?= build-check
FUZZ_SECONDS ?= 30
JOBS        ?= $(shell nproc)
CMAKE_GEN   := -G Ninja
VERSION     := $(shell grep -m1 -o 'spinup VERSION [0-9.]*' CMakeLists.txt | cut -d' ' -f3)

.PHONY: deps build demo test unit check-build fuzz portable package release bench format clean

deps:
	@scripts/install-deps

# The normal build is the portable one (SPINUP_PORTABLE, on by default): the suite tests the
# binary that ships.
build: deps
	@cmake -S . -B $(BUILD) $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

demo: build
	@scripts/demo $(BUILD)

# Unit + integration tests and the release checks on the normal build, then ONE clang build with
# ASan+UBSan that runs the suite again and links the fuzzers, then bounded fuzzing.
test: unit portable package check-build fuzz
	@echo "make test: all suites passed"

unit: build
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# The sanitizer build: tests and libFuzzer targets together (clang), instead of two builds.
check-build: deps
	@CXX=clang++ cmake -S . -B $(CHECK_BUILD) $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=Debug \
	  -DSPINUP_SANITIZE=ON -DSPINUP_FUZZ=ON -DSPINUP_BUILD_BENCH=OFF >/dev/null
	@cmake --build $(CHECK_BUILD) -j $(JOBS)
	@cd $(CHECK_BUILD) && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  ctest --output-on-failure -j $(JOBS)

fuzz: check-build
	@scripts/run-fuzz $(CHECK_BUILD) $(FUZZ_SECONDS) $(JOBS)

# Shared libraries, symbol versions, and a run inside a minimal Debian root (docs/install.md).
portable: build
	@scripts/check-portable $(BUILD)/spinup

# The .deb installs and lints clean; cmake --install lays out the same files.
package: build
	@scripts/make-release $(BUILD) $(VERSION) dist
	@scripts/check-package dist/spinup_$(VERSION)_amd64.deb $(BUILD)

release: build
	@scripts/make-release $(BUILD) $(VERSION) dist
	@ls -l dist

bench: build
	@for b in $(BUILD)/*_bench; do echo "== $$b"; $$b; done

format:
	@clang-format -i $$(git ls-files '*.cc' '*.h')

clean:
	rm -rf $(BUILD) $(CHECK_BUILD) dist
