import { evidenceSuite, recipeSuite } from '../agents/phases.js';

// claude under amux, against a mock API on 127.0.0.1 (ADR 0051; README "Agents").
evidenceSuite('claude');
recipeSuite('claude');
