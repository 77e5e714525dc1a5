import { parseDuration } from '../core/duration.js';
import { AmuxError } from '../errors.js';

/** Commander option parsers that fail with a usage error (exit 2) naming the flag. */
export function durationOption(flag: string) {
  return (value: string) => parseDuration(value, `${flag} duration`);
}

export function intOption(flag: string) {
  return (value: string) => {
    if (!/^\d+$/.test(value)) throw new AmuxError('usage', `invalid ${flag} '${value}': give a non-negative integer`);
    return Number(value);
  };
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** `-e KEY=VAL`, repeatable. */
export function envOption(value: string, previous: Record<string, string> = {}): Record<string, string> {
  const eq = value.indexOf('=');
  const key = eq < 0 ? value : value.slice(0, eq);
  if (!ENV_NAME.test(key)) {
    throw new AmuxError('usage', `invalid --env ${JSON.stringify(value)}: use KEY=VALUE with KEY made of letters, digits and _`);
  }
  if (eq < 0) {
    const inherited = process.env[key];
    if (inherited === undefined) throw new AmuxError('usage', `--env ${key}: no value given and ${key} is not set here; use ${key}=VALUE`);
    return { ...previous, [key]: inherited };
  }
  return { ...previous, [key]: value.slice(eq + 1) };
}
