import { evidenceSuite, recipeSuite } from '../agents/phases.js';

// Claude Code under amux, against a mock Anthropic API on 127.0.0.1 (ADR 0051; src/guides/agents.md).
// Its start-up, streaming, turn end and tool run rest on ADR 0061: the terminal beside a watch, a
// main thread on a passing lock, a conversation judged by the bytes on its connections; and on ADR
// 0048's amendment: CPU measured over a quick look at least (a look 4 ms after another found its
// main thread back on the terminal and no tick used: the start-up flip and the early idle of
// streaming that kept these two phases todo).
evidenceSuite('claude');
recipeSuite('claude');
