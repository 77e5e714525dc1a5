/**
 * Pure decoders of the kernel's socket tables, for following a socket to the process at its other
 * end and for telling a request still unanswered (ADR 0048): `/proc/net/tcp{,6}` (connected TCP
 * pairs on this host), `ss -xn` (Unix socket peers, which /proc does not show), `ss -tin -e` (a TCP
 * socket's last data sent and received). `process/socket-peers.ts` reads them.
 */

/**
 * Each established TCP socket's inode mapped to the inode of its other end, where that end is on
 * this host too (loopback, or any local address): the row whose local address is this row's remote
 * one and the other way round. From `/proc/net/tcp` and `/proc/net/tcp6` (state 01, inode column 9).
 */
export function tcpPeers(table: string): Map<string, string> {
  const byPair = new Map<string, string>();
  const rows: [string, string, string][] = [];
  for (const line of table.split('\n')) {
    const f = line.trim().split(/\s+/);
    if (f[3] !== '01' || !f[9] || f[9] === '0' || !f[1] || !f[2]) continue;
    rows.push([f[1], f[2], f[9]]);
    byPair.set(`${f[1]} ${f[2]}`, f[9]);
  }
  const out = new Map<string, string>();
  for (const [local, remote, inode] of rows) {
    const peer = byPair.get(`${remote} ${local}`);
    if (peer !== undefined) out.set(inode, peer);
  }
  return out;
}

/**
 * Unix socket peers from `ss -xnH` (no header): `u_str ESTAB 0 0 PATH INODE PEERPATH PEERINODE`,
 * `*` for no path. The inodes are the third field from the end and the last (a path may hold
 * spaces). An unconnected socket has peer `0`: known to have none.
 */
export function unixPeers(ss: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of ss.split('\n')) {
    const f = line.trim().split(/\s+/);
    if (f.length < 8) continue;
    const inode = f[f.length - 3]!;
    const peer = f[f.length - 1]!;
    if (/^\d+$/.test(inode) && /^\d+$/.test(peer)) out.set(inode, peer);
  }
  return out;
}

/** What TCP_INFO says of a socket's data: how long ago it last sent and received data (ms), and how many bytes. */
export interface TcpTimes {
  lastSendMs: number;
  lastReceiveMs: number;
  bytesSent: number;
  bytesReceived: number;
}

/**
 * TCP_INFO per socket inode from `ss -tinHe`: a socket's line names `ino:N`, and its info line (the
 * next one) holds `lastsnd:MS`, `lastrcv:MS`, `bytes_sent:N`, `bytes_received:N`, each left out
 * when 0.
 */
export function tcpTimes(ss: string): Map<string, TcpTimes> {
  const out = new Map<string, TcpTimes>();
  let inode: string | null = null;
  for (const line of ss.split('\n')) {
    const ino = /\bino:(\d+)/.exec(line);
    if (ino) {
      inode = ino[1]!;
      continue;
    }
    if (inode === null || !/^\s/.test(line)) continue;
    const field = (name: string) => Number(new RegExp(`\\b${name}:(\\d+)`).exec(line)?.[1] ?? 0);
    out.set(inode, { lastSendMs: field('lastsnd'), lastReceiveMs: field('lastrcv'), bytesSent: field('bytes_sent'), bytesReceived: field('bytes_received') });
    inode = null;
  }
  return out;
}

/**
 * Whether a TCP socket has sent data that no data has answered yet: it sent after it last
 * received; or, both in the same millisecond, it sent and has never received (a request written
 * as soon as it connected: the handshake is the last thing received). A connection that sent
 * nothing is not waiting for anything.
 */
export function awaitsReply(t: TcpTimes): boolean {
  if (t.bytesSent === 0) return false;
  return t.lastSendMs < t.lastReceiveMs || (t.lastSendMs === t.lastReceiveMs && t.bytesReceived === 0);
}

/**
 * When bytes last moved on any of the TCP sockets `times`, read at `at` (TCP_INFO's time since the
 * last data received and sent): a stream has bytes arriving, a keep-alive connection at rest has
 * none, whatever wakes the thread that holds it (ADR 0061). null for no socket.
 */
export function lastDataAt(times: readonly TcpTimes[], at: number): number | null {
  if (times.length === 0) return null;
  return Math.max(...times.map((t) => at - Math.min(t.lastSendMs, t.lastReceiveMs)));
}
