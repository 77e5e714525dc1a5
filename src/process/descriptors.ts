import { closeSync, openSync, readdirSync, readFileSync, readlinkSync, readSync, statSync } from 'node:fs';
import { tcpPeers } from '../core/socket-tables.js';
import { epollFds, listeningInodes, pollFds, selectFds, targetOf, type Syscall, type Target } from '../core/waits.js';
import { unixPeerOf } from './socket-peers.js';

/**
 * The session a look reads (ADR 0048): its processes, whose descriptors may hold the other end of
 * a socket, and its terminal. `holders` is filled on the first question about a socket's other
 * end, not before: most looks never ask.
 */
export interface Scope {
  /** Every process of the session being judged (the shell's descendants). */
  pids: readonly number[];
  /** Whether a terminal link of `pid` is the session's own terminal (not a pty of a tool's own). */
  ours: (pid: number, link: string) => boolean;
  /** Socket inode → the processes of the session holding it, read once per look when first needed. */
  holders?: Map<string, number[]>;
}

/**
 * Which descriptors a blocking call waits on, read from /proc without a process spawned (ADR
 * 0015): a `read` names its descriptor; an `epoll_wait` waits on the interest list in
 * `/proc/PID/fdinfo/EPFD`; a `poll`/`select` set lives in the process's memory, read from
 * `/proc/PID/mem` (the same access as `/proc/PID/syscall`), else guessed from every descriptor
 * the process has open.
 */
export function waitTargets(pid: number, call: Syscall, key: string, scope?: Scope): Target[] | null {
  const now = Date.now();
  const known = targetCache.get(`${pid} ${key}`);
  if (known && now - known.at < TARGET_TTL_MS) return known.targets;
  if (targetCache.size > 10_000) for (const [k, v] of targetCache) if (now - v.at >= TARGET_TTL_MS) targetCache.delete(k);
  unsure = false;
  const targets = readTargets(pid, call, scope);
  // A socket newer than the tables' snapshot is looked up again at the next look, not kept.
  if (!unsure) targetCache.set(`${pid} ${key}`, { targets, at: now });
  return targets;
}

/**
 * What a wait was found to be on, per thread and blocking call (its whole `/proc/PID/syscall`
 * line: the same call with the same arguments, still blocked or blocked again), for
 * TARGET_TTL_MS: reading descriptors is the dearest part of a look.
 */
const targetCache = new Map<string, { targets: Target[] | null; at: number }>();
const TARGET_TTL_MS = 1000;

function readTargets(pid: number, call: Syscall, scope: Scope | undefined): Target[] | null {
  switch (call.call) {
    case 'read': case 'write': return targetsOf(pid, [call.fd], scope);
    case 'epoll': return epollTargets(pid, call.fd, 1, scope);
    case 'poll': return targetsOf(pid, readPollSet(pid, call.addr, call.count) ?? openFds(pid), scope);
    case 'select': return targetsOf(pid, readSelectSet(pid, call.addrs, call.count) ?? openFds(pid), scope);
    default: return null;
  }
}

/** Every descriptor the process has open, for a wait whose system call cannot be read. */
export function openTargets(pid: number, scope?: Scope): Target[] | null {
  return targetsOf(pid, openFds(pid), scope);
}

function read(path: string): string | null {
  try {
    return readFileSync(path, 'latin1');
  } catch {
    return null;
  }
}

function link(pid: number, fd: number): string | null {
  try {
    return readlinkSync(`/proc/${pid}/fd/${fd}`);
  } catch {
    return null; // closed meanwhile, or not ours to read
  }
}

/** The kinds of `fds`; null when none could be read (not ours, or the process is gone). */
function targetsOf(pid: number, fds: number[] | null, scope?: Scope): Target[] | null {
  if (!fds) return null;
  const pairs = fds.map((fd) => [fd, link(pid, fd)] as const).filter((p): p is readonly [number, string] => p[1] !== null);
  if (fds.length > 0 && pairs.length === 0) return null;
  const sockets = pairs.map(([, l]) => /^socket:\[(\d+)\]$/.exec(l)?.[1]).filter((i): i is string => i !== undefined);
  const listening = sockets.length ? listeningOf(pid, sockets) : new Set<string>();
  return pairs.map(([fd, l]) => targetOf(l, {
    listening: (inode) => listening.has(inode),
    ours: scope ? (t) => scope.ours(pid, t) : undefined,
    fifo: () => isFifo(pid, fd),
    peer: scope ? (inode) => peerOf(pid, inode, scope) : undefined,
  }));
}

/** A descriptor's file is a named pipe (a path that is a FIFO: `cat fifo`, ADR 0048). */
function isFifo(pid: number, fd: number): boolean {
  try {
    return statSync(`/proc/${pid}/fd/${fd}`).isFIFO();
  } catch {
    return false;
  }
}

/**
 * Where the other end of socket `inode` of `pid` is (ADR 0048): in `pid` itself (asyncio's
 * self-pipe: plumbing), in another process of the session (followed: that process is judged), or
 * outside. TCP pairs on this host come from the tables' snapshot; Unix peers from `ss`.
 */
function peerOf(pid: number, inode: string, scope: Scope): 'self' | 'session' | 'outside' {
  const peer = snapshot?.tcpPeers.get(inode) ?? (snapshot?.unix.has(inode) ? unixPeerOf(inode) : undefined);
  if (peer === null) {
    // Not known yet: the next look asks again rather than keep this answer.
    unsure = true;
    unsureLookups++;
  }
  if (peer === undefined || peer === null) return 'outside';
  const holders = (scope.holders ??= socketHolders(scope.pids)).get(peer);
  if (!holders) return 'outside';
  return holders.includes(pid) ? 'self' : 'session';
}

