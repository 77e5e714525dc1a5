import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, test } from 'node:test';
import { readBody, send } from '../../src/client/http.js';
import { parseHostUrl, shellWord, sshFailure, sshOptions } from '../../src/client/ssh.js';
import { takeTargetOptions, targetUrl } from '../../src/cli/target.js';

describe('parseHostUrl', () => {
  test('user, host and port', () => {
    assert.deepEqual(parseHostUrl('ssh://ann@box.lan:2222'), { url: 'ssh://ann@box.lan:2222', user: 'ann', host: 'box.lan', port: 2222 });
    assert.deepEqual(parseHostUrl('ssh://box'), { url: 'ssh://box', host: 'box' });
    assert.deepEqual(parseHostUrl('ssh://[::1]:22'), { url: 'ssh://[::1]:22', host: '::1', port: 22 });
  });

  test('anything else is a usage error naming the form', () => {
    for (const bad of ['box', 'ann@box', 'http://box', 'ssh://', 'ssh://box/x', 'ssh://box?x=1', 'ssh://a:pw@box', 'ssh://-oProxyCommand=sh', 'ssh://-x@box', 'ssh://box:0', 'ssh://box:00', 'ssh://%zz@box', 'ssh://a%E0%A4%A@box']) {
      assert.throws(() => parseHostUrl(bad), (e: any) => e.code === 'usage' && e.exitCode === 2 && /use ssh:\/\/\[user@\]host\[:port\]$/.test(e.message), bad);
    }
  });
});

describe('shellWord', () => {
  test('plain words stay, others are single-quoted', () => {
    assert.equal(shellWord('/opt/amux/bin/amux'), '/opt/amux/bin/amux');
    assert.equal(shellWord('/a b/amux'), `'/a b/amux'`);
    assert.equal(shellWord(`$(rm -rf ~)'x`), `'$(rm -rf ~)'\\''x'`);
  });
});

describe('sshOptions', () => {
  test('BatchMode without a terminal, a shared connection in AMUX_HOME/ssh, port and user', () => {
    const args = sshOptions(parseHostUrl('ssh://ann@box:2222'), '/tmp', { tty: false }, { AMUX_CONNECT_TIMEOUT: '3s' });
    const joined = args.join(' ');
    if (!process.stdin.isTTY) assert.match(joined, /-o BatchMode=yes/);
    assert.match(joined, /-o ConnectTimeout=3 /);
    assert.match(joined, /-o ControlMaster=auto -o ControlPath=\/tmp\/ssh\/%C -o ControlPersist=60s/);
    assert.match(joined, /-l ann -p 2222 -T$/);
  });

  test('a home too long for the control socket goes without one', () => {
    const args = sshOptions(parseHostUrl('ssh://box'), `/tmp/${'x'.repeat(80)}`, { tty: true }, {});
    assert.ok(!args.some((a) => a.startsWith('ControlPath')));
    assert.equal(args.at(-1), '-t');
  });
});

describe('sshFailure', () => {
  const h = parseHostUrl('ssh://box:2222');
  const cases: [number, string, string, RegExp][] = [
    [255, 'ssh: connect to host box port 2222: Connection refused\r\n', 'host_unreachable', /^ssh:\/\/box:2222: cannot connect \(ssh: connect to host box port 2222: Connection refused\)/],
    [255, 'ssh: Could not resolve hostname box: Name or service not known\r\n', 'host_unreachable', /cannot connect/],
    [255, 'ann@box: Permission denied (publickey).\r\n', 'host_auth_failed', /authentication failed \(ann@box: Permission denied \(publickey\)\.\)/],
    [255, 'Host key verification failed.\r\n', 'host_auth_failed', /host key verification failed/],
    [127, 'bash: line 1: amux: command not found\n', 'remote_amux_missing', /amux was not found there .*AMUX_REMOTE_PATH/],
    [2, "amux: unknown daemon action 'dial-stdio': use start, stop, status or run\n", 'api_version_mismatch', /cannot serve remote clients/],
    [3, 'amux: cannot create AMUX_HOME /x: EACCES; set AMUX_HOME to a writable directory\n', 'daemon_unreachable', /^ssh:\/\/box:2222: cannot create AMUX_HOME/],
  ];
  for (const [code, stderr, want, re] of cases) {
    test(`${code} ${stderr.trim()}`, () => {
      const e = sshFailure(h, code, stderr);
      assert.equal(e.code, want);
      assert.equal(e.exitCode, 3);
      assert.match(e.message, re);
      assert.ok(!e.message.includes('\n'));
    });
  }
});

