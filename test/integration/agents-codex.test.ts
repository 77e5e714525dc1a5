import { evidenceSuite, recipeSuite } from '../agents/phases.js';

// Codex CLI under amux, against a mock OpenAI Responses API on 127.0.0.1 (ADR 0051; README "Agents").
// Today it is `working (serving)` throughout (its TUI listens on a loopback port of its own), and
// `send` types the text without submitting it (paste-burst detection takes the Enter as text).
const evidence = 'issue 30: needs h-evidence (a listening socket beside the terminal is not serving) or h-osc (OSC 7501)';
evidenceSuite('codex', {
  'start-up': evidence,
  prompt: 'issue 30: needs h-send (Enter as its own key once the text is taken)',
  streaming: evidence,
  'turn end': evidence,
  'tool run': evidence,
  'approval dialog': evidence,
});
recipeSuite('codex', { declared: 'issue 30: needs h-send (the prompt is typed, never submitted)' });
