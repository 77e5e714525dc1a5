import { join } from 'node:path';
import type { BenchHome } from './homes.js';
import { runOk, stats, type Stats } from './measure.js';

/** Wall time of `n` copies of argv started at once, until the last has exited. */
async function burst(n: number, argv: (i: number) => readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  const t0 = performance.now();
  await Promise.all(Array.from({ length: n }, (_, i) => runOk(argv(i), env)));
  return performance.now() - t0;
}

/**
 * A burst, as CI and agents start workers (scripts/PERFORMANCE.md): `n` `amux run -- true` at once
 * against a warm daemon, next to its floor measured in the same loop: `n` at once of what a run
 * needs at the least, a node start and a tmux session (`node -e 0 && tmux new-session -d`).
 * Rounds alternate the two.
 */
export async function burstPhase(h: BenchHome, n: number, rounds: number): Promise<{ amux: Stats; floor: Stats; n: number }> {
  await h.amuxOk('daemon', 'start');
  // A socket per round: a server just told to `kill-server` may still hold its socket, and the next
  // round's first client then meets it exiting ("server exited unexpectedly").
  const sockOf = (r: number) => join(h.dir, `floor-tmux-${r}.sock`);
  // `sleep 60`, not `true`: a server whose every session has ended exits, under the feet of the
  // clients still connecting ("server exited unexpectedly"); starting one costs the same.
  const floorArgv = (sock: string) => (i: number) => ['sh', '-c', `node -e 0 && tmux -S '${sock}' -f /dev/null new-session -d -s f${i} 'sleep 60'`];
  const amux: number[] = [];
  const floor: number[] = [];
  await burst(Math.min(n, 8), () => [h.bin, 'run', '--', 'true'], h.env); // warm-up, untimed
  for (let r = 0; r < rounds; r++) {
    const sock = sockOf(r);
    // A warm server, as amux's is: 50 clients racing to start one fail ("server exited unexpectedly").
    await runOk(['tmux', '-S', sock, '-f', '/dev/null', 'new-session', '-d', '-s', 'warm', 'sleep 600'], h.env);
    floor.push(await burst(n, floorArgv(sock), h.env));
    amux.push(await burst(n, () => [h.bin, 'run', '--', 'true'], h.env));
    await runOk(['sh', '-c', `tmux -S '${sock}' kill-server 2>/dev/null; true`], h.env);
  }
  return { amux: stats(amux), floor: stats(floor), n };
}
