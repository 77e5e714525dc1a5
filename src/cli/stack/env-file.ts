import { AmuxError } from '../../errors.js';
import { readStackText } from './read-file.js';

const LINE = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/;

/**
 * An env_file (ADR 0035): `KEY=VALUE` lines, `export` allowed, blank lines and # comments
 * skipped, a value in matching single or double quotes taken as is (no expansion). Read on this
 * machine, also for a stack on a remote host.
 */
export function parseEnvFile(text: string, file: string): Record<string, string> {
  const out: Record<string, string> = {};
  text.split(/\r?\n/).forEach((raw, i) => {
    const t = raw.trim();
    if (t === '' || t.startsWith('#')) return;
    const m = LINE.exec(t);
    if (!m) throw new AmuxError('usage', `${file}:${i + 1}: not an env_file line: use KEY=VALUE`);
    let v = m[2]!;
    const q = v[0];
    if ((q === '"' || q === "'") && v.length >= 2 && v.endsWith(q)) v = v.slice(1, -1);
    else v = v.replace(/\s+#.*$/, '');
    out[m[1]!] = v;
  });
  return out;
}

export function readEnvFile(path: string, shown: string): Record<string, string> {
  return parseEnvFile(readStackText(path, shown), shown);
}
