/**
 * What the kernel says the terminal's foreground processes are doing (README "Statuses", ADR
 * 0015): pure rules over samples that `process/foreground.ts` reads from /proc. They tell "waiting
 * for you" (blocked reading the terminal) from "busy but quiet" (computing, sleeping on a timer,
 * on the network, on the disk), which the screen alone cannot.
 */

/** One process of the terminal's foreground group, as read from /proc. */
export interface ProcessSample {
  pid: number;
  /** Its command name (`comm`). */
  comm: string;
  /** Scheduler state: R running, S sleeping, D disk, T stopped, Z zombie, … */
  state: string;
  /** Kernel function it sleeps in (`/proc/PID/wchan`); null when unreadable or not sleeping. */
  wchan: string | null;
  /** Its blocking system call has no time limit (`/proc/PID/syscall`); null when unknown. */
  indefinite: boolean | null;
  /** It holds a socket open; null when not looked at or unreadable. */
  socket: boolean | null;
}

/** What a kernel wait channel means for a person looking at the terminal. */
export type WaitKind = 'terminal' | 'timer' | 'network' | 'disk' | 'children' | 'pipe' | 'lock' | 'unknown';

/**
 * Known wait channels (kernels 5.x and 6.x). Names change between kernel versions; one missing
 * here is `unknown`, and the screen rule decides as it did before this table existed.
 */
const WAITS: Record<string, WaitKind> = {
  // Blocked in read/poll/select/epoll: on the terminal unless the process has a socket to wait on.
  poll_schedule_timeout: 'terminal', do_select: 'terminal', core_sys_select: 'terminal', do_sys_poll: 'terminal',
  do_epoll_wait: 'terminal', ep_poll: 'terminal', wait_woken: 'terminal', n_tty_read: 'terminal', tty_read: 'terminal',
  // Sleeping on a timer: `sleep`, a retry loop, a build step that waits.
  hrtimer_nanosleep: 'timer', do_nanosleep: 'timer', common_nsleep: 'timer', clock_nanosleep: 'timer',
  // The network: connect, accept, receive.
  inet_csk_accept: 'network', inet_wait_for_connect: 'network', __inet_stream_connect: 'network', sk_wait_data: 'network',
  sk_stream_wait_memory: 'network', sk_stream_wait_connect: 'network', __skb_wait_for_more_packets: 'network',
  __skb_recv_datagram: 'network', tcp_recvmsg: 'network', tcp_recvmsg_locked: 'network', unix_stream_read_generic: 'network',
  unix_stream_data_wait: 'network', unix_wait_for_peer: 'network', wait_for_connect: 'network',
  // The disk (state D says so too).
  io_schedule: 'disk', folio_wait_bit_common: 'disk', wait_on_page_bit_common: 'disk', jbd2_log_wait_commit: 'disk',
  // Waits on other processes: they decide (they are in the group, or they are not the terminal's).
  do_wait: 'children', kernel_wait4: 'children', pipe_read: 'pipe', pipe_wait: 'pipe', pipe_write: 'pipe', wait_for_partner: 'pipe',
  futex_wait_queue: 'lock', futex_wait_queue_me: 'lock', futex_wait: 'lock', __futex_wait: 'lock',
};

/** The kind of a wait channel; compiler suffixes (`.constprop.0`, `.isra.0`) are ignored. */
export function waitKind(wchan: string | null): WaitKind {
  if (!wchan || wchan === '0') return 'unknown';
  return WAITS[wchan.replace(/\..*$/, '')] ?? 'unknown';
}

/**
 * Blocking system calls by number, per architecture, and which argument holds the time limit:
 * `int` (negative: none), `ptr` (NULL: none), or `none` (a read waits for as long as it takes).
 */
const SYSCALLS: Record<string, Record<number, { arg: number; type: 'int' | 'ptr' | 'none' }>> = {
  x64: {
    0: { arg: 0, type: 'none' }, 19: { arg: 0, type: 'none' }, // read, readv
    7: { arg: 3, type: 'int' }, // poll(fds, n, timeout)
    23: { arg: 5, type: 'ptr' }, 270: { arg: 5, type: 'ptr' }, // select, pselect6: timeout pointer
    271: { arg: 3, type: 'ptr' }, // ppoll: timeout pointer
    232: { arg: 4, type: 'int' }, 281: { arg: 4, type: 'int' }, 441: { arg: 4, type: 'ptr' }, // epoll_wait, epoll_pwait, epoll_pwait2
  },
  arm64: {
    63: { arg: 0, type: 'none' }, 65: { arg: 0, type: 'none' }, // read, readv
    72: { arg: 5, type: 'ptr' }, 73: { arg: 3, type: 'ptr' }, // pselect6, ppoll
    22: { arg: 4, type: 'int' }, 441: { arg: 4, type: 'ptr' }, // epoll_pwait, epoll_pwait2
  },
};

/**
 * Whether the blocking call in `/proc/PID/syscall` (`NR arg1 … arg6 sp pc`) waits with no time
 * limit: a program that polls with a timeout (`top`, an editor saving its swap file) may repaint
 * without input. null when the call or the architecture is not known.
 */
export function waitsIndefinitely(arch: string, syscall: string | null): boolean | null {
  if (!syscall) return null;
  const f = syscall.trim().split(' ');
  const known = SYSCALLS[arch]?.[Number(f[0])];
  if (!known || f.length < 7) return null;
  if (known.type === 'none') return true;
  const arg = f[known.arg];
  if (!arg?.startsWith('0x')) return null;
  const value = BigInt(arg);
  if (known.type === 'ptr') return value === 0n;
  return (value & 0x80000000n) !== 0n; // a negative int, sign-extended or not
}

/** Why a session is working or idle, from its foreground processes; `unknown` leaves it to the screen. */
export type Activity =
  | { verdict: 'working'; reason: 'cpu' | 'disk' | 'sleeping' | 'network' }
  | { verdict: 'input'; reason: 'reading the terminal' | 'at prompt' }
  | { verdict: 'unknown' };

const BUSY_WAITS: Partial<Record<WaitKind, 'disk' | 'sleeping' | 'network'>> = { timer: 'sleeping', network: 'network', disk: 'disk' };

/**
 * Judges the terminal's foreground group:
 * - any process running (R) or in disk wait (D), sleeping on a timer, or on the network: working;
 * - else any blocked reading with no time limit, on the terminal (no socket open): input, at once;
 *   `atPrompt` when that process is the session's own shell;
 * - else CPU used by the group since the last look (`cpuUsed`, e.g. threads computing while the
 *   main thread waits on a lock): working;
 * - else unknown: waits on children or pipes, a poll with a timeout, a socket, an unknown channel.
 */
export function judgeForeground(procs: readonly ProcessSample[], cpuUsed: boolean, shellPid: number | null = null): Activity {
  for (const p of procs) {
    if (p.state === 'R') return { verdict: 'working', reason: 'cpu' };
    if (p.state === 'D') return { verdict: 'working', reason: 'disk' };
    const busy = p.state === 'S' ? BUSY_WAITS[waitKind(p.wchan)] : undefined;
    if (busy) return { verdict: 'working', reason: busy };
  }
  const reader = procs.find((p) => p.state === 'S' && waitKind(p.wchan) === 'terminal' && p.socket === false && p.indefinite !== false);
  if (reader) return { verdict: 'input', reason: reader.pid === shellPid ? 'at prompt' : 'reading the terminal' };
  if (cpuUsed) return { verdict: 'working', reason: 'cpu' };
  return { verdict: 'unknown' };
}
