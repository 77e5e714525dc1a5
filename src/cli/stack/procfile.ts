import { fileError, type Entry, type Tree } from './tree.js';

const LINE = /^([A-Za-z0-9][A-Za-z0-9_.-]*)\s*:\s*(.*)$/;

/**
 * A Procfile (`name: command` lines, as foreman and overmind read them; blank lines and # comments
 * skipped) as the tree of the same amux.yaml: each line a session with that command (ADR 0035).
 */
export function procfileTree(text: string, file: string): Tree {
  const entries: Entry[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = i + 1;
    const t = raw.trim();
    if (t === '' || t.startsWith('#')) return;
    const m = LINE.exec(t);
    if (!m) throw fileError(file, line, '', "not a Procfile line: use 'name: command'");
    if (m[2]!.trim() === '') throw fileError(file, line, m[1]!, 'no command after the colon');
    if (entries.some((e) => e.key === m[1])) throw fileError(file, line, m[1]!, 'named twice');
    entries.push({ key: m[1]!, line, value: { kind: 'map', line, entries: [{ key: 'command', line, value: { kind: 'scalar', line, value: m[2]!.trim() } }] } });
  });
  return { kind: 'map', line: 1, entries: [{ key: 'sessions', line: 1, value: { kind: 'map', line: 1, entries } }] };
}
