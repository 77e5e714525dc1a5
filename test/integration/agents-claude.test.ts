import { evidenceSuite, recipeSuite } from '../agents/phases.js';

// Claude Code under amux, against a mock Anthropic API on 127.0.0.1 (ADR 0051; README "Agents").
evidenceSuite('claude', {
  // Open (issue 30): after a tool turn its HTTP thread keeps waking on its idle keep-alive
  // connections, and ADR 0048's conversation rule counts those wake-ups as traffic, so the session
  // stays `working (network)` until the server closes them (5 s here; a real API keeps them longer).
  'tool run': 'issue 30: after a tool turn, working (network) until the API closes its idle connections (ADR 0048 counts wake-ups)',
});
recipeSuite('claude');
