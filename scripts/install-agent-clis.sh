#!/usr/bin/env bash
# Installs the three agent CLIs that test/integration/agents-*.test.ts and scripts/bench-agents.ts
# drive, at pinned versions, from the npm registry only, into a cache directory outside the
# repository's node_modules (ADR 0051): $AMUX_AGENT_CLI_DIR, default $TMPDIR/amux-agent-clis.
# They are never dependencies of amux. A second run with the same versions does nothing.
# Prints the directory on its last line.
set -euo pipefail
dir="${AMUX_AGENT_CLI_DIR:-${TMPDIR:-/tmp}/amux-agent-clis}"
pins=(
  "@anthropic-ai/claude-code@2.1.197"
  "@openai/codex@0.171.0"
  "@google/gemini-cli@0.61.0"
)
mkdir -p "$dir"
installed() { # NAME@VERSION -> 0 when node_modules has that version
  local spec="$1" name="${1%@*}" version="${1##*@}"
  [ -f "$dir/node_modules/$name/package.json" ] &&
    node -e 'process.exit(require(process.argv[1]).version === process.argv[2] ? 0 : 1)' \
      "$dir/node_modules/$name/package.json" "$version"
}
missing=()
for spec in "${pins[@]}"; do installed "$spec" || missing+=("$spec"); done
if [ ${#missing[@]} -gt 0 ]; then
  echo "install-agent-clis: npm install ${missing[*]} into $dir" >&2
  [ -f "$dir/package.json" ] || echo '{"name":"amux-agent-clis","private":true}' >"$dir/package.json"
  # --ignore-scripts is not used: Claude Code's and Codex's native binaries come as optional
  # dependencies of the package, unpacked by npm itself; no install step fetches anything else.
  (cd "$dir" && npm install --no-audit --no-fund --save-exact --loglevel=error "${missing[@]}" >&2)
fi
for spec in "${pins[@]}"; do
  installed "$spec" || { echo "install-agent-clis: $spec did not install in $dir" >&2; exit 1; }
done
echo "$dir"
