import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { amuxHome, BIN } from '../helpers/amux.js';
import { mcpEnv } from '../helpers/mcp.js';

/*
 * amux mcp with a client its authors did not write: the official Python SDK (issue 34). Its
 * newest revision (2026-07-28 in mcp 2.3) is not one the TypeScript SDK amux is built on offers,
 * so the two settle on the newest they share. The package is not installed by the suite (an
 * install is slow and needs the Python registry): AMUX_TEST_PYTHON names an interpreter that has
 * it (default python3); without it, the test is skipped and says why.
 */

const PYTHON = process.env.AMUX_TEST_PYTHON ?? 'python3';
const SCRIPT = join(__dirname, '..', '..', '..', 'test', 'fixtures', 'mcp', 'python_client.py');
const probe = spawnSync(PYTHON, ['-c', 'import mcp, anyio'], { encoding: 'utf8' });
const skip = probe.status === 0 ? false : `no Python MCP SDK: '${PYTHON} -c "import mcp"' failed (pip install mcp, or set AMUX_TEST_PYTHON)`;

describe('the official Python MCP SDK as the client', { skip }, () => {
  const h = amuxHome({ after });

  test('negotiates a revision both offer, lists the tools, runs and pages', () => {
    const r = spawnSync(PYTHON, [SCRIPT, process.execPath, BIN], { env: mcpEnv(h), encoding: 'utf8', timeout: 120_000 });
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout.trim().split('\n').pop()!);
    assert.ok(SUPPORTED_PROTOCOL_VERSIONS.includes(out.protocol), `negotiated ${out.protocol}`);
    assert.ok(out.tools.includes('read_output') && out.tools.includes('exec'), JSON.stringify(out.tools));
    assert.deepEqual(out.run, { error: false, done: true });
    assert.equal(out.page.error, false);
    assert.equal(out.page.more, false);
    assert.ok(out.page.texts.some((t: string) => t.includes('from-python')), JSON.stringify(out.page));
  });
});
