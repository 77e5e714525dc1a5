/**
 * What a sleeping thread waits on, from what the kernel shows of it (src/guides/statuses.md, ADR 0015):
 * its wait channel (`/proc/PID/task/TID/wchan`), its blocking system call
 * (`/proc/PID/task/TID/syscall`) and the descriptors that call waits on. Pure tables and
 * decoders; `process/foreground.ts` and `process/descriptors.ts` read the files.
 */

/**
 * What a wait channel says by itself; `descriptors`: a read/poll/select/epoll wait, whose
 * descriptors tell; `write`: a write blocked until the other end takes more (the terminal: tmux
 * drains slower than the program prints, ADR 0048), whose descriptor tells too.
 */
export type WaitKind = 'descriptors' | 'write' | 'timer' | 'accept' | 'network' | 'disk' | 'children' | 'pipe' | 'lock' | 'unknown';

/**
 * Known wait channels (kernels 5.x and 6.x). Names change between kernel versions; one missing
 * here is `unknown`, and the screen rule decides as it did before this table existed.
 */
const WAITS: Record<string, WaitKind> = {
  // Blocked in read/poll/select/epoll: the descriptors waited on tell what for.
  poll_schedule_timeout: 'descriptors', do_select: 'descriptors', core_sys_select: 'descriptors', do_sys_poll: 'descriptors',
  do_epoll_wait: 'descriptors', ep_poll: 'descriptors', wait_woken: 'descriptors', n_tty_read: 'descriptors', tty_read: 'descriptors',
  inotify_read: 'descriptors',
  // Sleeping on a timer: `sleep`, a retry loop, a build step that waits.
  hrtimer_nanosleep: 'timer', do_nanosleep: 'timer', common_nsleep: 'timer', clock_nanosleep: 'timer',
  // A server blocked in accept; the network: connect, receive.
  inet_csk_accept: 'accept', unix_wait_for_peer: 'network', inet_wait_for_connect: 'network', __inet_stream_connect: 'network', sk_wait_data: 'network',
  sk_stream_wait_memory: 'network', sk_stream_wait_connect: 'network', __skb_wait_for_more_packets: 'network',
  __skb_recv_datagram: 'network', tcp_recvmsg: 'network', tcp_recvmsg_locked: 'network', unix_stream_read_generic: 'network',
  unix_stream_data_wait: 'network', wait_for_connect: 'network',
  // The disk (state D says so too).
  io_schedule: 'disk', folio_wait_bit_common: 'disk', wait_on_page_bit_common: 'disk', jbd2_log_wait_commit: 'disk',
  // Waits on other processes and threads.
  do_wait: 'children', kernel_wait4: 'children', pipe_read: 'pipe', pipe_wait: 'pipe', pipe_write: 'pipe', wait_for_partner: 'pipe',
  anon_pipe_read: 'pipe', anon_pipe_write: 'pipe', fifo_open: 'pipe',
  futex_wait_queue: 'lock', futex_wait_queue_me: 'lock', futex_wait: 'lock', __futex_wait: 'lock', futex_do_wait: 'lock',
  // flock(2) and fcntl(2) record locks: a wait on another process holding the file (ADR 0048).
  locks_lock_inode_wait: 'lock', fcntl_setlk: 'lock', flock_lock_inode_wait: 'lock', __flock_lock_file: 'lock', posix_lock_inode_wait: 'lock',
  // A write to the terminal that tmux has not drained yet (`yes`, `find /`).
  n_tty_write: 'write', tty_write: 'write', file_tty_write: 'write',
};

/** The kind of a wait channel; compiler suffixes (`.constprop.0`, `.isra.0`) are ignored. */
export function waitKind(wchan: string | null): WaitKind {
  if (!wchan || wchan === '0') return 'unknown';
  return WAITS[wchan.replace(/\..*$/, '')] ?? 'unknown';
}

