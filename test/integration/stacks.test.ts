import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { amuxHome, BIN, sleep } from '../helpers/amux.js';

const FIXTURES = join(__dirname, '..', '..', '..', 'test', 'fixtures', 'stacks');
/** The guide that shows the demo stack (`amux help stacks`). */
const GUIDE = join(__dirname, '..', '..', '..', 'src', 'guides', 'stacks.md');

describe('stacks: up, down, ps --stack, logs --stack (src/guides/stacks.md)', () => {
  const h = amuxHome({ after });
  const scratch = mkdtempSync('/tmp/amux-stacks-');
  after(() => rmSync(scratch, { recursive: true, force: true }));
  /** A copy of a fixture stack in its own directory, named as the fixture (so the stack is). */
  const copy = (name: string) => {
    const dir = join(scratch, name);
    cpSync(join(FIXTURES, name), dir, { recursive: true });
    return dir;
  };
  const stackSessions = async (name: string): Promise<any[]> => JSON.parse(await h.ok(['ps', '--stack', name, '--json']));
  const byService = (list: any[]): Record<string, any> => Object.fromEntries(list.map((s) => [s.labels.service, s]));
  const amuxLines = (stderr: string) => stderr.split('\n').filter((l) => l.startsWith('amux:'));

  test('the stacks guide\'s example: five sessions up in dependency order, each ready its own way; logs --stack; down leaves nothing', async () => {
    const guide = readFileSync(GUIDE, 'utf8');
    for (const file of ['amux.yaml', 'api.js', 'migrate.js', 'worker.js', '.env']) {
      const text = readFileSync(join(FIXTURES, 'demo', file), 'utf8');
      assert.ok(guide.includes(text), `src/guides/stacks.md shows test/fixtures/stacks/demo/${file} whole, as it is`);
    }
    const dir = copy('demo');
    const up = await h.run(['up', '-d'], { cwd: dir });
    assert.equal(up.code, 0, up.stderr);
    const s = byService(await stackSessions('demo'));
    assert.deepEqual(Object.keys(s).sort(), ['api', 'db', 'migrate', 'repl', 'worker']);
    assert.equal(s.migrate.status, 'completed', 'the migration ran to exit 0');
    assert.ok(Date.parse(s.worker.createdAt) >= Date.parse(s.migrate.endedAt), 'the worker started after the migration completed');
    assert.ok(Date.parse(s.api.createdAt) >= Date.parse(s.db.createdAt));
    for (const k of ['db', 'api', 'worker', 'repl']) assert.ok(['working', 'idle'].includes(s[k].status), `${k}: ${s[k].status}`);
    assert.equal(s.repl.status, 'idle', 'the REPL was ready when idle');
    assert.deepEqual(s.api.labels, { stack: 'demo', service: 'api', 'stack.hash': s.api.labels['stack.hash'], 'stack.level': '1' });
    assert.equal(s.api.name, 'demo-api');
    assert.equal(s.api.restartPolicy, 'on-failure');
    assert.equal(await status('http://127.0.0.1:8618/health'), 200, 'api answers, as its readiness said');
    const logs = await h.ok(['logs', '--stack', 'demo']);
    assert.match(logs, /^api +\| api: listening on 8618; hello from \.env$/m, 'env and env_file reached the session');
    assert.match(logs, /^migrate +\| migrate: db answered 200; migrated$/m);
    assert.match(logs, /^db +\| Serving HTTP on 127\.0\.0\.1 port 8617/m);
    const fresh = await h.ok(['restart', 'demo-api']);
    await h.until(fresh, (x) => x.logBytes > 0);
    assert.equal(byService(await stackSessions('demo')).api.id, fresh, 'restart STACK-KEY: still the stack\'s api');
    s.api = { id: fresh };
    const worker = await h.ok(['restart', 'worker'], { cwd: dir });
    assert.notEqual(worker, s.worker.id, 'restart KEY in the stack\'s directory: its session');
    assert.equal(byService(await stackSessions('demo')).worker.id, worker);
    assert.equal((await h.run(['restart', 'worker'], { cwd: scratch })).code, 1, 'elsewhere the key names nothing');
    s.worker = { id: worker };
    const again = await h.run(['up', '-d'], { cwd: dir });
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual(Object.values(byService(await stackSessions('demo'))).map((x) => x.id).sort(), Object.values(s).map((x) => x.id).sort(), 'up again changes nothing');
    const down = await h.run(['down'], { cwd: dir });
    assert.equal(down.code, 0, down.stderr);
    assert.ok(down.stderr.indexOf('down: worker') < down.stderr.indexOf('down: api') && down.stderr.indexOf('down: api') < down.stderr.indexOf('down: db'), 'dependents first');
    assert.deepEqual(await stackSessions('demo'), []);
    assert.deepEqual(h.tmuxSessions(), [], 'no tmux session left running');
    assert.equal(await status('http://127.0.0.1:8618/health'), 0, 'the api is gone');
  });

  test('a failing dependency: its dependents are not started; one line names it (exit 1)', async () => {
    const r = await h.run(['up', '-d'], { cwd: copy('failing-dep') });
    assert.equal(r.code, 1);
    assert.deepEqual(amuxLines(r.stderr), ["amux: up: session 'migrate' of stack failing-dep: ended (failed, exit code 3), not completed; not started: worker"]);
    const s = byService(await stackSessions('failing-dep'));
    assert.deepEqual(Object.keys(s).sort(), ['db', 'migrate', 'worker'], 'ps --stack shows every session of the file (ADR 0039)');
    assert.deepEqual([s.worker.status, s.worker.startedAt, s.worker.reason], ['failed', null, 'dependency failed'], 'worker: recorded, never started');
    assert.equal(s.worker.error, 'dependency migrate ended (failed, exit code 3), not completed; never started');
    assert.match(await h.ok(['ps', '--stack', 'failing-dep']), /^\S+ +failing-dep-worker +failed +\d+s +dependency migrate ended \(failed, exit code 3\), not completed; never started +echo worker/m);
    const events = (await h.ok(['events', s.worker.id])).trim().split('\n').map((l) => JSON.parse(l));
    assert.deepEqual(events.map((e) => e.type === 'state_changed' ? `${e.data.from}->${e.data.to}` : e.type), ['session_created', 'pending->failed'], 'pending, then failed: never started');
    assert.ok(!h.tmuxSessions().includes(`amux-${s.worker.id}`), 'worker has no terminal: nothing of it ran');
    assert.equal((await h.run(['down', '-p', 'failing-dep'])).code, 0);
    assert.deepEqual(await stackSessions('failing-dep'), [], 'down removes the unstarted record too');
    const fg = await h.run(['up', '-p', 'failing-fg'], { cwd: join(scratch, 'failing-dep') });
    assert.equal(fg.code, 1, 'in the foreground too');
    assert.deepEqual(amuxLines(fg.stderr), ["amux: up: session 'migrate' of stack failing-fg: ended (failed, exit code 3), not completed; not started: worker"]);
    assert.match(fg.stdout, /^migrate \| migrating$/m, 'the failing output is shown');
    assert.deepEqual(await stackSessions('failing-fg'), [], 'and the foreground stack was brought down');
  });

  test('a readiness timeout: named with its probe; its dependents are not started', async () => {
    const r = await h.run(['up', '-d'], { cwd: copy('ready-timeout') });
    assert.equal(r.code, 1);
    assert.deepEqual(amuxLines(r.stderr), ["amux: up: session 'slow' of stack ready-timeout: not ready within 2s (ready: until output:never printed); not started: api, worker"]);
    const s = byService(await stackSessions('ready-timeout'));
    assert.deepEqual(Object.keys(s).sort(), ['api', 'slow', 'worker']);
    assert.equal(s.api.error, 'dependency slow not ready within 2s (ready: until output:never printed); never started');
    assert.equal(s.worker.error, 'dependency api not started; never started', 'a dependent of an unstarted one names it');
    await sleep(2500); // a restart policy's backoff is 1 s: api's on-failure must not start what never ran
    const later = byService(await stackSessions('ready-timeout'));
    assert.deepEqual([later.api.id, later.api.status, later.api.restarts], [s.api.id, 'failed', 0], 'on-failure does not restart a session that never started');
    const again = await h.run(['up', '-d'], { cwd: join(scratch, 'ready-timeout') });
    assert.equal(again.code, 1, 'up again: the unstarted ones are replaced (they ended failed), and left unstarted again');
    assert.notEqual(byService(await stackSessions('ready-timeout')).api.id, s.api.id);
    await h.ok(['down', '-p', 'ready-timeout']);
    assert.deepEqual(await stackSessions('ready-timeout'), []);
    assert.deepEqual(h.tmuxSessions(), []);
  });

  test('on-failure restarts: up waits through them for readiness; the restarts are counted', async () => {
    const r = await h.run(['up', '-d'], { cwd: copy('restarts') });
    assert.equal(r.code, 0, r.stderr);
    const s = byService(await stackSessions('restarts'));
    assert.equal(s.flaky.restarts, 2, 'two failures, two restarts');
    assert.ok(s.flaky.restartOf);
    assert.match(await h.ok(['logs', 'restarts-flaky']), /flaky: up after 2 failures/);
    assert.ok(s.after, 'its dependent started once it was ready');
    await h.ok(['down', '-p', 'restarts']);
  });

  test('a cycle, a schema error, an unknown dependency: exit 2, one line, nothing started', async () => {
    const cases: [string, string][] = [
      ['cycle', 'amux: amux.yaml:3: sessions.a.depends_on: dependency cycle: a -> b -> c -> a'],
      ['schema-error', "amux: amux.yaml:7: sessions.web.ready.timeout: invalid duration 'soon': use e.g. 1500ms, 90s, 5m, 2h, 1h30m, 1d, or a number of seconds"],
      ['unknown-dep', "amux: amux.yaml:2: sessions.api.depends_on: unknown session 'databse'"],
    ];
    for (const [name, line] of cases) {
      const r = await h.run(['up', '-d'], { cwd: copy(name) });
      assert.equal(r.code, 2, name);
      assert.equal(r.stderr, `${line}\n`);
      assert.deepEqual(await stackSessions(name), [], `${name}: nothing started`);
    }
    const none = await h.run(['up'], { cwd: scratch });
    assert.equal(none.code, 2);
    assert.match(none.stderr, /no amux\.yaml, amux\.yml, Procfile in/);
  });

  test('a Procfile in the foreground: every line prefixed by its session; Ctrl-C brings the stack down', async () => {
    const dir = copy('procfile');
    const child = spawn(process.execPath, [BIN, 'up'], { cwd: dir, env: { ...process.env, NO_COLOR: '1', AMUX_HOME: h.home }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    const deadline = Date.now() + 30_000;
    while (!(/^hello \| hello from the Procfile$/m.test(out) && /^clock \| tick$/m.test(out)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    assert.match(out, /^hello \| hello from the Procfile$/m, `${out}\n${err}`);
    assert.match(out, /^clock \| tick$/m);
    assert.equal((await stackSessions('procfile')).length, 2);
    child.kill('SIGINT');
    assert.equal(await exited, 130, err);
    assert.match(err, /up: stopping the stack/);
    assert.deepEqual(await stackSessions('procfile'), [], 'Ctrl-C stopped and removed the stack');
  });

  test('foreground up returns when every session has ended (exit 0: all completed, 1: one failed); logs --stack -f merges until they end', async () => {
    const dir = join(scratch, 'oneshots');
    cpSync(join(FIXTURES, 'procfile'), dir, { recursive: true });
    writeFileSync(join(dir, 'Procfile'), 'first: echo one; echo two\nsecond: sleep 0.5; echo three\n');
    const r = await h.run(['up'], { cwd: dir });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.stdout.split('\n').filter(Boolean).sort(), ['first  | one', 'first  | two', 'second | three']);
    const followed = await h.run(['logs', '--stack', 'oneshots', '-f']);
    assert.equal(followed.code, 0, followed.stderr);
    assert.deepEqual(followed.stdout.split('\n').filter(Boolean).sort(), ['first  | one', 'first  | two', 'second | three']);
    writeFileSync(join(dir, 'Procfile'), 'first: echo one; echo two\nsecond: echo bad; exit 5\n');
    const bad = await h.run(['up'], { cwd: dir });
    assert.equal(bad.code, 1, bad.stderr);
    assert.match(bad.stdout, /^second \| bad$/m);
    await h.ok(['down'], { cwd: dir });
  });

  test('up again reconciles: unchanged stay, changed are replaced, removed go; up SERVICE brings its dependencies', async () => {
    const dir = join(scratch, 'recon');
    const file = join(dir, 'amux.yaml');
    cpSync(join(FIXTURES, 'procfile'), dir, { recursive: true });
    rmSync(join(dir, 'Procfile'));
    writeFileSync(file, 'sessions:\n  a: { command: "sleep 300" }\n  b: { command: "sleep 300" }\n  c: { command: "sleep 300" }\n');
    assert.equal((await h.run(['up', '-d'], { cwd: dir })).code, 0);
    const before = byService(await stackSessions('recon'));
    writeFileSync(file, 'sessions:\n  a: { command: "sleep 300" }\n  b: { command: "sleep 301" }\n  d: { command: "sleep 300", depends_on: [a] }\n');
    const r = await h.run(['up', '-d'], { cwd: dir });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /up: c removed \(no longer in the file\)/);
    assert.match(r.stderr, /up: b replaced \(changed\)/);
    const now = byService(await stackSessions('recon'));
    assert.deepEqual(Object.keys(now).sort(), ['a', 'b', 'd']);
    assert.equal(now.a.id, before.a.id, 'unchanged: the same session');
    assert.notEqual(now.b.id, before.b.id, 'changed: a new session');
    assert.equal((await h.session(before.b.id)).removed, true);
    assert.equal((await h.session(before.c.id)).removed, true);
    await h.ok(['down', '-p', 'recon']);
    assert.equal((await h.run(['up', '-d', 'd'], { cwd: dir })).code, 0);
    assert.deepEqual(Object.keys(byService(await stackSessions('recon'))).sort(), ['a', 'd'], 'd and what it depends on');
    assert.equal((await h.run(['up', '-d', 'nope'], { cwd: dir })).code, 2);
    await h.ok(['down'], { cwd: dir });
    assert.deepEqual(await stackSessions('recon'), []);
  });
});

/** The HTTP status of a GET, 0 when nothing answers. */
function status(url: string): Promise<number> {
  return new Promise((resolve) => {
    get(url, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    }).on('error', () => resolve(0));
  });
}
