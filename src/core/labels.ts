import { AmuxError } from '../errors.js';

/** A session's labels (src/guides/sessions.md "Restart, labels, groups"): `run -l KEY=VALUE`, as docker's `--label`. */
export type Labels = Record<string, string>;

const LABEL_KEY = /^[A-Za-z0-9][A-Za-z0-9._/-]{0,62}$/;
const MAX_VALUE = 256;
export const MAX_LABELS = 32;

/** Checks one key and value; the error names the label and what is allowed. */
export function checkLabel(key: string, value: string): void {
  if (!LABEL_KEY.test(key)) {
    throw new AmuxError('invalid_argument', `invalid label key ${JSON.stringify(key.slice(0, 80))}: use 1-63 characters from A-Z a-z 0-9 . _ / -, starting with a letter or digit`);
  }
  if (value.length > MAX_VALUE || /[\0-\x1f\x7f]/.test(value)) {
    throw new AmuxError('invalid_argument', `invalid value for label ${key}: at most ${MAX_VALUE} characters, no control characters`);
  }
}

/** All labels of a request: at most MAX_LABELS, each checked. */
export function checkLabels(labels: Labels): Labels {
  const keys = Object.keys(labels);
  if (keys.length > MAX_LABELS) throw new AmuxError('invalid_argument', `at most ${MAX_LABELS} labels per session (got ${keys.length})`);
  for (const k of keys) checkLabel(k, labels[k]!);
  return labels;
}

/** `-l KEY=VALUE` (repeatable; `-l KEY` is KEY with an empty value). */
export function parseLabelArg(arg: string, previous: Labels = {}): Labels {
  const eq = arg.indexOf('=');
  const key = eq < 0 ? arg : arg.slice(0, eq);
  const value = eq < 0 ? '' : arg.slice(eq + 1);
  try {
    checkLabel(key, value);
  } catch (err) {
    throw new AmuxError('usage', `${(err as AmuxError).message} (--label KEY=VALUE)`);
  }
  return { ...previous, [key]: value };
}

/** Labels as one text: `k=v,k2=v2`, keys sorted (the `LABELS` column, `{{.Labels}}`). */
export function labelsText(labels: Labels): string {
  return Object.keys(labels).sort().map((k) => (labels[k] === '' ? k : `${k}=${labels[k]}`)).join(',');
}