/**
 * A blocking system call decoded from `/proc/PID/syscall` (`NR arg1 … arg6 sp pc`):
 * - `read`: on descriptor `fd` (also recv, recvfrom, recvmsg: its socket is looked up as any
 *   descriptor, so that one to another process of the session is followed, ADR 0048); `write`: blocked writing to descriptor `fd` (ADR 0048);
 * - `epoll`: on the interest list of epoll descriptor `fd` (`/proc/PID/fdinfo/FD`);
 * - `poll`/`select`: on a set in the process's memory, at `addr` (`count` pollfds; `select`:
 *   fd_set bitmaps of `count` bits at `addrs`, read/write/except, 0 for none);
 * - `sleep`: nanosleep; `restart`: a call the kernel resumes after a stop (`restart_syscall`);
 * - `other`: a call whose kind says it all: wait4 (children), futex (lock), accept (a server),
 *   connect (the network), flock and fcntl (a file lock held by another process, ADR 0048).
 * `timed`: the wait has a time limit (a negative int or a NULL pointer: none).
 */
export type Syscall =
  | { call: 'read'; fd: number; timed: false }
  | { call: 'write'; fd: number }
  | { call: 'epoll'; fd: number; timed: boolean }
  | { call: 'poll'; addr: bigint; count: number; timed: boolean }
  | { call: 'select'; addrs: bigint[]; count: number; timed: boolean }
  | { call: 'sleep' }
  | { call: 'restart' }
  | { call: 'other'; wait: WaitKind }
  | { call: 'running' };

type Shape = 'read' | 'write' | 'epoll' | 'poll' | 'select' | 'sleep' | 'restart' | 'children' | 'lock' | 'accept' | 'network';
/** Blocking system calls by number, per architecture, and where their time limit is: an int (negative: none) or a pointer (NULL: none). */
const SYSCALLS: Record<string, Record<number, [Shape, { arg: number; type: 'int' | 'ptr' }?]>> = {
  x64: {
    0: ['read'], 19: ['read'], 1: ['write'], 20: ['write'], 18: ['write'], 296: ['write'], 7: ['poll', { arg: 3, type: 'int' }], 271: ['poll', { arg: 3, type: 'ptr' }],
    23: ['select', { arg: 5, type: 'ptr' }], 270: ['select', { arg: 5, type: 'ptr' }],
    232: ['epoll', { arg: 4, type: 'int' }], 281: ['epoll', { arg: 4, type: 'int' }], 441: ['epoll', { arg: 4, type: 'ptr' }],
    35: ['sleep'], 230: ['sleep'], 219: ['restart'], 61: ['children'], 247: ['children'], 202: ['lock'], 449: ['lock'],
    43: ['accept'], 288: ['accept'], 42: ['network'], 45: ['read'], 47: ['read'], 299: ['read'],
    72: ['lock'], 73: ['lock'],
  },
  arm64: {
    63: ['read'], 65: ['read'], 64: ['write'], 66: ['write'], 68: ['write'], 70: ['write'], 73: ['poll', { arg: 3, type: 'ptr' }], 72: ['select', { arg: 5, type: 'ptr' }],
    22: ['epoll', { arg: 4, type: 'int' }], 441: ['epoll', { arg: 4, type: 'ptr' }], 101: ['sleep'], 115: ['sleep'], 128: ['restart'],
    260: ['children'], 95: ['children'], 98: ['lock'], 449: ['lock'], 202: ['accept'], 242: ['accept'], 203: ['network'],
    207: ['read'], 212: ['read'], 243: ['read'], 25: ['lock'], 32: ['lock'],
  },
};

/**
 * The blocking call in a `/proc/PID/syscall` line; `running` when the thread runs (it woke after
 * its `stat` was read: not a wait at all); null when unreadable or outside the table.
 */
export function decodeSyscall(arch: string, line: string | null): Syscall | null {
  if (!line) return null;
  const f = line.trim().split(' ');
  if (f[0] === 'running') return { call: 'running' };
  const known = SYSCALLS[arch]?.[Number(f[0])];
  if (!known || f.length < 7 || !f.slice(1, 7).every((a) => a.startsWith('0x'))) return null;
  const arg = (i: number) => BigInt(f[i]!);
  const [shape, limit] = known;
  const timed = limit ? (limit.type === 'ptr' ? arg(limit.arg) !== 0n : (arg(limit.arg) & 0x80000000n) === 0n) : false;
  switch (shape) {
    case 'read': return { call: 'read', fd: Number(arg(1) & 0xffffffffn), timed: false };
    case 'write': return { call: 'write', fd: Number(arg(1) & 0xffffffffn) };
    case 'epoll': return { call: 'epoll', fd: Number(arg(1) & 0xffffffffn), timed };
    case 'poll': return { call: 'poll', addr: arg(1), count: Number(arg(2) & 0xffffn), timed };
    case 'select': return { call: 'select', addrs: [arg(2), arg(3), arg(4)], count: Number(arg(1) & 0xffffn), timed };
    case 'sleep': case 'restart': return { call: shape };
    default: return { call: 'other', wait: shape };
  }
}