/** Socket inode → the processes of `pids` that hold it. */
function socketHolders(pids: readonly number[]): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const pid of pids) {
    for (const fd of openFds(pid) ?? []) {
      const inode = /^socket:\[(\d+)\]$/.exec(link(pid, fd) ?? '')?.[1];
      if (inode === undefined) continue;
      const list = out.get(inode) ?? [];
      if (!list.includes(pid)) list.push(pid);
      out.set(inode, list);
    }
  }
  return out;
}

/** An epoll's interest list; a nested epoll descriptor is followed `depth` more levels. */
function epollTargets(pid: number, epfd: number, depth: number, scope?: Scope): Target[] | null {
  const info = read(`/proc/${pid}/fdinfo/${epfd}`);
  if (info === null) return null;
  const fds = epollFds(info);
  const out: Target[] = [];
  for (const fd of fds) {
    const l = link(pid, fd);
    if (l === 'anon_inode:[eventpoll]' && depth > 0) out.push(...(epollTargets(pid, fd, depth - 1, scope) ?? []));
    else if (l !== null) out.push(...(targetsOf(pid, [fd], scope) ?? []));
  }
  return out;
}

function readMemory(pid: number, addr: bigint, length: number): Buffer | null {
  if (addr === 0n || length <= 0) return null;
  let fd: number | null = null;
  try {
    fd = openSync(`/proc/${pid}/mem`, 'r');
    const buf = Buffer.alloc(length);
    return readSync(fd, buf, 0, length, addr) === length ? buf : null;
  } catch {
    return null; // not ours to read (Yama, another user): the open descriptors stand in
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

/** At most this many pollfds are read: a larger set is a server's, and its descriptors are guessed instead. */
const MAX_POLL = 1024;

function readPollSet(pid: number, addr: bigint, count: number): number[] | null {
  if (count > MAX_POLL) return null;
  if (count === 0) return [];
  const buf = readMemory(pid, addr, count * 8);
  return buf ? pollFds(buf) : null;
}

function readSelectSet(pid: number, addrs: bigint[], count: number): number[] | null {
  const bytes = Math.ceil(count / 64) * 8;
  const out = new Set<number>();
  for (const addr of addrs) {
    if (addr === 0n) continue;
    const buf = readMemory(pid, addr, bytes);
    if (!buf) return null;
    for (const fd of selectFds(buf, count)) out.add(fd);
  }
  return [...out];
}

function openFds(pid: number): number[] | null {
  try {
    return readdirSync(`/proc/${pid}/fd`).map(Number);
  } catch {
    return null;
  }
}

/**
 * Whether socket inodes listen, from one snapshot of the socket tables shared by every look:
 * reading `/proc/net/tcp` costs milliseconds whatever few sockets it lists (the kernel walks its
 * hash tables), so it is read again only when a socket not in the last snapshot turns up (at most
 * once per SNAPSHOT_MIN_MS; meanwhile it counts as not listening, for that look only), or when the
 * snapshot is SNAPSHOT_TTL_MS old. A socket listens from
 * before its first wait on it; a socket not in the tables (UDP, netlink) counts as not listening.
 */
let snapshot: { listening: Set<string>; known: Set<string>; tcpPeers: Map<string, string>; unix: Set<string>; at: number } | null = null;
const SNAPSHOT_TTL_MS = 10_000;
const SNAPSHOT_MIN_MS = 250;
/** Set by a lookup that found a socket the snapshot does not know yet (too soon to read the tables again). */
let unsure = false;
let unsureLookups = 0;

/** How many lookups found a socket the tables did not know yet: a look that made one is not reused (ADR 0041). */
export function unsureCount(): number {
  return unsureLookups;
}

function listeningOf(pid: number, inodes: string[]): Set<string> {
  const now = Date.now();
  const stale = !snapshot || now - snapshot.at >= SNAPSHOT_TTL_MS;
  const unknown = snapshot !== null && inodes.some((i) => !snapshot!.known.has(i)) && now - snapshot.at >= SNAPSHOT_MIN_MS;
  if (stale || unknown) {
    const tcp = (read(`/proc/${pid}/net/tcp`) ?? '') + (read(`/proc/${pid}/net/tcp6`) ?? '');
    const unix = read(`/proc/${pid}/net/unix`) ?? '';
    // Every inode of this read is known, so that one not in the tables is not looked up again and again.
    const unixInodes = allInodes(unix, 6);
    snapshot = {
      listening: listeningInodes(tcp, unix), known: new Set([...allInodes(tcp, 9), ...unixInodes, ...inodes]),
      tcpPeers: tcpPeers(tcp), unix: new Set(unixInodes), at: now,
    };
  }
  if (inodes.some((i) => !snapshot!.known.has(i))) {
    unsure = true;
    unsureLookups++;
  }
  return new Set(inodes.filter((i) => snapshot!.listening.has(i)));
}

/** The inode column of every line of a socket table. */
function allInodes(table: string, column: number): string[] {
  return table.split('\n').map((l) => l.trim().split(/\s+/)[column]).filter((i): i is string => i !== undefined && /^\d+$/.test(i));
}

/** The socket inodes `pid` holds (for TCP_INFO of a member that converses, ADR 0048). */
export function socketInodes(pid: number): string[] {
  return (openFds(pid) ?? []).map((fd) => /^socket:\[(\d+)\]$/.exec(link(pid, fd) ?? '')?.[1]).filter((i): i is string => i !== undefined);
}
