import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, existsSync, openSync, readdirSync, readlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { amuxHome, BIN, sleep, type AmuxHome } from '../helpers/amux.js';

interface Ran {
  code: number | null;
  stdout: Buffer;
  stderr: string;
}

/**
 * Runs `amux ARGS…` with a chosen stdin: bytes (written, then closed), an open file descriptor
 * (a file, /dev/zero), or 'open': a pipe that is written `first` and never closed while amux runs.
 */
function runStdin(h: AmuxHome, args: readonly string[], stdin: Buffer | number | { open: Buffer }): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', AMUX_HOME: h.home };
    delete env.NODE_EXTRA_CA_CERTS;
    const child = spawn(process.execPath, [BIN, ...args], { env, stdio: [typeof stdin === 'number' ? stdin : 'pipe', 'pipe', 'pipe'] });
    child.stdin?.on('error', () => undefined); // amux may stop reading its stdin (the job ended): EPIPE is fine
    const out: Buffer[] = [];
    let err = '';
    child.stdout!.on('data', (d: Buffer) => out.push(d));
    child.stderr!.on('data', (d: Buffer) => (err += d));
    // Bounds a hang (the test then fails on the code); never an assertion on time.
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: Buffer.concat(out), stderr: err });
    });
    if (Buffer.isBuffer(stdin)) child.stdin!.end(stdin);
    else if (typeof stdin === 'object') child.stdin!.write(stdin.open);
  });
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** One API request with a raw body written in pieces, and a choice to cut it (`destroyAfter`). */
function apiStdin(h: AmuxHome, path: string, pieces: Buffer[], destroyAfter = false): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = request({ socketPath: join(h.home, 'amux.sock'), method: 'POST', path }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString() || 'null') }));
    });
    if (destroyAfter) {
      // Cut before the body's end: the answer never comes.
      req.on('error', () => undefined);
      req.on('close', () => resolve({ status: 0, body: null }));
      setTimeout(() => req.destroy(), 300);
    } else req.on('error', reject);
    for (const p of pieces) req.write(p);
    if (!destroyAfter) req.end();
  });
}

