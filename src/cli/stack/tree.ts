import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node as YamlNode } from 'yaml';
import { AmuxError } from '../../errors.js';

/**
 * A stack file as a tree whose every value knows its line (ADR 0035): what the schema checks, so
 * that each message can name the line and the field. amux.yaml and a Procfile both become one.
 */
export type Tree =
  | { kind: 'map'; line: number; entries: Entry[] }
  | { kind: 'seq'; line: number; items: Tree[] }
  | { kind: 'scalar'; line: number; value: string | number | boolean | null };

export interface Entry {
  key: string;
  line: number;
  value: Tree;
}

/** A fixable mistake in the file: `FILE:LINE: FIELD: what` (exit 2, nothing started). */
export function fileError(file: string, line: number, field: string, what: string): AmuxError {
  return new AmuxError('usage', `${file}:${line}: ${field ? `${field}: ` : ''}${what}`);
}

/** Parses YAML (eemeli/yaml) into a Tree; a syntax error names its line. */
export function yamlTree(text: string, file: string): Tree {
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc, uniqueKeys: true, merge: false });
  const err = doc.errors[0];
  if (err) {
    const line = err.linePos?.[0].line ?? lc.linePos(err.pos[0]).line;
    throw fileError(file, line, '', `invalid YAML: ${err.message.split('\n')[0]}`);
  }
  const lineOf = (n: { range?: [number, number, number] | null } | null | undefined) => (n?.range ? lc.linePos(n.range[0]).line : 1);
  const convert = (n: unknown): Tree => {
    if (isMap(n)) {
      return {
        kind: 'map', line: lineOf(n),
        entries: n.items.map((p) => {
          const key = isScalar(p.key) ? String(p.key.value) : String(p.key);
          return { key, line: lineOf(p.key as YamlNode), value: p.value === null ? { kind: 'scalar', line: lineOf(p.key as YamlNode), value: null } : convert(p.value) };
        }),
      };
    }
    if (isSeq(n)) return { kind: 'seq', line: lineOf(n), items: n.items.map(convert) };
    if (isScalar(n)) {
      const v = n.value;
      const value = typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || v === null ? v : String(v);
      return { kind: 'scalar', line: lineOf(n), value };
    }
    return { kind: 'scalar', line: lineOf(n as YamlNode), value: null };
  };
  return doc.contents === null ? { kind: 'scalar', line: 1, value: null } : convert(doc.contents);
}
