#!/usr/bin/env bash
# Sets amux up on a fresh machine (tmux and procps if missing, npm dependencies, build), then
# runs its main job once: start a session, wait for it, list sessions. `--no-demo` skips that.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v tmux >/dev/null 2>&1 || need+=(tmux)
command -v ps >/dev/null 2>&1 || need+=(procps)
if [ ${#need[@]} -gt 0 ]; then
  echo "setup: installing ${need[*]}"
  if [ "$(id -u)" -eq 0 ]; then SUDO=(); else SUDO=(sudo); fi
  export DEBIAN_FRONTEND=noninteractive
  "${SUDO[@]}" apt-get update -qq
  "${SUDO[@]}" apt-get install -y -qq "${need[@]}" >/dev/null
fi
tmux -V

echo "setup: npm ci (better-sqlite3 compiles from source when no prebuilt binary can be fetched: ~75 s)"
npm ci --no-audit --no-fund
npm run build

if [ "${1:-}" != "--no-demo" ]; then
  id=$(bin/amux run -n "hello-$$" -- 'echo "hello from amux on $(tmux -V)"')
  bin/amux wait "$id"
  bin/amux logs "$id"
  bin/amux ps
fi
