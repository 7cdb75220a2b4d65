#!/usr/bin/env bash
# Installs what Marionette's tests need (Debian packages, the npm test clients) and runs them all.
# Usage: bash tests/run.sh        (from the repository root; root or sudo needed only for apt)
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
for pkg in mesa-vulkan-drivers libvulkan1 xvfb nodejs npm blender python3-numpy; do
  dpkg -s "$pkg" >/dev/null 2>&1 || need_apt+=("$pkg")
done
# Node may come from elsewhere than Debian (e.g. a preinstalled toolchain): then skip nodejs/npm.
if command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1; then
  need_apt=("${need_apt[@]/nodejs}"); need_apt=("${need_apt[@]/npm}")
fi
pkgs=$(printf '%s ' "${need_apt[@]}" | xargs)
if [ -n "$pkgs" ]; then
  echo "== installing Debian packages: $pkgs"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $pkgs >/dev/null
fi

echo "== installing npm test clients (gltf-validator, three, three-vrm-springbone)"
npm ci --prefix tests/js --no-audit --no-fund --loglevel=error

# Mesa wants a private runtime dir; without one it prints a harmless but noisy warning.
if [ -z "${XDG_RUNTIME_DIR:-}" ] || [ ! -d "${XDG_RUNTIME_DIR}" ]; then
  export XDG_RUNTIME_DIR=/tmp/marionette-xdg
  mkdir -p "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
fi

# The Lua API stubs are checked against the example scripts by a real EmmyLua/LuaLS-annotation
# checker (emmylua_check, from crates.io; lua-language-server itself is in no registry we use).
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
if ! command -v emmylua_check >/dev/null 2>&1; then
  echo "== installing emmylua_check (LuaLS-annotation checker for the Lua stubs)"
  cargo install emmylua_check --version 0.25.1 --locked --quiet
fi

echo "== Lua stubs: scripts/*.lua against scripts/marionette.d.lua"
emmylua_check scripts --warnings-as-errors

# The guide (docs/, mdBook) is built on every run, so a broken SUMMARY.md or chapter fails here;
# tests/cli/guide_examples.rs checks its Lua examples. mdBook is no Debian package: crates.io it is
# (only the search feature: no local server or file watcher, which CI never uses).
if ! command -v mdbook >/dev/null 2>&1; then
  echo "== installing mdbook (builds the guide in docs/)"
  cargo install mdbook --version 0.5.4 --locked --no-default-features --features search --quiet
fi

echo "== the guide: mdbook build docs"
mdbook build docs

echo "== format and lint"
cargo fmt --all --check
cargo clippy --workspace --all-targets --locked -- -D warnings

echo "== tests"
cargo test --workspace --locked