describe('amux exec -i: stdin passed on to a foreground job, EOF included', () => {
  const h = amuxHome({ after });
  let sh = '';

  test('a shell session to run the jobs in', async () => {
    sh = await h.ok(['run', '-n', 'stdin']);
    await h.until(sh, (x) => x.status === 'idle');
  });

  test("echo hi | amux exec -i ID -- 'read x; echo $x' prints hi", async () => {
    const r = await runStdin(h, ['exec', '-i', sh, '--', 'read x; echo $x'], Buffer.from('hi\n'));
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.toString(), 'hi\n');
    assert.equal(r.stderr, '');
  });

  test("printf 'a\\nb\\n' | amux exec -i ID -- wc -l prints 2 (EOF ends wc); -i after the ref too", async () => {
    const r = await runStdin(h, ['exec', sh, '-i', '--', 'wc', '-l'], Buffer.from('a\nb\n'));
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.toString().trim(), '2');
  });

  test('5 MB of random bytes arrive byte-exact: through a pipe, and from a file, to a job that reads late', async () => {
    const data = randomBytes(5 * 1024 * 1024);
    const counted = await runStdin(h, ['exec', '-i', sh, '--', 'wc -c'], data);
    assert.equal(counted.code, 0, counted.stderr);
    assert.equal(counted.stdout.toString().trim(), String(data.length));
    const hashed = await runStdin(h, ['exec', '-i', sh, '--', 'sleep 1; sha256sum'], data);
    assert.equal(hashed.code, 0, hashed.stderr);
    assert.equal(hashed.stdout.toString().split(' ')[0], sha256(data));
    // `amux exec -i ID -- cat < bigfile`: stdin a file, and what comes back is the same bytes.
    const file = join(h.home, 'big.bin');
    writeFileSync(file, data);
    const fd = openSync(file, 'r');
    try {
      const echoed = await runStdin(h, ['exec', '-i', sh, '--', 'cat'], fd);
      assert.equal(echoed.code, 0, echoed.stderr);
      assert.equal(echoed.stdout.length, data.length);
      assert.ok(echoed.stdout.equals(data), 'byte-exact');
    } finally {
      closeSync(fd);
    }
  });

  test('a job that does not read stdin ends with its code, and amux exits although its stdin stays open', async () => {
    const t = await runStdin(h, ['exec', '-i', sh, '--', 'true'], { open: Buffer.from('never read\n') });
    assert.equal(t.code, 0, t.stderr);
    const seven = await runStdin(h, ['exec', '-i', sh, '--', '(exit 7)'], { open: Buffer.alloc(0) });
    assert.equal(seven.code, 7, seven.stderr);
    const zero = openSync('/dev/zero', 'r');
    try {
      const z = await runStdin(h, ['exec', '-i', sh, '--', 'echo done'], zero);
      assert.equal(z.code, 0, z.stderr);
      assert.equal(z.stdout.toString(), 'done\n');
    } finally {
      closeSync(zero);
    }
  });

  test('a job that reads one line while more is sent ends fine (head -1)', async () => {
    const lines = Buffer.from(Array.from({ length: 200_000 }, (_, i) => `${i + 1}\n`).join(''));
    const r = await runStdin(h, ['exec', '-i', sh, '--', 'head -1'], lines);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.toString(), '1\n');
    const open = await runStdin(h, ['exec', '-i', sh, '--', 'head -1'], { open: lines });
    assert.equal(open.code, 0, open.stderr);
    assert.equal(open.stdout.toString(), '1\n');
    assert.equal(open.stderr, '');
  });

  test("the caller's stdin closed before the job reads: the job reads EOF", async () => {
    const r = await runStdin(h, ['exec', '-i', sh, '--', 'sleep 0.5; cat; read -r x || echo got-eof'], Buffer.alloc(0));
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.toString(), 'got-eof\n');
  });

  test('exit codes propagate, and the job runs in the main shell: what it sets stays', async () => {
    const r = await runStdin(h, ['exec', '-i', sh, '--', 'read -r v; export FROM_STDIN="$v"; (exit 3)'], Buffer.from('kept value\n'));
    assert.equal(r.code, 3, r.stderr);
    assert.equal((await h.run(['exec', sh, '--', 'echo "$FROM_STDIN"'])).stdout, 'kept value\n');
  });

  test('afterwards, jobs without -i read the terminal again; no FIFO is left, in the stream dir or the daemon', async () => {
    const r = await h.run(['exec', sh, '--', 'test -t 0 && echo on-the-terminal']);
    assert.equal(r.stdout, 'on-the-terminal\n');
    for (const seq of readdirSync(join(h.home, 'sessions', sh, 'jobs')).filter((f) => /^\d+$/.test(f))) {
      assert.equal(existsSync(join(h.home, 'sessions', sh, 'jobs', seq, 'stdin')), false, `job ${seq}`);
    }
    const fds = join('/proc', String(h.daemonPid()), 'fd');
    const held = readdirSync(fds).map((fd) => {
      try {
        return readlinkSync(join(fds, fd));
      } catch {
        return '';
      }
    }).filter((l) => l.includes('/jobs/'));
    assert.deepEqual(held, [], 'the daemon holds no job FIFO');
  });

  test('exit 7 in an -i job ends the shell as in bash, and amux exits 7', async () => {
    const one = await h.ok(['run']);
    await h.until(one, (x) => x.status === 'idle');
    const r = await runStdin(h, ['exec', '-i', one, '--', 'read -r x; echo "$x"; exit 7'], { open: Buffer.from('last words\n') });
    assert.equal(r.code, 7, r.stderr);
    assert.equal(r.stdout.toString(), 'last words\n');
  });

  test('-i with -b or --tty is a usage error: exit 2, one line', async () => {
    for (const args of [['exec', '-i', '-b', sh, '--', 'cat'], ['exec', sh, '-b', '-i', '--', 'cat'], ['exec', '-i', sh, '--tty', '--', 'cat']]) {
      const r = await h.run(args);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, /^amux: -i is for (foreground|captured) jobs.*drop -i or (-b|--tty)\n$/);
    }
  });

  test('Ctrl-C is passed on to a job that reads stdin', async () => {
    const child = spawn(process.execPath, [BIN, 'exec', '-i', sh, '--', 'cat; echo not-reached'], {
      env: { ...process.env, AMUX_HOME: h.home, NO_COLOR: '1' }, stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d;
      if (out.includes('ping')) child.kill('SIGINT');
    });
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    child.stdin.write('ping\n');
    assert.equal(await exited, 130);
    assert.equal(out, 'ping\n');
  });
});

