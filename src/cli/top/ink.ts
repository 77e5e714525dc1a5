import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as InkModule from 'ink';
import { importModule } from '../code-cache.js';

/** ink's exports; ink is ESM-only and loaded by `amux top` alone (ADR 0008, ADR 0020). */
export type Ink = typeof InkModule;

/**
 * Where the build put ink as one ES module (scripts/bundle.ts): next to the CLI's bundle
 * (`dist/src/cli/ink.mjs`), which is this file's folder when bundled and its parent when not.
 */
function inkBundle(): string | null {
  for (const dir of [__dirname, join(__dirname, '..')]) {
    const file = join(dir, 'ink.mjs');
    if (existsSync(file)) return file;
  }
  return null;
}

/**
 * Loads ink with a real dynamic import (our output is CommonJS): the build's one-file bundle of
 * it, or ink itself when there is none (a tree built by tsc alone). ink decides once, when it is
 * loaded, whether it runs in CI (`CI` or `CONTINUOUS_INTEGRATION` set), and then draws nothing
 * until it exits. `top` runs only on a terminal, so it hides those variables for that moment.
 */
export async function loadInk(): Promise<Ink> {
  const keys = ['CI', 'CONTINUOUS_INTEGRATION'] as const;
  const saved = keys.map((k) => process.env[k]);
  for (const k of keys) if (process.env[k] !== undefined) process.env[k] = 'false';
  try {
    const bundle = inkBundle();
    // Through the loader (ADR 0069): esbuild does not follow it, so the CLI's bundle does not take ink in.
    return bundle ? await importModule<Ink>(pathToFileURL(bundle).href) : await importModule<Ink>('ink');
  } finally {
    keys.forEach((k, i) => {
      if (saved[i] === undefined) delete process.env[k];
      else process.env[k] = saved[i];
    });
  }
}

/**
 * ink styles text with chalk, whose own guess of the terminal's abilities says "none" when CI is
 * set, whatever the terminal. `top` runs only on a terminal, so it asks chalk for at least the 16
 * basic colours and the attributes (inverse, bold, dim). Whether colours are used is decided by
 * amux (src/guides/sessions.md: never with NO_COLOR or --no-color): the app then sets none, while the
 * attributes, which are not colours, still show the selection.
 */
export async function enableStyles(): Promise<void> {
  const { default: chalk } = await importModule<typeof import('chalk')>('chalk');
  chalk.level = Math.max(chalk.level, 1) as typeof chalk.level;
}
