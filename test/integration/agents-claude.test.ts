import { evidenceSuite, recipeSuite } from '../agents/phases.js';

// Claude Code under amux, against a mock Anthropic API on 127.0.0.1 (ADR 0051; src/guides/agents.md).
// Its start-up, streaming, turn end and tool run rest on ADR 0061: the terminal beside a watch, a
// main thread on a passing lock, a conversation judged by the bytes on its connections.
evidenceSuite('claude', {
  // Passed in 10 of 11 runs under load 19-36; the one miss saw `working` right after the first idle
  // at start-up, its reason not recorded (the assertion now prints the changes it saw).
  'start-up': 'issue 30: right in 10 of 11 runs; one start-up flipped to working after its first idle (cause not known yet)',
  // A fresh-clone CI run of the merged build saw `idle (reading the terminal)` 2.2 s before the
  // stream's last byte (its helper's 11 runs had none): ADR 0061's conversation rule misses now and then.
  streaming: 'issue 30: idle 2.2 s before the last byte in 1 CI run (ADR 0061 did not see the stream at one look)',
});
recipeSuite('claude');
