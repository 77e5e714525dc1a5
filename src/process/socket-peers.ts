import { spawnSync } from 'node:child_process';
import { awaitsReply, lastDataAt, tcpTimes, unixPeers, type TcpTimes } from '../core/socket-tables.js';

/**
 * What /proc does not show of sockets, asked of the kernel's socket diagnostics through `ss`
 * (iproute2), only when a look cannot decide without it (ADR 0048): the other end of a Unix
 * socket, and a TCP socket's last data sent and received. Each is one `ss` process for every
 * session at once, at most once per MIN_MS; without `ss` (not installed) both answer "not known"
 * and the rules fall back to what /proc shows.
 */
const MIN_MS = 1000;
const TIMES_TTL_MS = 1000;

let available = true;
/** Unix peers seen so far: a connected socket's peer never changes while it lives. Bounded: reset past MAX_PEERS. */
let peers = new Map<string, string>();
let peersAt = 0;
const MAX_PEERS = 50_000;
let times: { map: Map<string, TcpTimes>; at: number } | null = null;
let spawned = 0;

function ss(args: string[]): string | null {
  if (!available) return null;
  spawned++;
  const r = spawnSync('ss', args, { encoding: 'latin1', timeout: 2000, stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 64 * 1024 * 1024 });
  if (r.error) {
    if ((r.error as NodeJS.ErrnoException).code === 'ENOENT') available = false;
    return null;
  }
  return r.status === 0 ? r.stdout : null;
}

/**
 * The inode of the other end of the Unix socket `inode`; undefined when it has none (not
 * connected, or `ss` missing); null when not known yet (a socket newer than the last `ss`, which
 * is run again at most once per MIN_MS).
 */
export function unixPeerOf(inode: string, now = Date.now()): string | null | undefined {
  const known = peers.get(inode);
  if (known === '0') return undefined;
  if (known !== undefined || !available) return known;
  if (now - peersAt < MIN_MS) return null;
  peersAt = now;
  const out = ss(['-xnH']);
  if (out === null) return undefined;
  if (peers.size > MAX_PEERS) peers = new Map();
  for (const [a, b] of unixPeers(out)) peers.set(a, b);
  // Not in the table at all (gone meanwhile): none, and not asked again.
  if (!peers.has(inode)) peers.set(inode, '0');
  const peer = peers.get(inode)!;
  return peer === '0' ? undefined : peer;
}

/**
 * Whether any of the TCP sockets `inodes` sent data that nothing has answered yet (TCP_INFO, ADR
 * 0048); null when not known (`ss` missing). One `ss -tin` serves every look for TIMES_TTL_MS.
 */
export function awaitingReply(inodes: readonly string[], now = Date.now()): boolean | null {
  if (inodes.length === 0) return false;
  if (!times || now - times.at >= TIMES_TTL_MS) {
    const out = ss(['-tinHe', 'state', 'established']);
    if (out === null && !available) return null;
    times = { map: tcpTimes(out ?? ''), at: now };
  }
  return inodes.some((i) => {
    const t = times!.map.get(i);
    return t !== undefined && awaitsReply(t);
  });
}

/** The youngest a table is asked again for: a look deciding that a conversation went quiet (ADR 0061). */
export const FRESH_MS = 250;

/**
 * The established TCP sockets among `inodes` as TCP_INFO shows them (ADR 0061): when bytes last
 * moved on them, whether one awaits a reply, and when the table was read. The table is read again
 * when older than `maxAgeMs` (at most once per FRESH_MS); null when not known (`ss` missing);
 * `lastDataAt` null when none of `inodes` is an established TCP socket.
 */
export function tcpTraffic(inodes: readonly string[], maxAgeMs: number, now = Date.now()): { lastDataAt: number | null; awaiting: boolean; readAt: number } | null {
  if (!times || (now - times.at >= Math.max(maxAgeMs, FRESH_MS))) {
    const out = ss(['-tinHe', 'state', 'established']);
    if (out === null && !available) return null;
    times = { map: tcpTimes(out ?? ''), at: now };
  }
  const found = inodes.map((i) => times!.map.get(i)).filter((t): t is TcpTimes => t !== undefined);
  return { lastDataAt: lastDataAt(found, times.at), awaiting: found.some(awaitsReply), readAt: times.at };
}

/** How many `ss` processes the looks have spawned (the daemon's status, tests). */
export function ssSpawned(): number {
  return spawned;
}
