import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { AmuxError, EXIT } from '../../errors.js';

/**
 * The demo stack `amux up --example DIR` writes (README "Stacks", ADR 0065): a stack file and the
 * scripts it runs, node only, shipped inside the CLI bundle so that an installed package has them.
 * No fixed port: the API listens where the system puts it and tells the others through a file, so
 * two copies of the demo can run side by side.
 */
export const EXAMPLE_FILES: Readonly<Record<string, string>> = {
  'amux.yaml': `# A demo stack (amux up --example): run 'amux up' here (Ctrl-C stops it), or 'amux up -d' and 'amux down'.
sessions:
  api:
    command: node api.js
    ready: { until: "output:listening on", timeout: 30s }
    restart: on-failure
  migrate:
    command: node migrate.js
    depends_on: { api: ready }
  worker:
    command: node worker.js
    depends_on: { migrate: completed, api: ready }
`,
  'api.js': `// The demo's API: answers /health; writes the port it listens on to .api-port for the others.
const http = require('node:http');
const fs = require('node:fs');
const server = http.createServer((req, res) => {
  res.writeHead(req.url === '/health' ? 200 : 404, { 'content-type': 'text/plain' });
  res.end(req.url === '/health' ? 'ok\\n' : 'not found\\n');
});
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const { port } = server.address();
  fs.writeFileSync('.api-port', String(port));
  console.log(\`api: listening on http://127.0.0.1:\${port}\`);
});
`,
  'migrate.js': `// The demo's migration: asks the API for /health, then exits 0 (or 1 when it does not answer).
const port = require('node:fs').readFileSync('.api-port', 'utf8').trim();
require('node:http').get(\`http://127.0.0.1:\${port}/health\`, (res) => {
  console.log(\`migrate: api answered \${res.statusCode}; migrated\`);
  process.exit(res.statusCode === 200 ? 0 : 1);
}).on('error', (err) => {
  console.error(\`migrate: \${err.message}\`);
  process.exit(1);
});
`,
  'worker.js': `// The demo's worker: starts once the migration completed and the API is ready; ticks until stopped.
let n = 0;
console.log('worker: started');
setInterval(() => console.log(\`worker: tick \${++n}\`), 2000);
`,
};

/** Writes the demo stack into `dir` (made if missing); a directory that is not empty is refused (exit 2). */
export function writeExample(dir: string): number {
  const at = resolve(dir);
  let entries: string[] = [];
  try {
    entries = readdirSync(at);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOTDIR') throw new AmuxError('usage', `up --example: ${dir} is a file, not a directory`);
    if (code !== 'ENOENT') throw err;
  }
  if (entries.length > 0) throw new AmuxError('usage', `up --example: ${dir} is not empty; give a new or empty directory`);
  mkdirSync(at, { recursive: true });
  for (const [name, text] of Object.entries(EXAMPLE_FILES)) writeFileSync(join(at, name), text, { flag: 'wx' });
  process.stdout.write(`${Object.keys(EXAMPLE_FILES).map((n) => join(dir, n)).join('\n')}\n`);
  process.stderr.write(`up: a demo stack; start it: cd ${dir} && amux up\n`);
  return EXIT.ok;
}
