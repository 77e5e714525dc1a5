import { execFileSync } from 'node:child_process';
import os from 'node:os';

/** What a reader needs to judge the figures: the machine, its load, and the node and tmux in use. */
export function machineFacts() {
  const tmux = (() => {
    try {
      return execFileSync('tmux', ['-V'], { encoding: 'utf8' }).trim();
    } catch {
      return 'tmux not found';
    }
  })();
  return {
    date: new Date().toISOString(), nproc: os.availableParallelism(), cpu: os.cpus()[0]?.model ?? 'unknown',
    memGb: +(os.totalmem() / 2 ** 30).toFixed(1), kernel: `${os.type()} ${os.release()}`, node: process.version, tmux,
    loadavg: os.loadavg().map((l) => +l.toFixed(2)),
  };
}
