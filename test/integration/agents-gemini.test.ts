import { evidenceSuite } from '../agents/phases.js';

// Gemini CLI under amux, against a mock Gemini API on 127.0.0.1 (ADR 0051; src/guides/agents.md).
// Its relaunch parent waits on an IPC socket to its child with a timer pending, and node's timer
// thread beside it: the child, which reads the terminal, is judged (ADR 0048, ADR 0062). Its
// first `send` once had its Enter taken as a newline; `send` waits for the echo of what the
// program read before the Enter (ADR 0047, amended).
evidenceSuite('gemini');
