import { SshLab } from '../../test/helpers/sshd.js';
import type { BenchHome } from './homes.js';
import { interleaved, runOk, stats } from './measure.js';

/**
 * src/guides/remote.md: `amux --host ssh://127.0.0.1:PORT ps` against a private sshd (the test
 * harness's, test/helpers/sshd.ts) whose far side is a second home on this machine, next to a
 * local `amux ps`: warm (the master connection up, both daemons running) and cold (each sample
 * after the master connection was closed: a full SSH handshake, the far daemon already running).
 */
export async function remotePhase(h: BenchHome, runs: number) {
  const lab = new SshLab();
  try {
    const host = await lab.host();
    const env = { ...h.env, ...lab.env() };
    const remote = [h.bin, '--host', host.url, 'ps'];
    await runOk([h.bin, 'ps'], env); // both daemons up
    await runOk(remote, env); // and the master connection
    const warm = await interleaved({ local: [h.bin, 'ps'], remote }, runs, env);
    const cold: number[] = [];
    for (let i = 0; i < Math.max(3, Math.floor(runs / 3)); i++) {
      lab.closeMasters(h.dir);
      cold.push((await runOk(remote, env)).ms);
    }
    lab.closeMasters(h.dir);
    return { ...warm, cold: stats(cold) };
  } finally {
    await lab.cleanup();
  }
}
