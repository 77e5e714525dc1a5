import { evidenceSuite, recipeSuite } from '../agents/phases.js';

// Claude Code under amux, against a mock Anthropic API on 127.0.0.1 (ADR 0051; README "Agents").
evidenceSuite('claude', {
  // Its HTTP client reads on another thread while the main one waits on the terminal: amux says
  // idle mid-stream now and then (1 of 5 streamed answers in the benchmark).
  streaming: 'issue 30: needs h-evidence (a thread reading a socket with data arriving keeps the session working)',
});
recipeSuite('claude');
