import type { AttentionSource } from './attention-scan.js';
import type { Decision } from './status-rules.js';
import type { SessionStatus } from './status.js';

/**
 * "It needs you" (src/guides/statuses.md: attention and declared states; ADR 0034): what a session's
 * program asked of a person, and the state it declared with `amux state`. The rules are pure and
 * live here; the daemon stores the fields in the session's row.
 */

export const DECLARED_STATES = ['working', 'waiting', 'ready'] as const;
export type DeclaredState = (typeof DECLARED_STATES)[number];

export function isDeclaredState(v: string): v is DeclaredState {
  return (DECLARED_STATES as readonly string[]).includes(v);
}

/** Who declared: `command` (`amux state` or its API request), `osc7501` (the program's OSC 7501 report, ADR 0049). */
export type DeclaredSource = 'command' | 'osc7501';

/** An attention that stands for a declared `waiting` (`amux state waiting`, OSC 7501 `blocked`): it ends with the declaration. */
export function isDeclaredAttention(source: AttentionSource | null): boolean {
  return source === 'declared' || source === 'osc7501';
}

/** The row's fields of attention and of a declared state (all null: none). */
export interface AttentionFields {
  /** When the program asked for attention (epoch ms); null: it does not. */
  attentionAt: number | null;
  attentionSource: AttentionSource | null;
  attentionTitle: string | null;
  attentionMessage: string | null;
  /** The session log's offset up to which it was searched for signals (persisted: a daemon restart reads on from here). */
  attentionOffset: number;
  declaredState: DeclaredState | null;
  declaredMessage: string | null;
  declaredAt: number | null;
  /** The declaration lapses at this time (`--ttl`); null: no TTL. */
  declaredUntil: number | null;
  /** The terminal's foreground process group when it was declared: once another group has the terminal, the program ended. */
  declaredPgid: number | null;
  /** Who declared it; null with no declaration (and for a row of before ADR 0049: `command`). */
  declaredSource: DeclaredSource | null;
  /** The window title its programs set last (OSC 0, OSC 2), as written; null: none (ADR 0050). */
  title: string | null;
}

export const NO_ATTENTION: AttentionFields = {
  attentionAt: null, attentionSource: null, attentionTitle: null, attentionMessage: null, attentionOffset: 0,
  declaredState: null, declaredMessage: null, declaredAt: null, declaredUntil: null, declaredPgid: null, declaredSource: null, title: null,
};

/** The patch that clears an attention. */
export const CLEARED_ATTENTION: Partial<AttentionFields> = { attentionAt: null, attentionSource: null, attentionTitle: null, attentionMessage: null };
/** The patch that ends a declaration. */
export const ENDED_DECLARATION: Partial<AttentionFields> = { declaredState: null, declaredMessage: null, declaredAt: null, declaredUntil: null, declaredPgid: null, declaredSource: null };

/** The status a declared state stands for: `waiting` and `ready` are idle (waiting also asks for attention), `working` is working. */
export function declaredStatus(state: DeclaredState): 'working' | 'idle' {
  return state === 'working' ? 'working' : 'idle';
}

/** The reason shown for a declared state: `declared: MESSAGE`, or `declared: STATE` without a message. */
export function declaredReason(f: Pick<AttentionFields, 'declaredState' | 'declaredMessage'>): string {
  return `declared: ${f.declaredMessage ?? f.declaredState}`;
}

/** The declaration in force at `now`, or null (none, or its TTL ran out). */
export function activeDeclaration(f: AttentionFields, now: number): DeclaredState | null {
  if (f.declaredState === null) return null;
  if (f.declaredUntil !== null && now >= f.declaredUntil) return null;
  return f.declaredState;
}

/**
 * A declared state wins over evidence (ADR 0034): a decision of the evidence (working or idle) of
 * a session with a declaration in force becomes the declared status, with its reason. Ends,
 * pauses and everything else pass unchanged.
 */
export function overDeclared(current: SessionStatus, f: AttentionFields, d: Decision, now: number): Decision {
  const state = activeDeclaration(f, now);
  if (state === null || current === 'paused' || (d.status !== 'working' && d.status !== 'idle')) return d;
  return { status: declaredStatus(state), reason: declaredReason(f) };
}

/**
 * Whether new output clears an attention from the terminal (ADR 0034): printable output after the
 * signal, seen in a later look than the one that found it and at least ATTENTION_SETTLE_MS after
 * it (a prompt printed with its bell does not clear it). Output never clears attention while the
 * program declares `waiting` (a bell it rang then included).
 */
export const ATTENTION_SETTLE_MS = 1000;
export function outputClears(f: AttentionFields, visible: boolean, now: number): boolean {
  return visible && f.attentionAt !== null && !isDeclaredAttention(f.attentionSource) && now - f.attentionAt >= ATTENTION_SETTLE_MS
    && activeDeclaration(f, now) !== 'waiting';
}