describe('the API: POST /v1/jobs/{id}/stdin', () => {
  const h = amuxHome({ after });
  let sh = '';

  test('a job started with stdin: true reads the body of the stdin request, to its end', async () => {
    sh = await h.ok(['run']);
    await h.until(sh, (x) => x.status === 'idle');
    const made = await h.api('POST', `/v1/sessions/${sh}/jobs`, { command: 'sha256sum', stdin: true });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const data = randomBytes(300_000);
    const answer = await apiStdin(h, `/v1/jobs/${made.body.id}/stdin`, [data.subarray(0, 1000), data.subarray(1000)]);
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.body, { bytes: data.length, eof: true });
    assert.equal((await h.run(['wait', made.body.id])).code, 0);
    assert.equal((await h.run(['logs', made.body.id, '--stdout'])).stdout.split(' ')[0], sha256(data));
    const again = await apiStdin(h, `/v1/jobs/${made.body.id}/stdin`, [Buffer.from('x')]);
    assert.equal(again.status, 409);
    assert.equal(again.body.error.code, 'invalid_state');
  });

  test('a client that goes away mid-body ends the stdin (EOF); a second writer is refused', async () => {
    const made = await h.api('POST', `/v1/sessions/${sh}/jobs`, { command: 'wc -c', stdin: true });
    assert.equal(made.status, 201);
    const path = `/v1/jobs/${made.body.id}/stdin`;
    const first = apiStdin(h, path, [Buffer.alloc(1234, 'x')], true);
    await sleep(100);
    const second = await apiStdin(h, path, [Buffer.from('y')]);
    assert.equal(second.status, 409);
    assert.match(second.body.error.message, /already being written/);
    await first;
    assert.equal((await h.run(['wait', made.body.id])).code, 0);
    assert.equal((await h.run(['logs', made.body.id, '--stdout'])).stdout.trim(), '1234');
  });

  test('refusals: a job without stdin, stdin with background or tty', async () => {
    const plain = await h.api('POST', `/v1/sessions/${sh}/jobs`, { command: 'true' });
    await h.ok(['wait', plain.body.id]);
    const ended = await apiStdin(h, `/v1/jobs/${plain.body.id}/stdin`, [Buffer.from('x')]);
    assert.equal(ended.status, 409);
    assert.match(ended.body.error.message, /has ended/);
    const [bg] = (await h.ok(['exec', '-b', sh, '--', 'sleep 300'])).split(' ');
    const running = await apiStdin(h, `/v1/jobs/${bg}/stdin`, [Buffer.from('x')]);
    assert.equal(running.status, 409);
    assert.match(running.body.error.message, /no open stdin/);
    await h.ok(['kill', bg!]);
    const missing = await apiStdin(h, `/v1/jobs/job-${sh}-9999/stdin`, [Buffer.from('x')]);
    assert.equal(missing.status, 404);
    for (const extra of [{ background: true }, { tty: true }]) {
      const r = await h.api('POST', `/v1/sessions/${sh}/jobs`, { command: 'cat', stdin: true, ...extra });
      assert.equal(r.status, 400, JSON.stringify(r.body));
      assert.equal(r.body.error.code, 'invalid_argument');
      assert.match(r.body.error.message, /stdin/);
    }
  });
});
