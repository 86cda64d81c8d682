#!/usr/bin/env bash
# Runs test/e2e.lua in a real headless Neovim: NVIM (default: nvim on PATH)
# with the tofu-lens binary TOFU_LENS (default: the release build) first on
# PATH, as a user has it, and an empty XDG home so no user config or plugin
# takes part.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo_root="$(cd "$here/../../.." && pwd)"
nvim="${NVIM:-nvim}"
tofu_lens="${TOFU_LENS:-$repo_root/target/release/tofu-lens}"

if ! command -v "$nvim" >/dev/null; then
  echo "neovim test: no Neovim at '$nvim' (set NVIM)" >&2
  exit 1
fi
if [ ! -x "$tofu_lens" ]; then
  echo "neovim test: no tofu-lens binary at $tofu_lens (cargo build --release -p tofu-lens, or set TOFU_LENS)" >&2
  exit 1
fi

bin="$(mktemp -d)"
home="$(mktemp -d)"
trap 'rm -rf "$bin" "$home"' EXIT
ln -s "$tofu_lens" "$bin/tofu-lens"

"$nvim" --version | sed -n 1p
PATH="$bin:$PATH" XDG_CONFIG_HOME="$home/config" XDG_DATA_HOME="$home/data" \
  XDG_STATE_HOME="$home/state" XDG_CACHE_HOME="$home/cache" \
  timeout 300 "$nvim" --headless -i NONE -u "$here/e2e.lua"
