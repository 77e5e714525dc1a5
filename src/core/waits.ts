/**
 * What a sleeping thread waits on, from what the kernel shows of it (README "Statuses", ADR 0015):
 * its wait channel (`/proc/PID/task/TID/wchan`), its blocking system call
 * (`/proc/PID/task/TID/syscall`) and the descriptors that call waits on. Pure tables and
 * decoders; `process/foreground.ts` and `process/descriptors.ts` read the files.
 */

/** What a wait channel says by itself; `descriptors`: a read/poll/select/epoll wait, whose descriptors tell. */
export type WaitKind = 'descriptors' | 'timer' | 'network' | 'disk' | 'children' | 'pipe' | 'lock' | 'unknown';

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
  // The network: connect, accept, receive.
  inet_csk_accept: 'network', inet_wait_for_connect: 'network', __inet_stream_connect: 'network', sk_wait_data: 'network',
  sk_stream_wait_memory: 'network', sk_stream_wait_connect: 'network', __skb_wait_for_more_packets: 'network',
  __skb_recv_datagram: 'network', tcp_recvmsg: 'network', tcp_recvmsg_locked: 'network', unix_stream_read_generic: 'network',
  unix_stream_data_wait: 'network', unix_wait_for_peer: 'network', wait_for_connect: 'network',
  // The disk (state D says so too).
  io_schedule: 'disk', folio_wait_bit_common: 'disk', wait_on_page_bit_common: 'disk', jbd2_log_wait_commit: 'disk',
  // Waits on other processes and threads.
  do_wait: 'children', kernel_wait4: 'children', pipe_read: 'pipe', pipe_wait: 'pipe', pipe_write: 'pipe', wait_for_partner: 'pipe',
  futex_wait_queue: 'lock', futex_wait_queue_me: 'lock', futex_wait: 'lock', __futex_wait: 'lock', futex_do_wait: 'lock',
};

/** The kind of a wait channel; compiler suffixes (`.constprop.0`, `.isra.0`) are ignored. */
export function waitKind(wchan: string | null): WaitKind {
  if (!wchan || wchan === '0') return 'unknown';
  return WAITS[wchan.replace(/\..*$/, '')] ?? 'unknown';
}

/**
 * A blocking system call decoded from `/proc/PID/syscall` (`NR arg1 … arg6 sp pc`):
 * - `read`: on descriptor `fd`;
 * - `epoll`: on the interest list of epoll descriptor `fd` (`/proc/PID/fdinfo/FD`);
 * - `poll`/`select`: on a set in the process's memory, at `addr` (`count` pollfds; `select`:
 *   fd_set bitmaps of `count` bits at `addrs`, read/write/except, 0 for none);
 * - `sleep`: nanosleep; `restart`: a call the kernel resumes after a stop (`restart_syscall`).
 */
export type Syscall =
  | { call: 'read'; fd: number }
  | { call: 'epoll'; fd: number }
  | { call: 'poll'; addr: bigint; count: number }
  | { call: 'select'; addrs: bigint[]; count: number }
  | { call: 'sleep' }
  | { call: 'restart' };

type Shape = 'read' | 'epoll' | 'poll' | 'select' | 'sleep' | 'restart';
/** Blocking system calls by number, per architecture. */
const SYSCALLS: Record<string, Record<number, Shape>> = {
  x64: {
    0: 'read', 19: 'read', 7: 'poll', 271: 'poll', 23: 'select', 270: 'select',
    232: 'epoll', 281: 'epoll', 441: 'epoll', 35: 'sleep', 230: 'sleep', 219: 'restart',
  },
  arm64: { 63: 'read', 65: 'read', 73: 'poll', 72: 'select', 22: 'epoll', 441: 'epoll', 101: 'sleep', 115: 'sleep', 128: 'restart' },
};

/** The blocking call in a `/proc/PID/syscall` line; null when running, unreadable, or outside the table. */
export function decodeSyscall(arch: string, line: string | null): Syscall | null {
  if (!line) return null;
  const f = line.trim().split(' ');
  const shape = SYSCALLS[arch]?.[Number(f[0])];
  if (!shape || f.length < 7 || !f.slice(1, 7).every((a) => a.startsWith('0x'))) return null;
  const arg = (i: number) => BigInt(f[i]!);
  switch (shape) {
    case 'read': return { call: 'read', fd: Number(arg(1) & 0xffffffffn) };
    case 'epoll': return { call: 'epoll', fd: Number(arg(1) & 0xffffffffn) };
    case 'poll': return { call: 'poll', addr: arg(1), count: Number(arg(2) & 0xffffn) };
    case 'select': return { call: 'select', addrs: [arg(2), arg(3), arg(4)], count: Number(arg(1) & 0xffffn) };
    default: return { call: shape };
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
 * What a descriptor is, for a person wondering what a program waits for: the terminal, an inotify
 * watch (a follower such as `tail -f`), a listening socket (a server), another socket (a client
 * waiting for an answer), a pipe, a timer, or `other` (eventfds, signalfds, files: a program's own
 * plumbing, which says nothing).
 */
export type Target = 'terminal' | 'inotify' | 'listening' | 'socket' | 'pipe' | 'timer' | 'other';

/** The kind of a descriptor from its `/proc/PID/fd/N` link; `listening` says whether a socket's inode listens. */
export function targetOf(link: string, listening: (inode: string) => boolean = () => false): Target {
  if (link === '/dev/tty' || link.startsWith('/dev/pts/') || /^\/dev\/tty[0-9S]/.test(link) || link === '/dev/console') return 'terminal';
  if (link === 'anon_inode:inotify') return 'inotify';
  if (link === 'anon_inode:[timerfd]') return 'timer';
  if (link.startsWith('pipe:')) return 'pipe';
  const socket = /^socket:\[(\d+)\]$/.exec(link);
  if (socket) return listening(socket[1]!) ? 'listening' : 'socket';
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
