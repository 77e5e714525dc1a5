import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { decodeSyscall, epollFds, listeningInodes, pollFds, selectFds, targetOf, waitKind } from '../../src/core/waits.js';

describe('waitKind', () => {
  test('the wait channels seen on kernel 6.x, compiler suffixes ignored', () => {
    assert.equal(waitKind('poll_schedule_timeout.constprop.0'), 'descriptors'); // bash, python3, vi, tail -f
    assert.equal(waitKind('do_epoll_wait'), 'descriptors'); // node
    assert.equal(waitKind('wait_woken'), 'descriptors'); // less, cat, read -p
    assert.equal(waitKind('hrtimer_nanosleep'), 'timer'); // sleep, watch
    assert.equal(waitKind('inet_csk_accept'), 'accept'); // a server blocked in accept()
    assert.equal(waitKind('sk_wait_data'), 'network');
    assert.equal(waitKind('do_wait'), 'children'); // make, a shell waiting for its job
    assert.equal(waitKind('pipe_read'), 'pipe');
    assert.equal(waitKind('futex_wait_queue'), 'lock');
    assert.equal(waitKind('futex_do_wait'), 'lock'); // 6.18: python's join(), node's worker threads
  });

  test('unreadable, none, or unknown to this table → unknown', () => {
    assert.equal(waitKind(null), 'unknown');
    assert.equal(waitKind('0'), 'unknown');
    assert.equal(waitKind('do_syscall_64'), 'unknown'); // a resumed call: the system call tells
  });
});

describe('decodeSyscall', () => {
  test('x64: read names its descriptor; epoll its epoll descriptor; poll and select their sets in memory', () => {
    assert.deepEqual(decodeSyscall('x64', '0 0x3 0x7ffde07c69c7 0x1 0x24 0x561e 0x7ffd 0x7f00'), { call: 'read', fd: 3, timed: false }); // less
    // cat printing faster than the terminal takes it: a write, not a wait for input (issue 34).
    assert.deepEqual(decodeSyscall('x64', '1 0x1 0x7f3c1a2b2000 0x20000 0x0 0x0 0x7ffd 0x7f00'), { call: 'write', fd: 1 });
    assert.deepEqual(decodeSyscall('arm64', '64 0x1 0x7f3c1a2b2000 0x20000 0x0 0x0 0x7ffd 0x7f00'), { call: 'write', fd: 1 });
    assert.deepEqual(decodeSyscall('x64', '281 0xd 0x7ffd65d7e0c0 0x400 0x1fa2 0x0 0x8 0x7ffd 0x7f00'), { call: 'epoll', fd: 13, timed: true }); // node REPL: 8 s
    assert.deepEqual(decodeSyscall('x64', '7 0x7ffc4cb232b0 0x1 0xffffffff 0x7f92 0x7f92 0x7ffd 0x7f00'), { call: 'poll', addr: 0x7ffc4cb232b0n, count: 1, timed: false }); // tail -f: -1
    assert.deepEqual(decodeSyscall('x64', '270 0x1 0x55d7e8aaa600 0x55d7e8aaa580 0x55d7e8aaa500 0x0 0x0 0x7ffd 0x7f00'), {
      call: 'select', addrs: [0x55d7e8aaa600n, 0x55d7e8aaa580n, 0x55d7e8aaa500n], count: 1, timed: false,
    }); // vim, no timeout pointer
    assert.equal((decodeSyscall('x64', '270 0x1 0x7ffd 0x0 0x0 0x7fff5d7aa410 0x0 0x7ffd 0x7f00') as { timed: boolean }).timed, true); // read -t 30
    assert.equal((decodeSyscall('x64', '281 0xd 0x7fff 0x400 0xffffffffffffffff 0x0 0x8 0x7fff 0x7efc') as { timed: boolean }).timed, false);
  });

  test('x64: nanosleep, and restart_syscall (a program stopped and continued)', () => {
    assert.deepEqual(decodeSyscall('x64', '230 0x0 0x0 0x7ffd 0x7ffd 0x0 0x0 0x7ffd 0x7f00'), { call: 'sleep' });
    assert.deepEqual(decodeSyscall('x64', '219 0x0 0x0 0x7ffd895d9650 0x7ffd895d9690 0x0 0x0 0x7ffd 0x7f00'), { call: 'restart' });
    // A thread that woke after its stat was read: it runs, it waits on nothing (yes beside tmux).
    assert.deepEqual(decodeSyscall('x64', 'running'), { call: 'running' });
    assert.deepEqual(decodeSyscall('x64', 'running\n'), { call: 'running' });
  });

  test('calls whose kind says it all: wait4, futex, accept, connect, recvfrom', () => {
    assert.deepEqual(decodeSyscall('x64', '61 0xffffffff 0x7ffd 0x0 0x0 0x0 0x0 0x7ffd 0x7f00'), { call: 'other', wait: 'children' });
    assert.deepEqual(decodeSyscall('x64', '202 0x7f1154000b70 0x189 0x0 0x0 0x0 0xffffffff 0x7ffe 0x7f00'), { call: 'other', wait: 'lock' }); // join()
    assert.deepEqual(decodeSyscall('x64', '43 0x3 0x0 0x0 0x0 0x0 0x0 0x7ffd 0x7f00'), { call: 'other', wait: 'accept' });
    // recvfrom: its socket is looked up as a read's descriptor is (a peer of the session is followed, ADR 0048)
    assert.deepEqual(decodeSyscall('x64', '45 0x3 0x7ffd 0x1000 0x0 0x0 0x0 0x7ffd 0x7f00'), { call: 'read', fd: 3, timed: false });
  });

  test('arm64 numbers', () => {
    assert.deepEqual(decodeSyscall('arm64', '63 0x0 0x7ffd 0x1 0x0 0x0 0x0 0x7ffd 0x7f00'), { call: 'read', fd: 0, timed: false });
    assert.deepEqual(decodeSyscall('arm64', '22 0x4 0x7ffd 0x10 0xffffffff 0x0 0x8 0x7ffd 0x7f00'), { call: 'epoll', fd: 4, timed: false });
    assert.deepEqual(decodeSyscall('arm64', '128 0x0 0x0 0x0 0x0 0x0 0x0 0x7ffd 0x7f00'), { call: 'restart' });
  });

  test('null: not in a call, another call, another architecture, unreadable', () => {
    assert.equal(decodeSyscall('x64', '-1 0x7ffd 0x7f00'), null);
    assert.equal(decodeSyscall('x64', '128 0x0 0x0 0x0 0x0 0x0 0x0 0x7ffd 0x7f00'), null); // rt_sigtimedwait (vim's timer thread)
    assert.equal(decodeSyscall('riscv64', '63 0x0 0x0 0x0 0x0 0x0 0x0 0x0 0x0'), null);
    assert.equal(decodeSyscall('x64', null), null);
  });
});

