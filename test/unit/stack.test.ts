import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { parseEnvFile } from '../../src/cli/stack/env-file.js';
import { checkGraph, levels, select } from '../../src/cli/stack/graph.js';
import { loadStack, stackName } from '../../src/cli/stack/load.js';
import { desired, reconcile } from '../../src/cli/stack/plan.js';
import { LinePrefixer, prefixes } from '../../src/cli/stack/prefix.js';
import { procfileTree } from '../../src/cli/stack/procfile.js';
import { checkStack } from '../../src/cli/stack/schema.js';
import type { StackFile } from '../../src/cli/stack/spec.js';
import { yamlTree } from '../../src/cli/stack/tree.js';
import type { SessionView } from '../../src/protocol/sessions.js';

const FIXTURES = join(__dirname, '..', '..', '..', 'test', 'fixtures', 'stacks');
const fixture = (name: string, file = 'amux.yaml') => join(FIXTURES, name, file);
const check = (yaml: string) => checkStack(yamlTree(yaml, 'amux.yaml'), 'amux.yaml');
/** Asserts a usage error (exit 2) whose message matches. */
const refused = (fn: () => unknown, message: RegExp) => assert.throws(fn, (e: any) => e.exitCode === 2 && message.test(e.message) || assert.fail(`got: ${e.message}`));

describe('stack files: schema (ADR 0035)', () => {
  test('the demo stack reads as written: commands, env, env_file, conditions, probes, policy', () => {
    const stack = loadStack(fixture('demo'));
    assert.deepEqual(stack.services.map((s) => s.key), ['db', 'api', 'migrate', 'worker', 'repl']);
    const api = stack.services[1]!;
    assert.deepEqual(api.dependsOn, { db: 'ready' });
    assert.deepEqual(api.envFiles, ['.env']);
    assert.deepEqual(api.ready, { kind: 'http', url: 'http://127.0.0.1:8618/health', timeoutMs: 20_000, intervalMs: 1000 });
    assert.equal(api.restart, 'on-failure');
    assert.deepEqual(stack.services[3]!.dependsOn, { migrate: 'completed', api: 'ready' });
    assert.deepEqual(stack.services[4]!.ready, { kind: 'until', until: 'idle', timeoutMs: 20_000, intervalMs: 1000 });
  });

  test('a schema error names the line and the field', () => {
    refused(() => loadStack(fixture('schema-error')), /^amux\.yaml:7: sessions\.web\.ready\.timeout: invalid duration 'soon'/);
    refused(() => check('sessions:\n  a:\n    command: x\n    groups: g\n'), /^amux\.yaml:4: sessions\.a\.groups: unknown field \(known: .*labels, group\)/);
    refused(() => check('sessions:\n  a:\n    command: x\n    group: -bad\n'), /^amux\.yaml:4: sessions\.a\.group: invalid group name '-bad'/);
    refused(() => check('sessions:\n  a:\n    command: x\n    group: [a]\n'), /^amux\.yaml:4: sessions\.a\.group: must be a text/);
    refused(() => check('sessions:\n  a: { argv: [ls], command: ls }\n'), /:2: sessions\.a: give command or argv, not both/);
    refused(() => check('sessions:\n  a: { cwd: /tmp }\n'), /:2: sessions\.a: missing command/);
    refused(() => check('sessions:\n  a: { command: x, depends_on: { b: healthy } }\n  b: { command: y }\n'), /:2: sessions\.a\.depends_on\.b: unknown condition 'healthy'/);
    refused(() => check('sessions:\n  a: { command: x, ready: { until: "output:(" } }\n'), /:2: sessions\.a\.ready\.until: Invalid regular expression/);
    refused(() => check('sessions:\n  a: { command: x, ready: { http: "localhost:3000" } }\n'), /not an http/);
    refused(() => check('sessions:\n  a: { command: x, ready: { timeout: 5s } }\n'), /give exactly one of until, http or exec/);
    refused(() => check('sessions:\n  a: { command: x, restart: sometimes }\n'), /sessions\.a\.restart: invalid restart policy/);
    refused(() => check('sessions:\n  a: { command: x, labels: { stack: other } }\n'), /set by amux up/);
    refused(() => check('services:\n  a: { command: x }\n'), /^amux\.yaml:1: services: unknown field/);
    refused(() => check('sessions:\n  a: { command: x\n'), /^amux\.yaml:\d+: invalid YAML/);
    refused(() => check('sessions:\n  a: { command: x }\n  a: { command: y }\n'), /^amux\.yaml:3: invalid YAML: Map keys must be unique/);
  });

  test('depends_on as a list (started), a mapping, or compose-style { condition }; durations as text or seconds', () => {
    const [a] = check('sessions:\n  a: { command: x, depends_on: [b], timeout: 90, idle_timeout: 1m }\n  b: { command: y }\n');
    assert.deepEqual(a!.dependsOn, { b: 'started' });
    assert.equal(a!.timeoutMs, 90_000);
    assert.equal(a!.idleTimeoutMs, 60_000);
    const [c] = check('sessions:\n  c: { argv: [echo, "a b"], env: { N: 1, E: }, depends_on: { b: { condition: completed } } }\n  b: { command: y }\n');
    assert.deepEqual(c!.argv, ['echo', 'a b']);
    assert.deepEqual(c!.env, { N: '1', E: '' });
    assert.deepEqual(c!.dependsOn, { b: 'completed' });
  });

  test('a dependency cycle is named; an unknown session in depends_on is named', () => {
    refused(() => loadStack(fixture('cycle')), /^amux\.yaml:3: sessions\.a\.depends_on: dependency cycle: a -> b -> c -> a$/);
    refused(() => loadStack(fixture('unknown-dep')), /^amux\.yaml:2: sessions\.api\.depends_on: unknown session 'databse'$/);
    const self: StackFile = { file: 'amux.yaml', dir: '/', format: 'yaml', services: check('sessions:\n  a: { command: x, depends_on: [a] }\n') };
    refused(() => checkGraph(self), /:2: sessions\.a\.depends_on: dependency cycle: a -> a$/);
  });

  test('a Procfile: name: command lines, comments skipped; a bad line named', () => {
    const stack = loadStack(fixture('procfile', 'Procfile'));
    assert.equal(stack.format, 'procfile');
    assert.deepEqual(stack.services.map((s) => [s.key, s.command]), [
      ['hello', 'echo "hello from the Procfile"; sleep 300'],
      ['clock', 'while :; do echo "tick"; sleep 1; done'],
    ]);
    refused(() => checkStack(procfileTree('web: x\n\njust words\n', 'Procfile'), 'Procfile'), /^Procfile:3: not a Procfile line/);
    refused(() => checkStack(procfileTree('web: x\nweb: y\n', 'Procfile'), 'Procfile'), /^Procfile:2: web: named twice/);
  });

  test('env_file lines: export, quotes, comments', () => {
    assert.deepEqual(parseEnvFile('# c\nexport A=1\nB="two words"\nC=\'$X\'\nD=plain # note\n', '.env'), { A: '1', B: 'two words', C: '$X', D: 'plain' });
    refused(() => parseEnvFile('A=1\nnot a line\n', '.env'), /^\.env:2: not an env_file line/);
  });
});

