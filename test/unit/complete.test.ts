import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { complete, formatAnswer, SPEC_FILE, type IdSource } from '../../src/cli/complete.js';
import { specOf } from '../../src/cli/completion-spec.js';
import { buildProgram } from '../../src/cli/program.js';
import type { JobView } from '../../src/protocol/jobs.js';
import type { SessionView } from '../../src/protocol/sessions.js';

const program = buildProgram(() => undefined);
const spec = specOf(program);

const session = (id: string, name: string | null, status = 'working'): SessionView =>
  ({ id, name, status, command: 'make', foreground: null }) as unknown as SessionView;
const job = (sessionId: string, seq: number): JobView => ({ id: `job-${sessionId}-${seq}`, status: 'completed', command: 'true' }) as unknown as JobView;

/** Two sessions (one named web), each with two jobs; counts the requests made. */
function fakeIds(): IdSource & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    sessions: async () => {
      calls.push('sessions');
      return [session('3f9a01bc', 'web'), session('77c82aab', null, 'completed')];
    },
    jobs: async (id) => {
      calls.push(`jobs ${id}`);
      return [job(id, 2), job(id, 1)];
    },
    contexts: () => ['local', 'gpu', 'gpu2'],
  };
}

async function values(words: string[], ids: IdSource = fakeIds()): Promise<string[]> {
  return (await complete(spec, words, ids)).candidates.map((c) => c.value);
}

describe('completion: commands and flags from commander', () => {
  test('the first word: every visible command, with its description', async () => {
    const answer = await complete(spec, [''], fakeIds());
    const names = program.commands.map((c) => c.name());
    assert.deepEqual(answer.candidates.map((c) => c.value).filter((v) => v !== 'help'), names);
    assert.ok(answer.candidates.find((c) => c.value === 'run')!.description!.startsWith('start a session'));
    assert.deepEqual(await values(['lo']), ['logs']);
    assert.deepEqual(await values(['--']), ['--version', '--no-color', '--host', '--context', '--help']);
  });

  test('flags of the command, long and short forms, from its definition', async () => {
    const logs = await values(['logs', '-']);
    for (const flag of ['-f', '--follow', '--stdout', '--stderr', '-n', '--tail', '--raw', '--screen', '--since-offset', '--limit', '--json', '--help']) {
      assert.ok(logs.includes(flag), `${flag} in ${logs.join(' ')}`);
    }
    assert.deepEqual(await values(['wait', '--un']), ['--until']);
    assert.deepEqual(await values(['--no-color', 'ps', '--no-t']), ['--no-trunc']);
    // A command without arguments to complete offers its flags on an empty word.
    assert.ok((await values(['stats', ''])).includes('--since'));
  });

  test('option values: statuses (a comma list), --until states, signals, send --when, daemon actions, shells', async () => {
    assert.deepEqual(await values(['ps', '--status', 'wo']), ['working']);
    assert.deepEqual(await values(['ps', '--status=wo']), ['--status=working']);
    assert.deepEqual(await values(['history', '--status', 'failed,ex']), ['failed,expired']);
    assert.ok(!(await values(['ps', '--status', 'idle,'])).includes('idle,idle'), 'a status already listed is not offered again');
    assert.deepEqual(await values(['jobs', 'sh', '--status', '']), ['running', 'completed', 'failed', 'killed']);
    assert.deepEqual(await values(['wait', 'x', '--until', '']), ['exited', 'idle', 'working', 'attention', 'waiting', 'ready', 'started', 'output:']);
    assert.ok((await values(['kill', '-s', ''])).includes('TERM'));
    assert.deepEqual(await values(['kill', '--signal', 'ki']), ['KILL']);
    assert.deepEqual(await values(['send', 'x', '--when', '']), ['idle', 'ready']);
    assert.deepEqual(await values(['daemon', 's']), ['start', 'stop', 'status']);
    assert.deepEqual(await values(['completion', '']), ['bash', 'zsh', 'fish']);
    assert.deepEqual(await values(['help', 'ex']), ['exec']);
    // A value with no fixed words (a duration, a name) has no candidates, and no flags either.
    assert.deepEqual(await values(['run', '--timeout', '']), []);
    assert.deepEqual(await values(['run', '-n', '']), []);
  });

  test('the shell completes files, directories and commands where amux takes them', async () => {
    assert.equal((await complete(spec, ['run', '-C', ''], fakeIds())).directive, 'dirs');
    assert.equal((await complete(spec, ['run', ''], fakeIds())).directive, 'commands');
    assert.equal((await complete(spec, ['run', '-w', '--', ''], fakeIds())).directive, 'commands');
    assert.equal((await complete(spec, ['run', '--', 'make', ''], fakeIds())).directive, 'files');
    // The command has begun: its own flags are not amux's.
    assert.equal((await complete(spec, ['run', 'ls', '-'], fakeIds())).directive, 'files');
    assert.equal((await complete(spec, ['exec', 'sh', '--', ''], fakeIds())).directive, 'commands');
    assert.equal((await complete(spec, ['exec', 'sh', '--', 'grep', '-'], fakeIds())).directive, 'files');
    // exec takes its options after ID, up to the command.
    assert.ok((await values(['exec', 'sh', '-'])).includes('--interactive'));
  });

  test('unknown commands and words after the last argument: nothing', async () => {
    assert.deepEqual(await complete(spec, ['bogus', ''], fakeIds()), { directive: '-', candidates: [] });
    assert.deepEqual(await values(['inspect', 'web', 'x']), []);
    assert.deepEqual(await values(['send', 'web', '--', '']), []);
  });
});

