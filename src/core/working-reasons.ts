/**
 * Every reason amux gives for `working` from the kernel's evidence (src/guides/statuses.md, ADR 0015,
 * ADR 0048): the one list that `ps --help`, `top --help`, the MCP `list` tool and src/guides/statuses.md's
 * table follow. Besides these, `output changed`, `recent output`, `input sent`, `declared: …`.
 */
export const WORKING_REASONS = ['cpu', 'disk', 'output', 'serving', 'watching files', 'network', 'sleeping', 'pipe', 'child', 'lock', 'terminal reply'] as const;
export type WorkingReason = (typeof WORKING_REASONS)[number];

/** The reasons as a person reads them in help texts. */
export const WORKING_REASONS_TEXT = `working (${WORKING_REASONS.join(', ')}; output changed, recent output) or idle (reading the terminal, at prompt, screen stable)`;