describe('descriptor sets', () => {
  test('a poll set: 8-byte pollfds, negative descriptors skipped', () => {
    const b = Buffer.alloc(24);
    b.writeInt32LE(4, 0);
    b.writeInt32LE(-1, 8);
    b.writeInt32LE(0, 16);
    assert.deepEqual(pollFds(b), [4, 0]);
  });

  test('a select bitmap of count bits', () => {
    const b = Buffer.alloc(8);
    b[0] = 0b1001; // fds 0 and 3
    b[1] = 0b1; // fd 8
    assert.deepEqual(selectFds(b, 9), [0, 3, 8]);
    assert.deepEqual(selectFds(b, 4), [0, 3]);
  });

  test('an epoll interest list from fdinfo', () => {
    const info = 'pos:\t0\nflags:\t02000002\nmnt_id:\t15\nino:\t1057\ntfd:       20 events:       19 data:               14  pos:0 ino:3 sdev:18\ntfd:       14 events:       19 data: 7 pos:0 ino:3fe2 sdev:e\n';
    assert.deepEqual(epollFds(info), [20, 14]);
  });
});

describe('targetOf', () => {
  test('the terminal, inotify, timers, pipes, sockets (listening or not), plumbing', () => {
    assert.equal(targetOf('/dev/pts/5'), 'terminal');
    assert.equal(targetOf('/dev/tty'), 'terminal'); // ssh's password prompt
    assert.equal(targetOf('anon_inode:inotify'), 'inotify');
    assert.equal(targetOf('anon_inode:[timerfd]'), 'timer');
    assert.equal(targetOf('pipe:[16474]'), 'pipe');
    assert.equal(targetOf('socket:[16624]'), 'socket');
    assert.equal(targetOf('socket:[16624]', { listening: (i) => i === '16624' }), 'listening');
    assert.equal(targetOf('anon_inode:[eventfd]'), 'other');
    assert.equal(targetOf('/tmp/some/file'), 'other');
  });

  test('listening inodes from /proc/net/tcp (state 0A) and /proc/net/unix (__SO_ACCEPTCON)', () => {
    const tcp = [
      '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode',
      '   0: 0100007F:4965 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 16624 1 0000 100 0 0 10 0',
      '   1: 0100007F:D1E2 0100007F:4967 01 00000000:00000000 00:00000000 00000000     0        0 16700 1 0000 20 4 30 10 -1',
    ].join('\n');
    const unix = [
      'Num       RefCount Protocol Flags    Type St Inode Path',
      '0000000000000000: 00000002 00000000 00010000 0001 01 16494 /tmp/srv.sock',
      '0000000000000000: 00000003 00000000 00000000 0001 03 16495',
    ].join('\n');
    assert.deepEqual([...listeningInodes(tcp, unix)].sort(), ['16494', '16624']);
  });
});
