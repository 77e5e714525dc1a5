/**
 * What a stack file says (ADR 0035), once checked: plain data for the planner and the runner.
 * Times are in ms; paths are as written (resolved against the file's directory when planned).
 */
export type Condition = 'started' | 'ready' | 'completed' | 'exited';
export const CONDITIONS: readonly Condition[] = ['started', 'ready', 'completed', 'exited'];

export type ReadyProbe =
  /** A wait of the daemon: `output:REGEX`, `idle` or `exited` (src/guides/sessions.md: wait --until). */
  | { kind: 'until'; until: string }
  /** An HTTP GET from this machine answering 2xx. */
  | { kind: 'http'; url: string }
  /** A shell command on this machine exiting 0. */
  | { kind: 'exec'; command: string };

export type ReadySpec = ReadyProbe & { timeoutMs: number; intervalMs: number };

export const READY_TIMEOUT_MS = 60_000;
export const READY_INTERVAL_MS = 1000;

export interface ServiceSpec {
  key: string;
  /** Its line in the file, for messages. */
  line: number;
  command?: string;
  argv?: string[];
  cwd?: string;
  env: Record<string, string>;
  envFiles: string[];
  dependsOn: Record<string, Condition>;
  ready?: ReadySpec;
  restart?: string;
  timeoutMs?: number;
  idleTimeoutMs?: number;
  labels: Record<string, string>;
  /** `group: NAME`: an existing session group, as `run -g` (ADR 0033); its line, for the message when it does not exist. */
  group?: { name: string; line: number };
}

export interface StackFile {
  /** The file's path as given or found, for messages. */
  file: string;
  /** The absolute directory of the file: relative cwd and env_file are resolved against it. */
  dir: string;
  format: 'yaml' | 'procfile';
  /** In the file's order. */
  services: ServiceSpec[];
}

/** Labels that amux sets on every session of a stack (src/guides/stacks.md); a file may not set them. */
export const STACK_LABEL = 'stack';
export const SERVICE_LABEL = 'service';
export const HASH_LABEL = 'stack.hash';
export const LEVEL_LABEL = 'stack.level';
export const isReservedLabel = (key: string) => key === STACK_LABEL || key === SERVICE_LABEL || key.startsWith('stack.');
