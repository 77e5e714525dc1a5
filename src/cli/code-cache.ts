import { closeSync, fchmodSync, fstatSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Script } from 'node:vm';

/**
 * amux's bundles (the CLI's and the daemon's) compiled from V8's code cache (ADR 0069). A bundle is
 * most of what a command costs over `node -e 0`: compiling it, and the functions a command calls,
 * is work that gives the same result each time. The first run of a build compiles as node would
 * and, when it exits, writes what V8 compiled (the functions that run included) next to the
 * bundle; later runs read it instead. The cache is named by the build (`BUILD_ID_FILE`, written by
 * scripts/bundle.ts), the bundle's modification time and node's version, so another build or
 * another node never reads it; V8 checks it again (its version, its flags, the source's length)
 * and compiles afresh when it does not fit. A tree that cannot be written (an install owned by
 * another user) runs without one, as node would; so does a process with `--enable-source-maps`
 * (node maps only what its own require compiled).
 *
 * This file is loaded by node's own `require`, never bundled (scripts/bundle.ts): bin/amux uses it
 * for `bundle.js`, the bundles use it for the bundles they load, the launcher runs the daemon's
 * bundle through it, and it is where the CLI's ES modules are imported from (a script compiled here
 * has no `import()` of its own on Node 20).
 */

/** Where the build writes its id, beside the bundles (scripts/bundle.ts). */
export const BUILD_ID_FILE = 'build-id';

/** How each bundle of this process was compiled, for the daemon's log (ADR 0069): a global, since the bundles carry no copy of this module's state. */
export const CACHE_USE = Symbol.for('amux.codeCache');
export type CacheUse = 'read' | 'written' | 'none';

function recordUse(file: string, use: CacheUse): void {
  const g = globalThis as { [CACHE_USE]?: Record<string, CacheUse> };
  (g[CACHE_USE] ??= {})[file] = use;
}

/** Scripts whose cache this process found missing or unfit: written when it exits. */
const unwritten: { script: Script; cache: string }[] = [];
/** The build id of each folder of bundles read so far. */
const ids = new Map<string, string | null>();

/** The build's id beside the bundles in `dir`: null in a tree without one (compiled by tsc alone: no cache). */
function idOf(dir: string): string | null {
  let id = ids.get(dir);
  if (id !== undefined) return id;
  try {
    id = /^[0-9a-f]{8,64}$/.exec(readFileSync(join(dir, BUILD_ID_FILE), 'latin1').trim())?.[0] ?? null;
  } catch {
    id = null;
  }
  ids.set(dir, id);
  return id;
}

/**
 * The cache file of `file` for this build, this node and the bundle's modification time: a bundle
 * edited by hand (a constant changed for a test, the same length) is never run from the cache of
 * what it was.
 */
export function cacheFileOf(file: string, id: string, mtimeMs = statSync(file).mtimeMs): string {
  return `${file}.${id}-${Math.trunc(mtimeMs)}.${process.version}-${process.arch}.cache`;
}

/**
 * `require(file)` for a bundle of amux (CommonJS: ADR 0014, ADR 0025), compiled from its code cache
 * when there is one that fits; else compiled as node would, its cache written at exit, or
 * `writeAfterMs` after this call for a process that runs for long (the daemon) if it has not exited.
 */
export function requireBundle(file: string, writeAfterMs?: number): unknown {
  const id = idOf(dirname(file));
  if (id === null || sourceMaps()) {
    recordUse(file, 'none');
    return require(file);
  }
  // UTF-8 (the daemon's comments are not all ASCII); an ASCII file is still one-byte text (ADR 0025).
  let source: string;
  let mtimeMs: number;
  const fd = openSync(file, 'r');
  try {
    mtimeMs = fstatSync(fd).mtimeMs;
    source = readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
  const cache = cacheFileOf(file, id, mtimeMs);
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cache);
  } catch {
    cachedData = undefined;
  }
  // The wrapper node gives a CommonJS module, on the source's first line (lines keep their numbers).
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: file, cachedData });
  if (cachedData === undefined || script.cachedDataRejected === true) {
    if (unwritten.length === 0) process.once('exit', writeCaches);
    unwritten.push({ script, cache });
    if (writeAfterMs !== undefined) setTimeout(writeCaches, writeAfterMs).unref();
    recordUse(file, 'written');
  } else {
    recordUse(file, 'read');
  }
  const module = { exports: {} as unknown, filename: file, id: file, loaded: false };
  (script.runInThisContext() as (...a: unknown[]) => void).call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  module.loaded = true;
  return module.exports;
}

/**
 * Whether node maps stack traces (`--enable-source-maps`): it maps what its require compiled, not a
 * script's. `process.sourceMapsEnabled` is node 20.7 and later; before, the flags say.
 */
function sourceMaps(): boolean {
  const enabled = (process as { sourceMapsEnabled?: boolean }).sourceMapsEnabled;
  if (enabled !== undefined) return enabled;
  return process.execArgv.includes('--enable-source-maps') || (process.env.NODE_OPTIONS ?? '').includes('--enable-source-maps');
}

/**
 * Writes the caches of this process's scripts, each whole or not at all (a temporary file renamed),
 * readable by all as the bundle is (the daemon's umask is 077).
 */
function writeCaches(): void {
  for (const { script, cache } of unwritten) {
    const tmp = `${cache}.${process.pid}.tmp`;
    let fd: number;
    try {
      fd = openSync(tmp, 'wx', 0o644);
    } catch {
      continue; // not writable (another user's install): the next run compiles again
    }
    try {
      try {
        fchmodSync(fd, 0o644);
        writeSync(fd, script.createCachedData());
      } finally {
        closeSync(fd);
      }
      renameSync(tmp, cache);
    } catch {
      // The disk is full, or the cache's name is taken by a folder: none written.
      try {
        unlinkSync(tmp);
      } catch {
        // gone already
      }
    }
  }
  unwritten.length = 0;
}

/**
 * Forgets the caches this process would write: `amux daemon run` turns the CLI's process into the
 * daemon, whose V8 flags (ADR 0042, ADR 0029) a CLI's cache must not be written under.
 */
export function forgetCaches(): void {
  unwritten.length = 0;
}

/**
 * How long after its start the daemon writes its code cache (ADR 0069): its start-up and a first
 * session have compiled what later starts need; a daemon runs for days before it exits.
 */
export const DAEMON_CACHE_AFTER_MS = 2000;

/**
 * `import(specifier)` for the bundles: an ES module (chalk, ink) resolved from this folder, as the
 * bundles' own would be (they live beside it).
 */
export function importModule<T>(specifier: string): Promise<T> {
  return import(specifier) as Promise<T>;
}

// `node code-cache.js BUNDLE`: the daemon's process (src/client/launcher.ts), its bundle from the cache.
if (require.main === module && process.argv[2] !== undefined) {
  const bundle = process.argv[2];
  process.argv.splice(1, 1); // the bundle is the script, as when node runs it
  requireBundle(bundle, DAEMON_CACHE_AFTER_MS);
}
