import { evidenceSuite, recipeSuite } from '../agents/phases.js';

// Codex CLI under amux, against a mock OpenAI Responses API on 127.0.0.1 (ADR 0051; src/guides/agents.md).
// Its OSC 7501 reports declare its turns (`working`, `done`, `blocked`; ADR 0049). A look acts on
// the newest report, and the `idle` it writes once text is in its composer is stale when the
// Enter goes in (ADR 0060): no `ready` at the start of a turn.
evidenceSuite('codex');
recipeSuite('codex');
