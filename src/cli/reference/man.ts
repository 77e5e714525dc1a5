import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { VERSION } from '../../version.js';
import { allPages } from './pages.js';
import { toRoff } from './roff.js';

/**
 * The man pages, by file name, as `npm run build` writes them to dist/man/ (ADR 0063): amux.1,
 * amux-COMMAND.1 and amux-TOPIC.7. test/unit/reference.test.ts builds them again and compares.
 */
export function manPages(guidesDir?: string): Map<string, string> {
  const { buildProgram } = require('../program.js') as typeof import('../program.js');
  const pages = new Map<string, string>();
  for (const [file, page] of allPages(buildProgram(() => undefined), guidesDir)) pages.set(file, toRoff(page, VERSION));
  return pages;
}

/** Writes the pages into `dir`, removing pages of commands or topics that are gone. */
export function writeMan(dir: string): void {
  mkdirSync(dir, { recursive: true });
  for (const f of readdirSync(dir)) if (/\.[17]$/.test(f)) rmSync(join(dir, f));
  for (const [file, text] of manPages()) writeFileSync(join(dir, file), text);
}

if (require.main === module) writeMan(process.argv[2] ?? 'dist/man');