describe('completion: session and job ids', () => {
  test('session ids and names for a session argument, with status in the description', async () => {
    const answer = await complete(spec, ['inspect', ''], fakeIds());
    assert.deepEqual(answer.candidates.map((c) => c.value), ['3f9a01bc', 'web', '77c82aab']);
    assert.match(answer.candidates[0]!.description!, /working web: make/);
    assert.deepEqual(await values(['attach', 'w']), ['web']);
    assert.deepEqual(await values(['rm', '3f9a01bc', '7']), ['77c82aab'], 'a variadic argument goes on');
    assert.deepEqual(await values(['jobs', 'j']), [], 'jobs takes a session, not a job id');
  });

  test('job ids where a job is accepted (logs, wait, kill), only once the word reads as one', async () => {
    const ids = fakeIds();
    assert.deepEqual(await values(['logs', ''], ids), ['3f9a01bc', 'web', '77c82aab']);
    assert.deepEqual(ids.calls, ['sessions'], 'an empty word asks for no jobs');
    assert.deepEqual(await values(['logs', 'j']), ['job-3f9a01bc-2', 'job-3f9a01bc-1', 'job-77c82aab-2', 'job-77c82aab-1']);
    const narrowed = fakeIds();
    assert.deepEqual(await values(['kill', 'job-77'], narrowed), ['job-77c82aab-2', 'job-77c82aab-1']);
    assert.deepEqual(narrowed.calls, ['sessions', 'jobs 77c82aab'], "only the matching session's jobs are asked for");
    assert.deepEqual(await values(['wait', '--any', 'job-3f9a01bc-1']), ['job-3f9a01bc-1']);
  });

  test('no daemon: no ids, and the rest still completes', async () => {
    const down: IdSource = { sessions: async () => [], jobs: async () => [], contexts: () => ['local'] };
    assert.deepEqual(await values(['logs', ''], down), []);
    assert.deepEqual(await values(['logs', '--ra'], down), ['--raw']);
  });
});

describe('completion: contexts (src/guides/remote.md)', () => {
  test('--context NAME before the command, and context use/rm NAME, offer context names', async () => {
    assert.deepEqual(await values(['--context', '']), ['local', 'gpu', 'gpu2']);
    assert.deepEqual(await values(['--context', 'gp']), ['gpu', 'gpu2']);
    assert.deepEqual(await values(['--context=g']), ['--context=gpu', '--context=gpu2']);
    assert.deepEqual(await values(['context', 'use', 'g']), ['gpu', 'gpu2']);
    assert.deepEqual(await values(['--context', 'gpu', 'inspect', 'w']), ['web'], 'the value of --context is not taken for the command');
  });
  test('local:ID offers this daemon\'s sessions; another host\'s are not asked for', async () => {
    assert.deepEqual(await values(['wait', 'local:']), ['local:3f9a01bc', 'local:web', 'local:77c82aab']);
    assert.deepEqual(await values(['wait', 'local:w']), ['local:web']);
    const ids = fakeIds();
    assert.deepEqual(await values(['wait', 'gpu:'], ids), []);
    assert.deepEqual(ids.calls, []);
  });
});

describe('completion: the answer and the spec file', () => {
  test('a directive line, then VALUE<TAB>DESCRIPTION lines', () => {
    assert.equal(formatAnswer({ directive: '-', candidates: [{ value: 'a', description: 'x y' }, { value: 'b' }] }), '-\na\tx y\nb\n');
    assert.equal(formatAnswer({ directive: 'files', candidates: [] }), 'files\n');
  });

  test('the spec the build wrote is the one the program defines', () => {
    const written = JSON.parse(readFileSync(join(__dirname, '..', '..', 'src', 'cli', SPEC_FILE), 'utf8'));
    assert.deepEqual(written, JSON.parse(JSON.stringify(spec)));
  });

  test('every session argument is hinted: a command taking an id completes ids', () => {
    for (const cmd of spec.commands) {
      const def = program.commands.find((c) => c.name() === cmd.name);
      def?.registeredArguments.forEach((arg, i) => {
        if (/^ids?$/.test(arg.name())) assert.equal(cmd.args[i]!.hint?.kind, 'sessions', `${cmd.name} <${arg.name()}>`);
      });
    }
  });
});