describe('send over any Dialer', () => {
  test('a Duplex that answers', async () => {
    const toDaemon = new PassThrough();
    const fromDaemon = new PassThrough();
    const { Duplex } = await import('node:stream');
    const duplex = Duplex.from({ readable: fromDaemon, writable: toDaemon });
    let request = '';
    toDaemon.on('data', (d: Buffer) => {
      request += d.toString();
      if (request.includes('\r\n\r\n')) fromDaemon.end('HTTP/1.1 200 OK\r\nContent-Length: 2\r\namux-api: 1\r\n\r\nok');
    });
    const res = await send({ open: () => duplex }, 'GET', '/v1/health');
    assert.equal(res.status, 200);
    assert.equal(res.headers['amux-api'], '1');
    assert.equal((await readBody(res)).toString(), 'ok');
    assert.match(request, /^GET \/v1\/health HTTP\/1\.1\r\n/);
  });
});

describe('global --host / --context', () => {
  test('taken off before the command; AMUX_HOST otherwise', () => {
    assert.deepEqual(takeTargetOptions(['--host', 'ssh://box', 'ps', '--host', 'x']), ['ps', '--host', 'x']);
    assert.equal(targetUrl({ AMUX_HOST: 'ssh://other' }), 'ssh://box');
    assert.deepEqual(takeTargetOptions(['--no-color', '--host=ssh://b', 'wait', 'x']), ['--no-color', 'wait', 'x']);
    assert.equal(targetUrl({}), 'ssh://b');
    assert.deepEqual(takeTargetOptions(['ps']), ['ps']);
    assert.equal(targetUrl({ AMUX_HOST: 'ssh://other' }), 'ssh://other');
    assert.equal(targetUrl({}), null);
    assert.deepEqual(takeTargetOptions(['--context', 'local', 'ps']), ['ps']);
    assert.equal(targetUrl({ AMUX_HOST: 'ssh://other' }), null);
  });

  test('a missing value, or both, is a usage error', () => {
    for (const args of [['--host'], ['--host', '--json'], ['--host='], ['--host', 'ssh://a', '--context', 'b', 'ps']]) {
      assert.throws(() => takeTargetOptions(args), (e: any) => e.code === 'usage', args.join(' '));
    }
  });
});

describe('dial-stdio is a fast path', () => {
  test('only the plain form', async () => {
    const { parseFast } = await import('../../src/cli/fast-path.js');
    assert.deepEqual(parseFast(['daemon', 'dial-stdio']), { command: 'dial-stdio' });
    assert.equal(parseFast(['daemon', 'dial-stdio', '--json']), null);
    assert.equal(parseFast(['daemon', 'status']), null);
  });
});

describe('fleet ps and HOST:ID parsing', () => {
  test('the fast path takes --context and --all-contexts as commander does', async () => {
    const { parseFastPs } = await import('../../src/cli/fast-path.js');
    const { buildProgram } = await import('../../src/cli/program.js');
    for (const args of [['ps', '--context', 'a,b'], ['ps', '--context=a', '-q'], ['ps', '--all-contexts', '--json']]) {
      const program = buildProgram(() => undefined);
      let seen: any;
      program.commands.find((c) => c.name() === 'ps')!.action((o: any) => {
        seen = o;
      });
      await program.parseAsync(['node', 'amux', ...args]);
      const fast = parseFastPs(args)!;
      assert.equal(fast.context, seen.context, args.join(' '));
      assert.equal(fast.allContexts === true, seen.allContexts === true, args.join(' '));
    }
  });

  test('splitRef', async () => {
    const { splitRef } = await import('../../src/cli/refs.js');
    assert.deepEqual(splitRef('3f9a01bc'), { host: null, ref: '3f9a01bc' });
    assert.deepEqual(splitRef('gpu:3f9a01bc'), { host: 'gpu', ref: '3f9a01bc' });
    assert.deepEqual(splitRef('gpu:job-3f9a01bc-2'), { host: 'gpu', ref: 'job-3f9a01bc-2' });
    for (const bad of [':x', 'gpu:', 'a b:x']) assert.throws(() => splitRef(bad), (e: any) => e.code === 'usage', bad);
  });
});
