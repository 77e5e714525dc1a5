#!/usr/bin/env bash
# Proves that the npm package installs and works (README "Install"; ADR 0022): `npm pack` (its
# prepack builds), checks what the tarball holds, `npm install --global` into a temporary prefix,
# then from another directory `amux --version`, `amux run -w -- echo ok`, the demo stack of
# `amux up --example` with a temporary AMUX_HOME, `man amux-run` and `amux help`. Everything it made
# is removed at the end, also on failure.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
tmp=$(mktemp -d /tmp/amux-pack-XXXXXX)
prefix=$tmp/prefix
home=$tmp/home

cleanup() {
  if [ -x "$prefix/bin/amux" ]; then AMUX_HOME=$home "$prefix/bin/amux" daemon stop >/dev/null 2>&1 || true; fi
  tmux -S "$home/tmux.sock" kill-server >/dev/null 2>&1 || true
  rm -rf "$tmp"
}
trap cleanup EXIT

fail() {
  echo "pack-check: $*" >&2
  exit 1
}

started=$SECONDS
echo "pack-check: npm pack (prepack builds)"
tarball=$(npm pack --pack-destination "$tmp" --silent | tail -n 1)
[ -f "$tmp/$tarball" ] || fail "npm pack made no tarball ($tarball)"

# What ships: the launcher, the bundles, their loader and the build's id (ADR 0069), the completion spec, the man pages and the guides
# `amux help TOPIC` reads (ADR 0063), README and package.json; no other sources, tests or scripts.
contents=$(tar -tzf "$tmp/$tarball" | sed 's|^package/||' | sort)
expected=$( (printf '%s\n' README.md bin/amux dist/src/cli/bundle.js dist/src/cli/bundle-full.js dist/src/cli/bundle-help.js dist/src/cli/code-cache.js dist/src/cli/build-id dist/src/cli/completion-spec.json dist/src/cli/ink.mjs dist/src/daemon/amuxd.js dist/src/daemon/build-id package.json
  node -e "for (const f of require('./package.json').man) console.log(f)"
  ls src/guides/*.md) | sort)
[ "$contents" = "$expected" ] || fail "the tarball holds:
$contents
expected:
$expected"
packed=$SECONDS

echo "pack-check: npm install --global $tarball into a temporary prefix (better-sqlite3 compiles from source when no prebuilt binary can be fetched: ~75 s)"
npm install --global --prefix "$prefix" --no-audit --no-fund --loglevel=error "$tmp/$tarball"
installed=$SECONDS

# From another directory, as `amux` on PATH, with its own AMUX_HOME.
mkdir "$tmp/elsewhere"
cd "$tmp/elsewhere"
export PATH="$prefix/bin:$PATH" AMUX_HOME=$home
[ "$(command -v amux)" = "$prefix/bin/amux" ] || fail "amux on PATH is $(command -v amux), not the installed one"
version=$(amux --version)
want=$(node -p "require('$repo/package.json').version")
[ "$version" = "$want" ] || fail "amux --version printed '$version', package.json has '$want'"
out=$(amux run -w -- echo ok)
[ "$out" = ok ] || fail "amux run -w -- echo ok printed '$out'"
amux completion bash | grep -q '^complete -F _amux_complete amux$' || fail "amux completion bash printed no script"
# The stack demo ships inside the package (ADR 0065): written, up, down.
amux up --example demo >/dev/null 2>&1 || fail "amux up --example demo failed"
[ -f demo/amux.yaml ] && [ -f demo/api.js ] || fail "amux up --example wrote no demo/amux.yaml and demo/api.js"
(cd demo && amux up -d >/dev/null 2>&1 && amux down >/dev/null 2>&1) || fail "the demo of amux up --example did not come up and down"

# The reference (ADR 0063): npm links the man pages under the prefix's share/man; `man amux-run`
# finds them there (when man-db is installed); `amux help` reads the installed guides.
[ -f "$prefix/share/man/man1/amux-run.1" ] || fail "no man page at $prefix/share/man/man1/amux-run.1: $(ls -R "$prefix/share/man" 2>&1 | head -5)"
[ -f "$prefix/share/man/man1/amux.1" ] || fail "no man page amux.1 under $prefix/share/man/man1"
topic=$(basename "$(ls "$repo"/src/guides/*.md | head -n 1)" .md)
[ -f "$prefix/share/man/man7/amux-$topic.7" ] || fail "no man page amux-$topic.7 under $prefix/share/man/man7"
if command -v man >/dev/null; then
  MANPATH="$prefix/share/man" MANPAGER=cat MANWIDTH=80 man amux-run 2>&1 | grep -q 'amux run \[options\]' || fail "man amux-run did not show the page: $(MANPATH="$prefix/share/man" MANPAGER=cat man amux-run 2>&1 | head -5)"
  man_checked="man amux-run shows its page"
else
  man_checked="man is not installed: the pages are in $prefix/share/man"
fi
amux help run | grep -q '^  amux run \[options\]' || fail "amux help run printed no page"
amux help "$topic" | grep -q "^amux-$topic - " || fail "amux help $topic printed no guide"
# The commands above wrote the bundles' code caches into the install (ADR 0069).
cli="$prefix/lib/node_modules/amux/dist/src/cli"
ls "$cli"/bundle.js.*.cache >/dev/null 2>&1 || fail "no code cache of bundle.js in $cli: $(ls "$cli")"

echo "pack-check: ok: $tarball ($(du -k "$tmp/$tarball" | cut -f1) KiB) packed in $((packed - started)) s, installed in $((installed - packed)) s; amux $version runs from $PWD; $man_checked"
