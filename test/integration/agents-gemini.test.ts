import { evidenceSuite } from '../agents/phases.js';

// gemini under amux, against a mock API on 127.0.0.1 (ADR 0051; README "Agents").
evidenceSuite('gemini');

