#!/usr/bin/env bash
# Neovim as a person runs it: the real TUI in a tmux pane, with
# editors/neovim on its runtimepath and `vim.lsp.enable('tofu_lens')` as the
# only configuration. Opens main.tf of a copy of examples/overrides, waits for
# the diagnostic sign the server's duplicate-block error puts in the sign
# column, presses K on the resource header and reads the hover float from the
# screen (`tmux capture-pane`): it must show the effective block, with the
# instance type override.tf sets. Then, in a root where `tofu init`
# installed the real hashicorp/time provider (TOFU_LENS_PROVIDER_PLUGINS, as
# for the Rust tests; the step is skipped without it), K on `rotation_days`
# shows the schema's description, and `rot` with CTRL-X CTRL-O (the omnifunc
# Neovim sets for a language server) pops up `rotation_days` with its type,
# its description beside the menu once CTRL-N selects it.
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
# The root with the time provider installed, laid out by the helper the
# three editors' tests share (exit status 77: TOFU_LENS_PROVIDER_PLUGINS is not set).
schema_skipped=""
laid_out=0
python3 "$repo_root/editors/test/time_provider_root.py" "$work/repo/schedule" 2>"$work/laid-out.err" || laid_out=$?
case "$laid_out" in
  0) ;;
  77) schema_skipped="$(cat "$work/laid-out.err")" ;;
  *) cat "$work/laid-out.err" >&2; fail "editors/test/time_provider_root.py failed ($laid_out)" ;;
esac

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
  local what="$1" pattern="$2" tenths="${3:-200}"
  for _ in $(seq 1 "$tenths"); do
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
tmux -L "$socket" send-keys -t tui Escape

if [ -n "$schema_skipped" ]; then
  echo "ok - K and CTRL-X CTRL-O show the time provider's schema # SKIP $schema_skipped"
  tmux -L "$socket" send-keys -t tui ':qa!' Enter
  echo "neovim-tui: 1 skipped"
  echo "neovim-tui: 2 passed, 0 failed"
  exit 0
fi
# The provider runs once the new client has scanned its root; until the
# schema is read, K shows the effective block. So first wait (in Lua, with
# the hover request K sends) until the hover has the schema, then press K.
tmux -L "$socket" send-keys -t tui ':e ../schedule/rotation.tf' Enter
wait_for_screen "rotation.tf" 'resource "time_rotating" "r"'
tmux -L "$socket" send-keys -t tui ':11' Enter '0w'
tmux -L "$socket" send-keys -t tui ":lua vim.wait(60000, function() \
for _, r in pairs(vim.lsp.buf_request_sync(0, 'textDocument/hover', \
vim.lsp.util.make_position_params(0, 'utf-8'), 1000) or {}) do \
if r.result and r.result.contents.value:find('Number of days', 1, true) then return true end end \
return false end, 200)" Enter
tmux -L "$socket" send-keys -t tui 'K'
wait_for_screen "the schema's description in the hover float" 'Number of days to add' 700
wait_for_screen "the schema's type in the hover float" 'rotation_days.*number.*optional'
echo "ok - K on rotation_days shows the time provider's description"
screen | sed -n '1,25p'

tmux -L "$socket" send-keys -t tui Escape ':11' Enter 'cc' 'rot' C-x C-o
wait_for_screen "the completion menu" 'rotation_days .*number, optional'
echo "ok - CTRL-X CTRL-O after rot offers rotation_days with its type"
# CTRL-N down to rotation_days: its description in the preview window.
for _ in $(seq 1 8); do
  tmux -L "$socket" send-keys -t tui C-n
done
wait_for_screen "rotation_days selected" '^ *rotation_days *$'
wait_for_screen "the description in the preview window" 'Number of days to add'
echo "ok - rotation_days selected in the menu shows its description"
screen | sed -n '1,30p'

tmux -L "$socket" send-keys -t tui Escape ':qa!' Enter
echo "neovim-tui: 5 passed, 0 failed"
