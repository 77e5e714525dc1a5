#!/usr/bin/env bash
# Runs the test suite on a busy machine: beside a CPU load of 2x the cores (stress-ng --cpu when it
# is installed, else node worker threads in busy loops), so that a test that samples a fixed window
# or races the clock shows up here and not in a user's CI. The load is stopped on any exit. Prints
# the load average seen during each run, each run's summary and failures, and how often it passed.
#
#   scripts/test-under-load.sh                 npm test (builds, then the whole suite), once
#   scripts/test-under-load.sh -n 3            the same, three times under one load
#   scripts/test-under-load.sh -n 3 dist/test/integration/verbs.test.js ...
#                                              those built test files (node --test), three times
#
# Environment: LOAD_WORKERS (default 2 x nproc), LOAD_TOOL=node to use node workers even when
# stress-ng is installed.
set -euo pipefail
cd "$(dirname "$0")/.."

runs=1
if [ "${1:-}" = "-n" ] || [ "${1:-}" = "--runs" ]; then
  runs=${2:?"$1 needs a number of runs"}
  shift 2
fi
case $runs in '' | *[!0-9]* | 0) echo "test-under-load: runs must be a positive whole number, not '$runs'" >&2; exit 2 ;; esac

cores=$(nproc)
workers=${LOAD_WORKERS:-$((2 * cores))}
tmp=$(mktemp -d /tmp/amux-load-XXXXXX)
load_pid=
sampler_pid=

stop_load() {
  if [ -n "$sampler_pid" ]; then kill "$sampler_pid" 2>/dev/null || true; fi
  if [ -n "$load_pid" ]; then
    # Its own process group (setsid): stress-ng's workers or node's threads end with it.
    kill -TERM -- "-$load_pid" 2>/dev/null || kill -TERM "$load_pid" 2>/dev/null || true
    wait "$load_pid" 2>/dev/null || true
  fi
  load_pid=
  sampler_pid=
}
cleanup() {
  stop_load
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

before=$(cut -d' ' -f1-3 /proc/loadavg)
if [ "${LOAD_TOOL:-}" != node ] && command -v stress-ng >/dev/null 2>&1; then
  tool="stress-ng --cpu $workers"
  setsid stress-ng --cpu "$workers" --timeout 0 --quiet &
else
  tool="node, $workers worker threads in busy loops"
  setsid node -e "
    const { Worker } = require('node:worker_threads');
    for (let i = 0; i < $workers; i++) new Worker('for (;;) {}', { eval: true });
  " &
fi
load_pid=$!
echo "test-under-load: $cores cores, load: $tool (load average before: $before)"

# The 1-minute load average every 5 s, for the range each run saw.
(while :; do cut -d' ' -f1 /proc/loadavg >>"$tmp/loadavg"; sleep 5; done) &
sampler_pid=$!

passed=0
failed_runs=()
for run in $(seq 1 "$runs"); do
  cut -d' ' -f1 /proc/loadavg >"$tmp/loadavg"
  log=$tmp/run-$run.log
  started=$SECONDS
  set +e
  if [ $# -eq 0 ]; then
    npm test >"$log" 2>&1
  else
    node --test --test-concurrency=2 --test-reporter=tap "$@" >"$log" 2>&1
  fi
  code=$?
  set -e
  cut -d' ' -f1 /proc/loadavg >>"$tmp/loadavg"
  seen=$(sort -n "$tmp/loadavg" | sed -n '1p;$p' | paste -sd' ' -)
  echo "test-under-load: run $run of $runs: exit $code after $((SECONDS - started)) s; 1-min load average seen: ${seen/ / to }"
  # node --test's closing summary (TAP when not on a terminal) and every failed test by name.
  grep -E '^# (tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) ' "$log" | sed 's/^/  /' || true
  grep -E '^ *not ok ' "$log" | sed 's/^ */  /' || true
  if [ "$code" -eq 0 ]; then
    passed=$((passed + 1))
  else
    failed_runs+=("$run")
    kept=/tmp/amux-load-run-$run-$(date +%s).log
    cp "$log" "$kept"
    echo "  (the whole output: $kept)"
  fi
done

stop_load
echo "test-under-load: passed $passed of $runs run(s) under $tool (load average now: $(cut -d' ' -f1-3 /proc/loadavg))"
[ "$passed" -eq "$runs" ]