describe('stack plans', () => {
  const stack = (): StackFile => ({ file: 'amux.yaml', dir: '/srv/app', format: 'yaml', services: check(
    'sessions:\n  db: { command: db }\n  api: { command: api, cwd: api, depends_on: { db: ready }, env: { A: "1" } }\n  worker: { command: w, depends_on: [api, db] }\n  other: { command: o }\n',
  ) });
  const target = { remote: false, env: { HOME: '/root', A: '0' }, umask: 0o022 };

  test('levels, selection with dependencies, names and labels', () => {
    const s = stack();
    assert.deepEqual(Object.fromEntries(levels(s.services)), { db: 0, api: 1, worker: 2, other: 0 });
    assert.deepEqual(select(s, ['worker']).map((x) => x.key), ['db', 'api', 'worker']);
    refused(() => select(s, ['nope']), /no session 'nope' in amux\.yaml/);
    const [, api] = desired(s, 'app', s.services, target);
    assert.equal(api!.request.name, 'app-api');
    assert.equal(api!.request.cwd, '/srv/app/api');
    assert.equal(api!.request.env!.A, '1', "the file's env goes over the caller's");
    assert.equal(api!.request.env!.HOME, '/root');
    assert.deepEqual(api!.request.labels, { stack: 'app', service: 'api', 'stack.hash': api!.hash, 'stack.level': '1' });
    assert.equal(api!.request.group, undefined);
    const grouped = stack();
    grouped.services[1]!.group = { name: 'builds', line: 2 };
    const g = desired(grouped, 'app', grouped.services, target)[1]!;
    assert.equal(g.request.group, 'builds', 'group: goes where run -g puts it');
    assert.notEqual(g.hash, api!.hash, 'a group of its own is a change of definition');
    assert.deepEqual(check('sessions:\n  a: { command: x, group: builds }\n')[0]!.group, { name: 'builds', line: 2 });
    assert.equal(stackName('/home/me/My App!'), 'My-App-');
    assert.equal(stackName('/x', 'dev'), 'dev');
    refused(() => stackName('/x', '-bad'), /invalid stack name/);
  });

  test('the hash covers the definition, not the caller environment; a remote stack sends only the file env', () => {
    const a = desired(stack(), 'app', stack().services, target);
    const b = desired(stack(), 'app', stack().services, { ...target, env: { OTHER: 'x' } });
    assert.deepEqual(a.map((d) => d.hash), b.map((d) => d.hash));
    const edited = stack();
    edited.services[1]!.env.A = '2';
    const c = desired(edited, 'app', edited.services, target);
    assert.notEqual(c[1]!.hash, a[1]!.hash);
    assert.equal(c[0]!.hash, a[0]!.hash);
    const remote = stack();
    remote.services[1]!.cwd = undefined;
    const r = desired(remote, 'app', remote.services, { ...target, remote: true });
    assert.deepEqual(r[1]!.request.env, { A: '1' });
    assert.equal(r[1]!.request.hostEnv, true);
    assert.equal(r[1]!.request.cwd, undefined);
    refused(() => desired(stack(), 'app', stack().services, { ...target, remote: true }), /cwd must be an absolute path there/);
    const missing = stack();
    missing.services[0]!.envFiles = ['nope.env'];
    refused(() => desired(missing, 'app', missing.services, target), /^amux\.yaml:2: sessions\.db\.env_file: cannot read nope\.env \(ENOENT\)$/);
  });

  test('reconcile: unchanged live or completed stay, changed or failed are replaced, removed ones go (ADR 0036)', () => {
    const want = desired(stack(), 'app', stack().services, target);
    const view = (key: string, status: string, hash: string, id: string) => ({ id, name: `app-${key}`, status, labels: { stack: 'app', service: key, 'stack.hash': hash } }) as unknown as SessionView;
    const h = Object.fromEntries(want.map((w) => [w.spec.key, w.hash]));
    const existing = [view('db', 'idle', h.db!, 'd'), view('api', 'working', 'old', 'a'), view('worker', 'failed', h.worker!, 'w'), view('gone', 'working', 'x', 'g')];
    const r = reconcile(want, existing, want.map((w) => w.spec.key), true);
    assert.deepEqual(r.steps.map((s) => [s.want.spec.key, s.kind, s.kind === 'replace' ? s.why : '']), [
      ['db', 'keep', ''], ['api', 'replace', 'changed'], ['worker', 'replace', 'failed'], ['other', 'create', ''],
    ]);
    assert.deepEqual(r.orphans.map((s) => s.id), ['g']);
    assert.deepEqual(reconcile(want.slice(0, 1), existing, want.map((w) => w.spec.key), false).orphans, [], 'up SERVICE leaves the rest alone');
    const done = reconcile(want, [view('db', 'completed', h.db!, 'd')], [], true);
    assert.equal(done.steps[0]!.kind, 'keep', 'a completed one-shot with an unchanged definition is not run again');
  });

  test('prefixes: padded, coloured only when asked; lines cut at newlines, the rest waits', () => {
    const p = prefixes(['db', 'worker'], false);
    assert.equal(p.get('db'), 'db     | ');
    assert.match(prefixes(['db'], true).get('db')!, /^\x1b\[36mdb \| \x1b\[0m$/);
    const l = new LinePrefixer('x | ');
    assert.equal(l.push('a\nb'), 'x | a\n');
    assert.equal(l.push('c\n\nd'), 'x | bc\nx | \n');
    assert.equal(l.end(), 'x | d\n');
    assert.equal(l.end(), '');
  });
});

describe('stack files are read only when regular and bounded; names that read as job ids are refused (src/guides/stacks.md)', () => {
  test('a link to /dev/zero, a FIFO, a file over 1 MiB: refused at once (exit 2), never read for ever or waited on', (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'amux-stackfile-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    symlinkSync('/dev/zero', join(dir, 'zero.yaml'));
    refused(() => loadStack(join(dir, 'zero.yaml')), /^cannot read zero\.yaml: not a regular file/);
    execFileSync('mkfifo', [join(dir, 'fifo.yaml')]);
    refused(() => loadStack(join(dir, 'fifo.yaml')), /^cannot read fifo\.yaml: not a regular file/);
    writeFileSync(join(dir, 'big.yaml'), Buffer.alloc(1024 * 1024 + 1, 'a'));
    refused(() => loadStack(join(dir, 'big.yaml')), /^cannot read big\.yaml: 1048577 bytes, over the 1 MiB/);
    symlinkSync('/dev/zero', join(dir, 'zero.env'));
    writeFileSync(join(dir, 'amux.yaml'), 'sessions:\n  a: { command: x, env_file: zero.env }\n');
    const stack = loadStack(join(dir, 'amux.yaml'));
    refused(() => desired(stack, 'app', stack.services, { remote: false, env: {}, umask: 0o22 }), /env_file: cannot read zero\.env: not a regular file/);
    refused(() => loadStack(join(dir, 'missing.yaml')), /^cannot read missing\.yaml \(ENOENT\)$/);
  });

  test('a stack named job or job-… (by -p or by its directory) is refused before anything starts', () => {
    refused(() => stackName('/x', 'job-runner'), /sessions' names would start with job-/);
    refused(() => stackName('/x', 'JOB'), /sessions' names would start with job-/);
    refused(() => stackName('/srv/job-runner'), /cannot make a stack name of the directory 'job-runner': give -p NAME/);
    assert.equal(stackName('/x', 'jobs'), 'jobs');
  });
});
