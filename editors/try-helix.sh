#!/usr/bin/env bash
# Tries the Helix set-up of README.md ("#### Helix") on the blog page sample:
# `hx --health game-record` with editors/helix/languages.toml as the only user
# configuration, then hx itself in a tmux pane on the sample, printing the
# screen once the diagnostics of `referee lsp` are counted, with the hover on
# the first of them, with the diagnostics picker (space d) open, the quick fix
# offered (space a) and the symbols picker (space s).
#
#   editors/try-helix.sh path/to/referee [path/to/hx]
#
# Needs hx (tried with 25.07.1; from PATH when not given) and tmux, so it is
# not part of .ci/run. Exit 0 when the health check finds the server and the
# screen shows the two diagnostics, the hover, the quick fix and two symbols,
# 1 otherwise.
set -euo pipefail

if [ $# -lt 1 ] || [ $# -gt 2 ] || [ ! -x "$1" ]; then
  echo "usage: $0 PATH/TO/referee [PATH/TO/hx]" >&2
  exit 2
fi
repo=$(cd "$(dirname "$0")/.." && pwd)
hx=$(realpath "$(command -v "${2:-hx}")")
work=$(mktemp -d)
session="referee-try-helix-$$"
trap 'tmux kill-session -t "$session" 2>/dev/null || true; rm -rf "$work"' EXIT

# The set-up runs `referee lsp` from PATH, as a user's would; the configuration,
# the log and the cache are this run's own.
mkdir -p "$work/bin" "$work/records" "$work/config/helix"
ln -s "$(realpath "$1")" "$work/bin/referee"
cp "$repo/editors/helix/languages.toml" "$work/config/helix/"
cp "$repo/samples/quadraphages/blog-page.txt" "$work/records/"
export PATH="$work/bin:$PATH" XDG_CONFIG_HOME="$work/config" \
  XDG_CACHE_HOME="$work/cache" XDG_DATA_HOME="$work/data"

status=0
"$hx" --version
echo "== hx --health game-record"
# Without its colours, so that it can be searched.
"$hx" --health game-record | sed 's/\x1b\[[0-9;]*m//g' | tee "$work/health"
grep -q "referee: $work/bin/referee" "$work/health" || { echo "FAILED: server not found"; status=1; }

screen() { tmux capture-pane -p -t "$session"; }
# Waits up to 20 s for the screen to show $1.
wait_for() {
  for _ in $(seq 200); do
    screen | grep -q -- "$1" && return 0
    sleep 0.1
  done
  echo "FAILED: the screen never showed: $1"
  status=1
}

cd "$work"
tmux new-session -d -s "$session" -x 100 -y 45 \
  "env PATH='$PATH' XDG_CONFIG_HOME='$XDG_CONFIG_HOME' XDG_CACHE_HOME='$XDG_CACHE_HOME' XDG_DATA_HOME='$XDG_DATA_HOME' '$hx' records/blog-page.txt"
# Helix marks the lines with diagnostics in the gutter and counts them in the
# status line (it writes their messages on the screen only with the inline
# diagnostics of its config.toml on): wait for the count, then hover at 28:31,
# the illegal move, then open the diagnostics picker.
wait_for "● 2"
tmux send-keys -t "$session" 2 8 G 3 0 l Space k
wait_for "illegal move"
echo "== hx records/blog-page.txt, then 28G 30l space k (hover)"
screen
# A key right after Escape would be read as Alt with that key.
tmux send-keys -t "$session" Escape
sleep 0.5
tmux send-keys -t "$session" Space d
wait_for "a 3-cell move"
echo "== space d (diagnostics picker)"
screen
tmux send-keys -t "$session" Escape
sleep 0.5
tmux send-keys -t "$session" Space a
wait_for "play d8d5 instead of d2d5"
echo "== space a (code actions at 28:31)"
screen | grep -B2 -A2 "play d8d5"
tmux send-keys -t "$session" Escape
sleep 0.5
tmux send-keys -t "$session" Space s
wait_for "2/2"
echo "== space s (symbols)"
screen | head -12
tmux send-keys -t "$session" Escape
sleep 0.5
tmux send-keys -t "$session" : q ! Enter
exit $status
