import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { BUILD_ID_FILE, cacheFileOf } from '../../src/cli/code-cache.js';

/**
 * The CLI's bundles compiled from V8's code cache (ADR 0069), each case in node processes of its own
 * (the cache is written when a process exits), on a bundle of this test's own.
 */
const loader = join(__dirname, '..', '..', 'src', 'cli', 'code-cache.js');
const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A folder with a bundle that requires a node module, reads __dirname and exports what it was built as. */
function tree(version: string, id: string | null = 'a1b2c3d4e5f60718'): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'amux-code-cache-'));
  dirs.push(dir);
  const file = join(dir, 'bundle.js');
  writeBundle(file, version);
  if (id !== null) writeFileSync(join(dir, BUILD_ID_FILE), `${id}\n`);
  return { dir, file };
}

function writeBundle(file: string, version: string): void {
  // Functions enough that V8 has something to cache, called so that the lazily compiled ones are in it.
  const fns = Array.from({ length: 50 }, (_, i) => `function f${i}(x){return x.map((y)=>y*${i}+1).filter((y)=>y%3!==0).length}`).join('\n');
  writeFileSync(file, `"use strict";\n${fns}\nconst { basename } = require('node:path');\nmodule.exports = { version: ${JSON.stringify(version)}, dir: basename(__dirname) === basename(${JSON.stringify(join(file, '..'))}), sum: [${Array.from({ length: 50 }, (_, i) => `f${i}([1,2,3,4])`).join(',')}].reduce((a,b)=>a+b,0), file: __filename };\n`);
}

/** Loads `file` through the loader in a node process of its own: what the bundle exported. */
function load(file: string, flags: string[] = []): { version: string; dir: boolean; sum: number; file: string } {
  const r = spawnSync(process.execPath, [...flags, '-e', `process.stdout.write(JSON.stringify(require(${JSON.stringify(loader)}).requireBundle(${JSON.stringify(file)})))`], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

const caches = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.cache'));

describe('the bundles from the code cache (ADR 0069)', () => {
  test('the first run compiles and writes the cache at exit; the next reads it and gives the same exports', () => {
    const { dir, file } = tree('one');
    const first = load(file);
    assert.deepEqual(first, { version: 'one', dir: true, sum: first.sum, file });
    assert.ok(first.sum > 0);
    const cache = cacheFileOf(file, 'a1b2c3d4e5f60718');
    assert.deepEqual(caches(dir), [cache.slice(dir.length + 1)]);
    const written = statSync(cache);
    assert.ok(written.size > 0);
    // Read, not written again: the file is the same one, untouched.
    assert.deepEqual(load(file), first);
    assert.equal(statSync(cache).mtimeMs, written.mtimeMs);
    assert.equal(statSync(cache).ino, written.ino);
  });

  test('a cache that does not fit (garbage, or another build of the same length under its name) is not used, and is written again', () => {
    const { dir, file } = tree('one');
    const cache = cacheFileOf(file, 'a1b2c3d4e5f60718');
    writeFileSync(cache, Buffer.from('not a cache at all'));
    assert.equal(load(file).version, 'one');
    assert.notEqual(readFileSync(cache).toString('latin1'), 'not a cache at all');
    assert.deepEqual(caches(dir), [cache.slice(dir.length + 1)]);
  });

  test('another build has another id: its own cache, never the old one (V8 alone would take a source of the same length)', () => {
    const { dir, file } = tree('one');
    load(file);
    // Same length, other code: what a rebuild that changes one character makes.
    writeBundle(file, 'two');
    writeFileSync(join(dir, BUILD_ID_FILE), 'ffffffffffffffff\n');
    assert.equal(load(file).version, 'two');
    assert.equal(load(file).version, 'two');
    assert.equal(caches(dir).length, 2);
    assert.ok(existsSync(cacheFileOf(file, 'ffffffffffffffff')));
  });

  test('a bundle edited by hand (the same length, the same build id): not run from the cache of what it was', () => {
    const { dir, file } = tree('one');
    load(file);
    writeBundle(file, 'two');
    // Another second: what an edit after the build is, whatever the file system's time grain.
    const later = new Date(statSync(file).mtimeMs + 5000);
    utimesSync(file, later, later);
    assert.equal(load(file).version, 'two');
    assert.equal(caches(dir).length, 2);
  });

  test('node code-cache.js BUNDLE (the daemon): the bundle runs as the script, and its cache is written while it runs', async () => {
    const { dir, file } = tree('one');
    const out = join(dir, 'argv.json');
    // A bundle that stays, as the daemon does, and says what it saw as its argv.
    writeFileSync(file, `${readFileSync(file, 'utf8')}\nrequire('node:fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify(process.argv));\nsetTimeout(() => {}, 60_000);\n`);
    const child = spawn(process.execPath, [loader, file, 'arg'], { stdio: 'ignore' });
    try {
      const cache = cacheFileOf(file, 'a1b2c3d4e5f60718');
      // Written DAEMON_CACHE_AFTER_MS after its start, with the process still running.
      const deadline = Date.now() + 60_000;
      while (!existsSync(cache) && Date.now() < deadline) await sleep(50);
      assert.ok(existsSync(cache), 'the cache was written while the process runs');
      assert.equal(child.exitCode, null);
      assert.deepEqual(JSON.parse(readFileSync(out, 'utf8')).slice(1), [file, 'arg']);
    } finally {
      child.kill('SIGKILL');
    }
  });

  test('a tree without a build id (tsc alone) is required as node would: no cache', () => {
    const { dir, file } = tree('one', null);
    assert.equal(load(file).version, 'one');
    assert.deepEqual(caches(dir), []);
  });

  test('with --enable-source-maps, required as node would (its stack traces are mapped): no cache', () => {
    const { dir, file } = tree('one');
    assert.equal(load(file, ['--enable-source-maps']).version, 'one');
    assert.deepEqual(caches(dir), []);
  });

  test('a folder it cannot write (another user\'s install): runs, no cache, no temporary file left', (t) => {
    if (process.getuid?.() === 0) {
      // root writes anywhere: a folder made read-only does not stop it; a file in the cache's place that is a folder does.
      const { dir, file } = tree('one');
      const cache = cacheFileOf(file, 'a1b2c3d4e5f60718');
      mkdirSync(cache);
      assert.equal(load(file).version, 'one');
      assert.equal(load(file).version, 'one');
      assert.ok(statSync(cache).isDirectory());
      assert.deepEqual(readdirSync(dir).filter((f) => f.endsWith('.tmp')), []);
      return;
    }
    const { dir, file } = tree('one');
    chmodSync(dir, 0o555);
    t.after(() => chmodSync(dir, 0o755));
    assert.equal(load(file).version, 'one');
    assert.deepEqual(caches(dir), []);
  });
});
