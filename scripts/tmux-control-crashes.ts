/**
 * The tmux server crashes of control mode, and amux's way around them (ADR 0037, ADR 0067):
 * `node dist/scripts/tmux-control-crashes.js [runs] [tmux …]` runs each probe `runs` times (default
 * 10) against each tmux program given (default `tmux` on PATH), each on a private server, and prints
 * how many runs lost their server. Nothing of the user's tmux is touched.
 */
import { execFileSync } from 'node:child_process';
import {
  probeAttachWhileCreating, probeClose, probeDestroyUnattached, probeForeignServer, probeHalfIdentified, probeLostBeforeIdentified, probeOwnServer,
  type ProbeResult,
} from '../test/helpers/tmux-crashes.js';

const PROBES: [string, (bin: string) => Promise<ProbeResult & { controlled?: boolean }>][] = [
  ['crash 1: a notification reaches a control client still identifying (tmux #4980)', probeHalfIdentified],
  ['crash 1b: a control client leaves before it has identified (tmux #5004)', probeLostBeforeIdentified],
  ['crash 1 as met: -C attach while 11 clients create sessions (race)', (bin) => probeAttachWhileCreating(bin)],
  ['crash 2: destroy-unattached, the client leaving as another leaves (tmux #5497)', probeDestroyUnattached],
  ['attach-anywhere (ADR 0037/0046) beside a client creating sessions', (bin) => probeForeignServer(bin, 'any-server')],
  ['amux own-server: calls beside a client creating sessions (no client joins)', (bin) => probeForeignServer(bin, 'own-server')],
  ['amux own-server: the client starts the server; creates and kills around it', (bin) => probeOwnServer(bin)],
  ['amux own-server: close() beside clients that come and go', probeClose],
];

async function main(): Promise<void> {
  const runs = Number(process.argv[2] ?? 10);
  const bins = process.argv.slice(3).length ? process.argv.slice(3) : ['tmux'];
  for (const bin of bins) {
    const version = execFileSync(bin, ['-V'], { encoding: 'utf8' }).trim();
    process.stdout.write(`\n${version} (${bin}), ${runs} runs each\n`);
    for (const [name, probe] of PROBES) {
      let crashed = 0;
      let controlled = 0;
      let told = false;
      for (let i = 0; i < runs; i++) {
        const r = await probe(bin);
        if (r.crashed) crashed++;
        if (r.controlled) controlled++;
        told ||= r.controlled !== undefined;
      }
      const note = told ? ` (control client up in ${controlled})` : '';
      process.stdout.write(`  ${String(crashed).padStart(3)}/${runs} servers lost  ${name}${note}\n`);
    }
  }
}

void main();
