import type * as InkModule from 'ink';

/** ink's exports; ink is ESM-only and loaded by `amux top` alone (ADR 0008, ADR 0020). */
export type Ink = typeof InkModule;

/**
 * Loads ink with a real dynamic import (our output is CommonJS). ink decides once, when it is
 * loaded, whether it runs in CI (`CI` or `CONTINUOUS_INTEGRATION` set), and then draws nothing
 * until it exits. `top` runs only on a terminal, so it hides those variables for that moment.
 */
export async function loadInk(): Promise<Ink> {
  const keys = ['CI', 'CONTINUOUS_INTEGRATION'] as const;
  const saved = keys.map((k) => process.env[k]);
  for (const k of keys) if (process.env[k] !== undefined) process.env[k] = 'false';
  try {
    return await import('ink');
  } finally {
    keys.forEach((k, i) => {
      if (saved[i] === undefined) delete process.env[k];
      else process.env[k] = saved[i];
    });
  }
}

/** With colour off (NO_COLOR, --no-color), chalk, which ink colours with, writes no colour codes at all. */
export async function colorOff(): Promise<void> {
  const { default: chalk } = await import('chalk');
  chalk.level = 0;
}
