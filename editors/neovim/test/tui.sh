#!/usr/bin/env bash
# Neovim as a person runs it: the real TUI in a tmux pane, with
# editors/neovim on its runtimepath and `vim.lsp.enable('tofu_lens')` as the
# only configuration. Opens main.tf of a copy of examples/overrides, waits for
# the diagnostic sign the server's duplicate-block error puts in the sign
# column, presses K on the resource header and reads the hover float from the
# screen (`tmux capture-pane`): it must show the effective block, with the
# instance type override.tf sets.
#
# NVIM: the Neovim binary (default: nvim on PATH); TOFU_LENS: the tofu-lens
# binary (default: the release build). Needs tmux. Prints
# `neovim-tui: N passed, M failed` last, as the other editor tests do.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
neovim_dir="$(cd "$here/.." && pwd)"
repo_root="$(cd "$here/../../.." && pwd)"
nvim="$(command -v "${NVIM:-nvim}" || true)"
tofu_lens="${TOFU_LENS:-$repo_root/target/release/tofu-lens}"

fail() {
  echo "not ok - $1" >&2
  echo "neovim-tui: 0 passed, 1 failed"
  exit 1
}
[ -n "$nvim" ] || fail "no Neovim (set NVIM)"
[ -x "$tofu_lens" ] || fail "no tofu-lens binary at $tofu_lens"
command -v tmux >/dev/null || fail "no tmux"

work="$(mktemp -d)"
socket="tofu-lens-tui-$$"
cleanup() {
  tmux -L "$socket" kill-server 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
mkdir -p "$work/bin" "$work/home" "$work/repo"
ln -s "$tofu_lens" "$work/bin/tofu-lens"
cp -R "$repo_root/examples/overrides" "$work/repo/overrides"
# A duplicate, so there is a sign to wait for.
printf 'variable "region" {}\n' >"$work/repo/overrides/zz_duplicate.tf"
git -C "$work/repo" init -q

cat >"$work/init.lua" <<EOF
vim.opt.runtimepath:prepend('$neovim_dir')
vim.opt.swapfile = false
vim.opt.signcolumn = 'yes'
vim.diagnostic.config({ signs = { text = { [vim.diagnostic.severity.ERROR] = 'E>' } },
                        virtual_text = false })
vim.lsp.enable('tofu_lens')
EOF

screen() { tmux -L "$socket" capture-pane -p -t tui; }
wait_for_screen() {
  local what="$1" pattern="$2"
  for _ in $(seq 1 200); do
    if screen | grep -qE -- "$pattern"; then
      return 0
    fi
    sleep 0.1
  done
  echo "--- screen" >&2
  screen >&2
  fail "timed out waiting for $what"
}

"$nvim" --version | sed -n 1p
tmux -L "$socket" -f /dev/null new-session -d -s tui -x 120 -y 40 \
  "cd '$work/repo/overrides' && PATH='$work/bin:$PATH' XDG_CONFIG_HOME='$work/home/config' \
   XDG_DATA_HOME='$work/home/data' XDG_STATE_HOME='$work/home/state' \
   XDG_CACHE_HOME='$work/home/cache' '$nvim' -i NONE -u '$work/init.lua' zz_duplicate.tf"

# The duplicate's sign, drawn by the real UI from the pushed diagnostics.
wait_for_screen "the diagnostic sign" '^E> *variable "region"'
echo "ok - the diagnostic sign is drawn"

# K on the header of the resource override.tf changes: the hover float.
tmux -L "$socket" send-keys -t tui ':e main.tf' Enter
wait_for_screen "main.tf" 'resource "aws_instance" "web"'
tmux -L "$socket" send-keys -t tui 'gg0w' 'K'
wait_for_screen "the hover float" 'instance_type = "t3\.large" +# override\.tf:3'
echo "ok - K shows the effective block with override.tf's instance type"
screen | sed -n '1,25p'

tmux -L "$socket" send-keys -t tui Escape ':qa!' Enter
echo "neovim-tui: 2 passed, 0 failed"
