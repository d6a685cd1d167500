#!/usr/bin/env bash
# Kempelen in the browser: builds the page into a folder of static files and serves it.
#
#   tools/web.sh                # build, then serve on http://127.0.0.1:8000/
#   tools/web.sh serve [PORT]   # the same on another port
#   tools/web.sh build          # build only: target/web/ (copy it to any static host)
#   tools/web.sh tools          # install the build tools only (the wasm32 target, wasm-bindgen)
#
# The folder holds index.html, the JavaScript modules, style.css and pkg/ (the wasm and its
# bindings); nothing is fetched from anywhere else. KEMPELEN_WEB_OUT changes the folder.
# Needs Rust (rustup, cargo); installs the wasm32-unknown-unknown target and the wasm-bindgen
# CLI at the version in Cargo.lock when they are missing; serving needs python3.
set -euo pipefail
cd "$(dirname "$0")/.."

out=${KEMPELEN_WEB_OUT:-target/web}
target=wasm32-unknown-unknown

# The wasm-bindgen CLI must be the version of the wasm-bindgen crate in Cargo.lock.
bindgen_version() {
  awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock
}

install_tools() {
  if ! rustup target list --installed 2>/dev/null | grep -qx "$target"; then
    echo "tools/web.sh: installing the $target target" >&2
    rustup target add "$target"
  fi
  local want have
  want=$(bindgen_version)
  have=$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)
  if [ "$have" != "$want" ]; then
    echo "tools/web.sh: installing wasm-bindgen-cli $want (found: ${have:-none})" >&2
    # --locked builds with the CLI's own lock file; on a registry that lacks one of the
    # locked versions (a mirror that has yanked or not yet taken it), without it. The first
    # attempt's output is kept back and shown only if the second fails too, so that a working
    # fallback prints no error.
    local log
    log=$(mktemp)
    if ! cargo install wasm-bindgen-cli --version "$want" --locked >"$log" 2>&1; then
      echo "tools/web.sh: the CLI's own lock file names versions this registry does not have; building it with the registry's versions" >&2
      if ! cargo install wasm-bindgen-cli --version "$want"; then
        echo "tools/web.sh: with its lock file, the install said:" >&2
        cat "$log" >&2
        rm -f "$log"
        return 1
      fi
    fi
    rm -f "$log"
  fi
}

build() {
  install_tools
  cargo build --profile web --target "$target" -p kempelen-web
  local tmp="$out.partial"
  rm -rf "$tmp"
  mkdir -p "$tmp"
  # The name section (function names for the browser's stack traces, 150 KB) is left out: a
  # Rust panic still reaches the console with its message and place (wasm.rs's hook).
  wasm-bindgen --target web --no-typescript --remove-name-section --out-dir "$tmp/pkg" \
    "target/$target/web/kempelen_web.wasm"
  cp -R web/static/. "$tmp/"
  # Whole or not at all: the old folder is replaced only by a complete new one.
  rm -rf "$out"
  mv "$tmp" "$out"
  echo "tools/web.sh: the page is in $out/ ($(du -k "$out/pkg/kempelen_web_bg.wasm" | cut -f1) KB of wasm); copy the folder to any static host" >&2
}

case "${1:-serve}" in
  tools) install_tools ;;
  build) build ;;
  serve)
    port=${2:-8000}
    build
    echo "tools/web.sh: serving $out/ on http://127.0.0.1:$port/ (Ctrl-C stops)" >&2
    exec python3 -m http.server "$port" --bind 127.0.0.1 --directory "$out"
    ;;
  *)
    echo "usage: tools/web.sh [serve [PORT] | build | tools]" >&2
    exit 2
    ;;
esac
