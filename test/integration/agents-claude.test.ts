import { evidenceSuite, recipeSuite } from '../agents/phases.js';

// Claude Code under amux, against a mock Anthropic API on 127.0.0.1 (ADR 0051; README "Agents").
// Its start-up, streaming, turn end and tool run rest on ADR 0061: the terminal beside a watch, a
// main thread on a passing lock, a conversation judged by the bytes on its connections.
evidenceSuite('claude');
recipeSuite('claude');
