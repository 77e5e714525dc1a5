import { evidenceSuite } from '../agents/phases.js';

// Gemini CLI under amux, against a mock Gemini API on 127.0.0.1 (ADR 0051; README "Agents").
// Today it is `working (network)` throughout (the relaunch parent waits on an IPC socket to its own
// child, which reads the terminal), and `send` types the text without submitting it.
const evidence = 'issue 30: needs h-evidence (a socket to a process of the same session is followed to it)';
evidenceSuite('gemini', {
  'start-up': evidence,
  prompt: 'issue 30: needs h-send (Enter as its own key once the text is taken)',
  streaming: evidence,
  'turn end': evidence,
  'tool run': evidence,
  'approval dialog': evidence,
});
