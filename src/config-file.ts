import { renameSync } from 'node:fs';
import { AmuxError } from './errors.js';
import { readHomeFile, writeHomeFile } from './home.js';
import { ensureDir, type AmuxPaths } from './paths.js';

/**
 * AMUX_HOME/config.json (src/guides/configuration.md): the daemon's settings and the CLI's contexts in
 * one JSON object. Read and written here only, by the daemon (`amux config set`) and the CLI
 * (`amux context`).
 */
export type ConfigObject = Record<string, unknown>;

/** config.json as an object; {} when there is none. A file that is not a JSON object is an error naming it. */
export function readConfigFile(paths: AmuxPaths): ConfigObject {
  // Not blocking, not through a link, a regular file only (a FIFO would hang every command).
  const text = readHomeFile(paths.config);
  if (text === null) return {};
  try {
    const v = JSON.parse(text);
    if (v && typeof v === 'object' && !Array.isArray(v)) return v as ConfigObject;
  } catch {
    /* below */
  }
  throw new AmuxError('invalid_argument', `${paths.config} is not a JSON object; fix or remove it`);
}

/** Writes config.json whole (0600, never through a link), by a rename so that no reader sees half of it. */
export function writeConfigFile(paths: AmuxPaths, config: ConfigObject): void {
  ensureDir(paths.home);
  const tmp = `${paths.config}.${process.pid}.tmp`;
  writeHomeFile(tmp, `${JSON.stringify(config, null, 2)}\n`);
  renameSync(tmp, paths.config);
}
