#!/usr/bin/env bash
# Sets amux up on a fresh machine (tmux, procps, iproute2, openssh-server, jq and make if missing, npm dependencies,
# build), then runs its main job once: start a session, wait for it, list sessions. `--no-demo` skips that.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v tmux >/dev/null 2>&1 || need+=(tmux)
command -v ps >/dev/null 2>&1 || need+=(procps)
# ss: the other end of a Unix socket and TCP_INFO, where /proc cannot tell (ADR 0048).
command -v ss >/dev/null 2>&1 || need+=(iproute2)
# The remote-host tests run private sshds on 127.0.0.1 (test/helpers/sshd.ts); never the system's.
[ -x /usr/sbin/sshd ] || need+=(openssh-server)
command -v ssh >/dev/null 2>&1 || need+=(openssh-client)
# The --help examples run as written (test/integration/examples.test.ts, ADR 0065): jq and make are in them.
command -v jq >/dev/null 2>&1 || need+=(jq)
command -v make >/dev/null 2>&1 || need+=(make)
if [ ${#need[@]} -gt 0 ]; then
  echo "setup: installing ${need[*]}"
  if [ "$(id -u)" -eq 0 ]; then SUDO=(); else SUDO=(sudo); fi
  export DEBIAN_FRONTEND=noninteractive
  "${SUDO[@]}" apt-get update -qq
  # policy-rc.d 101: the package must not start (or enable) a system sshd on port 22.
  if [[ " ${need[*]} " == *" openssh-server "* ]] && [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' | "${SUDO[@]}" tee /usr/sbin/policy-rc.d >/dev/null
    "${SUDO[@]}" chmod 755 /usr/sbin/policy-rc.d
    trap '"${SUDO[@]}" rm -f /usr/sbin/policy-rc.d' EXIT
  fi
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
