/** Process entry of the detached daemon (`node dist/src/daemon/entry.js`). */
import { runDaemon } from './main.js';

void runDaemon();
