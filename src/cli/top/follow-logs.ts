import { StringDecoder } from 'node:string_decoder';
import type { Client } from '../../client/client.js';
import { readBody } from '../../client/http.js';
import { PlainRenderer, renderPlain, tailLines } from '../../core/log-render.js';
import { pageInfo } from '../../protocol/logs.js';
import type { SessionView } from '../../protocol/sessions.js';
import { label } from './keys.js';

/** How much of the log is read for the lines shown before following: the terminal's height of them. */
const TAIL_BYTES = 64 * 1024;

/**
 * `l` in `top` (src/guides/sessions.md "Dashboard"; ADR 0020): the session's log as `amux logs -f` prints it
 * (plain text), in the terminal's normal screen, so that its scrollback and search work: first
 * its last lines, then each new one, until q, Esc or Ctrl-C; a session that ends (or had ended)
 * says so and waits for a key. The terminal is in raw mode all along, so that the keys come here
 * and not to the shell: line ends are written as CR LF.
 */
export async function followLogs(client: Client, s: SessionView): Promise<void> {
  const stdin = process.stdin;
  const out = process.stdout;
  const write = (text: string) => {
    if (text) out.write(text.replace(/\r?\n/g, '\r\n'));
  };
  let onKey: (() => void) | null = null;
  let pressed = false;
  const readable = () => {
    let chunk: unknown;
    let got = false;
    while ((chunk = stdin.read()) !== null) got = got || String(chunk).length > 0;
    if (got) {
      pressed = true;
      onKey?.();
    }
  };
  stdin.setRawMode(true);
  stdin.on('readable', readable);
  stdin.ref();
  const key = () => new Promise<void>((resolve) => {
    if (pressed) return resolve();
    onKey = resolve;
  });
  try {
    write(`\n── log of ${label(s)} · q, Esc or Ctrl-C: back to top ──\n`);
    const res0 = await client.sessions.logs(s.id, { sinceOffset: Math.max(0, s.logBytes - TAIL_BYTES) });
    const page = pageInfo(res0.headers);
    let text = renderPlain((await readBody(res0)).toString('utf8'));
    if (page.offset > 0) text = text.slice(text.indexOf('\n') + 1); // a line cut by the offset
    write(tailLines(text, Math.max(1, (out.rows || 24) - 3)));
    if (text && !text.endsWith('\n')) write('\n');

    const res = await client.sessions.logs(s.id, { sinceOffset: Number.isNaN(page.nextOffset) ? undefined : page.nextOffset, follow: true });
    const decoder = new StringDecoder('utf8');
    const renderer = new PlainRenderer();
    const stopped = key().then(() => res.destroy());
    let ended = true;
    try {
      for await (const chunk of res) {
        if (pressed) break;
        write(renderer.push(decoder.write(chunk)));
      }
    } catch {
      /* destroyed by a key */
    }
    if (pressed) ended = false;
    void stopped;
    if (ended) {
      write(renderer.push(decoder.end()) + renderer.end());
      const { session } = await client.sessions.inspect(s.id).catch(() => ({ session: null }));
      const how = session ? `${session.status}${session.exitCode === null ? '' : `, exit ${session.exitCode}`}` : 'the daemon stopped';
      write(`\n── ${label(s)}: ${how} · any key: back to top ──`);
      await key();
    }
  } finally {
    stdin.off('readable', readable);
    stdin.setRawMode(false);
    stdin.pause();
    write('\n');
  }
}
