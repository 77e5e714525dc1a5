import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { PsOptions } from '../../src/cli/commands/ps.js';
import { parseFastPs } from '../../src/cli/fast-path.js';
import { buildProgram } from '../../src/cli/program.js';

/** What commander makes of the same argv for `ps` (its action is replaced, nothing runs). */
async function viaCommander(args: string[]): Promise<PsOptions> {
  const program = buildProgram(() => undefined);
  let seen: PsOptions | undefined;
  program.commands.find((c) => c.name() === 'ps')!.action((opts: PsOptions) => {
    seen = opts;
  });
  await program.parseAsync(['node', 'amux', ...args]);
  return seen!;
}

/** Commander fills defaults (trunc: true); the fast path leaves them out. Compare meaning. */
const meaning = (o: PsOptions) => ({ quiet: o.quiet === true, json: o.json === true, status: o.status, trunc: o.trunc !== false });

describe('parseFastPs agrees with commander', () => {
  const cases = [
    ['ps'],
    ['ps', '-q'],
    ['ps', '--quiet', '--json'],
    ['ps', '--status', 'working,idle'],
    ['ps', '--status=failed'],
    ['ps', '--no-trunc', '-q'],
    ['ps', '--no-color'],
  ];
  for (const args of cases) {
    test(args.join(' '), async () => {
      const fast = parseFastPs(args);
      assert.ok(fast, 'the fast path takes it');
      assert.deepEqual(meaning(fast), meaning(await viaCommander(args)));
    });
  }

  test('anything else goes to commander', () => {
    for (const args of [['ps', '--help'], ['ps', '-h'], ['ps', '-qa'], ['ps', '--status'], ['ps', '--status', '--json'], ['ps', 'extra'], ['run', 'ps'], [], ['--no-color', 'ps']]) {
      assert.equal(parseFastPs(args), null, args.join(' '));
    }
  });
});
