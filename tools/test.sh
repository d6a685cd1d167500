#!/usr/bin/env bash
# Kempelen's test command: installs what the tests need on a fresh Debian machine that has only
# Rust (cargo) installed, then runs the whole workspace's tests. Safe to run again: packages
# already present are not installed twice. Needs root or sudo for apt-get.
#
#   tools/test.sh                 # install, then cargo test --workspace --no-fail-fast
#   tools/test.sh -- --nocapture  # arguments after '--' go to cargo test
set -euo pipefail
cd "$(dirname "$0")/.."

SUDO=""
if [ "$(id -u)" != 0 ]; then
  if command -v sudo >/dev/null; then SUDO=sudo; else
    echo "tools/test.sh: not root and no sudo: install the packages below by hand" >&2
  fi
fi

# Debian packages: reference assemblers for the assembler's differential tests (pasmo, z80asm,
# xa65, cc65, 64tass, acme), engines for the UCI tests (stockfish, fairymax), pip for
# python-chess and py65; openMSX with the free C-BIOS (the MSX timing test,
# emulator/tests/openmsx.rs, and the MSX cartridge, roms-src/tests/external.rs); for the other
# target machines' program files (roms-src/tests/external.rs) Fuse with the free OpenSE BASIC
# ROM and tzxlist, driven under Xvfb with xdotool and ImageMagick; Chromium and its WebDriver
# for the page's tests in a real browser (tests/web.rs); Slurm and MUNGE for the one-node
# cluster that runs the tournament's array job file (tests/slurm.rs; no daemon of the system is
# started or configured: the test starts its own in a temporary folder).
packages=(pasmo z80asm xa65 cc65 64tass acme stockfish fairymax python3 python3-pip
  openmsx cbios fuse-emulator-sdl fuse-emulator-utils opense-basic xvfb xdotool imagemagick
  chromium chromium-driver slurm-wlm munge)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "tools/test.sh: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# python-chess drives `kempelen uci` as a real UCI client in the end-to-end tests.
if ! python3 -c 'import chess.engine' 2>/dev/null; then
  echo "tools/test.sh: installing python-chess"
  python3 -m pip install --quiet chess \
    || python3 -m pip install --quiet --user chess \
    || python3 -m pip install --quiet --break-system-packages chess
fi
# py65 (its py65mon) runs the 6502 build for py65 in someone else's 6502 core.
if ! python3 -c 'import py65' 2>/dev/null; then
  echo "tools/test.sh: installing py65"
  python3 -m pip install --quiet py65 \
    || python3 -m pip install --quiet --user py65 \
    || python3 -m pip install --quiet --break-system-packages py65
fi
# selenium drives Chromium through chromedriver in the page's end-to-end flows (tests/web.rs).
if ! python3 -c 'import selenium' 2>/dev/null; then
  echo "tools/test.sh: installing selenium"
  python3 -m pip install --quiet selenium \
    || python3 -m pip install --quiet --user selenium \
    || python3 -m pip install --quiet --break-system-packages selenium
fi
# kubernetes-validate carries the Kubernetes API's schemas: the Job file in tools/match/ is
# checked against them offline (tests/slurm.rs).
if ! command -v kubernetes-validate >/dev/null; then
  echo "tools/test.sh: installing kubernetes-validate"
  python3 -m pip install --quiet kubernetes-validate \
    || python3 -m pip install --quiet --user kubernetes-validate \
    || python3 -m pip install --quiet --break-system-packages kubernetes-validate
fi
export PATH="$PATH:/usr/games:$HOME/.local/bin" # stockfish and fairymax live in /usr/games on Debian

command -v cargo >/dev/null || { echo "tools/test.sh: cargo not found: install Rust first (https://rustup.rs)" >&2; exit 1; }

# The assembler's differential tests fail without these: say so before a long build.
for tool in pasmo z80asm ca65 ld65; do
  command -v "$tool" >/dev/null || { echo "tools/test.sh: $tool not found after installing" >&2; exit 1; }
done

# The page's build tools (the wasm32 target, wasm-bindgen-cli at Cargo.lock's version); without
# them the browser tests say SKIPPED.
tools/web.sh tools || echo "tools/test.sh: the page's build tools did not install: the browser tests will be skipped" >&2

args=()
if [ "${1:-}" = "--" ]; then shift; args=("$@"); fi
# --no-fail-fast: a failing test binary does not stop the others, so one run reports every
# failure.
exec cargo test --workspace --no-fail-fast -- "${args[@]}"