/** The descriptors of a poll set: a `struct pollfd` (int fd, short events, short revents) is 8 bytes; negative fds are skipped. */
export function pollFds(buf: Buffer): number[] {
  const out: number[] = [];
  for (let i = 0; i + 8 <= buf.length; i += 8) {
    const fd = buf.readInt32LE(i);
    if (fd >= 0) out.push(fd);
  }
  return out;
}

/** The descriptors set in a select bitmap (`fd_set`, little-endian bits) of `count` bits. */
export function selectFds(buf: Buffer, count: number): number[] {
  const out: number[] = [];
  for (let fd = 0; fd < count && fd >> 3 < buf.length; fd++) if (buf[fd >> 3]! & (1 << (fd & 7))) out.push(fd);
  return out;
}

/** The descriptors of an epoll interest list, from its `/proc/PID/fdinfo/EPFD` (`tfd:` lines). */
export function epollFds(fdinfo: string): number[] {
  return [...fdinfo.matchAll(/^tfd:\s+(\d+)/gm)].map((m) => Number(m[1]));
}

/**
 * What a descriptor is, for a person wondering what a program waits for: the session's terminal,
 * an inotify watch (a follower such as `tail -f`), a listening socket (a server), another socket
 * (a client waiting for an answer), a pipe (anonymous, or a named FIFO), a timer, `peer` (a
 * socket, or a terminal of its own, whose other end is another process of the session: that
 * process is judged instead, ADR 0048), or `other` (eventfds, signalfds, files, a socket to the
 * same process such as asyncio's self-pipe: a program's own plumbing, which says nothing).
 */
export type Target = 'terminal' | 'inotify' | 'listening' | 'socket' | 'pipe' | 'timer' | 'peer' | 'other';

/** What a descriptor's link is before sockets are looked up: `fifo` when a path names a FIFO. */
export interface LinkFacts {
  /** Whether a socket's inode listens. */
  listening?: (inode: string) => boolean;
  /** Whether a terminal link is the session's own terminal (a tool on a pty of its own: no, ADR 0048). */
  ours?: (link: string) => boolean;
  /** Whether a path (not under /dev) is a named pipe. */
  fifo?: (link: string) => boolean;
  /** A connected socket's other end: `self` (the same process), `session` (another of the session), else outside. */
  peer?: (inode: string) => 'self' | 'session' | 'outside';
}


/** The kind of a descriptor from its `/proc/PID/fd/N` link, with what the reader knows of it (`facts`). */
export function targetOf(link: string, facts: LinkFacts = {}): Target {
  if (link === '/dev/tty' || link.startsWith('/dev/pts/') || /^\/dev\/tty[0-9S]/.test(link) || link === '/dev/console') {
    return !facts.ours || facts.ours(link) ? 'terminal' : 'peer';
  }
  if (link === 'anon_inode:inotify') return 'inotify';
  if (link === 'anon_inode:[timerfd]') return 'timer';
  if (link.startsWith('pipe:')) return 'pipe';
  const socket = /^socket:\[(\d+)\]$/.exec(link);
  if (socket) {
    if (facts.listening?.(socket[1]!)) return 'listening';
    const peer = facts.peer?.(socket[1]!) ?? 'outside';
    return peer === 'self' ? 'other' : peer === 'session' ? 'peer' : 'socket';
  }
  if (link.startsWith('/') && !link.startsWith('/dev/') && facts.fifo?.(link)) return 'pipe';
  return 'other';
}

/** Socket inodes that listen, from `/proc/net/{tcp,tcp6}` (state 0A) and `/proc/net/unix` (flag __SO_ACCEPTCON). */
export function listeningInodes(tcp: string, unix: string): Set<string> {
  const out = new Set<string>();
  for (const line of tcp.split('\n')) {
    const f = line.trim().split(/\s+/);
    if (f[3] === '0A' && f[9]) out.add(f[9]);
  }
  for (const line of unix.split('\n')) {
    const f = line.trim().split(/\s+/);
    if (f[3] === '00010000' && f[6]) out.add(f[6]);
  }
  return out;
}
