import { evidenceSuite, recipeSuite } from '../agents/phases.js';

// Codex CLI under amux, against a mock OpenAI Responses API on 127.0.0.1 (ADR 0051; src/guides/agents.md).
// Open (issue 30): Codex writes OSC 7501 `state=idle` in the middle of a turn (its hidden
// title-generation turn ends), which ADR 0049 reads as `ready`: idle 1.6-2.6 s early in tool turns,
// and the approval dialog's turn likewise.
const announcedEarly = 'issue 30: Codex announces idle (OSC 7501) when its hidden title turn ends, mid-turn';
evidenceSuite('codex', {
  streaming: announcedEarly,
  'turn end': announcedEarly,
  'tool run': announcedEarly,
  'approval dialog': announcedEarly,
});
recipeSuite('codex', { declared: announcedEarly });
