import { evidenceSuite, recipeSuite } from '../agents/phases.js';

// Claude Code under amux, against a mock Anthropic API on 127.0.0.1 (ADR 0051; src/guides/agents.md).
// Open (issue 30), each seen in a CI-like run of the merged build:
const network = 'issue 30: after a turn, working (network) until the API closes its idle connections (ADR 0048 counts the HTTP thread\'s wake-ups as traffic)';
evidenceSuite('claude', {
  // now and then `working (watching files)` at its prompt: a wait with an inotify watch ranks above the terminal
  'start-up': 'issue 30: at its prompt sometimes working (watching files), an inotify watch beside the terminal',
  // still idle mid-stream now and then (2 s before the last byte in 1 run): ADR 0048's thread rule does not always see the stream
  streaming: 'issue 30: idle mid-stream now and then (the HTTP thread is not always seen receiving)',
  'turn end': network,
  'tool run': network,
});
recipeSuite('claude');
