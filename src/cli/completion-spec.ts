import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Argument, Command, Option } from 'commander';
import { short, SPEC_FILE, type Spec, type SpecArgument, type SpecCommand, type SpecOption } from './complete.js';
import { guideTopics } from './guides.js';
import { hintOf } from './hints.js';

/**
 * The shape of the command line for completion, from commander's own definitions (ADR 0021):
 * every visible command with its flags and arguments, and the hints of `program.ts` for their
 * values. `npm run build` writes it next to the CLI (`writeSpec`); test/unit/complete.test.ts
 * checks that the file written is what the program defines.
 */
export function specOf(program: Command, topics: string[] = guideTopics()): Spec {
  const help = program.createHelp();
  const option = (o: Option): SpecOption => {
    const spec: SpecOption = { flags: [o.short, o.long].filter((f): f is string => !!f), description: short(o.description), value: o.required || o.optional };
    const hint = hintOf(o);
    if (hint) spec.hint = hint;
    return spec;
  };
  const argument = (a: Argument): SpecArgument => {
    const spec: SpecArgument = { variadic: a.variadic };
    const hint = hintOf(a);
    if (hint) spec.hint = hint;
    return spec;
  };
  const visible = help.visibleCommands(program);
  const names = visible.map((c) => c.name());
  const commands = visible.map((c): SpecCommand => ({
    name: c.name(),
    description: short(c.description()),
    options: help.visibleOptions(c).map(option),
    // `amux help COMMAND|TOPIC`: one of the other commands, or a guide (ADR 0063).
    args: c.name() === 'help' ? [{ variadic: false, hint: { kind: 'words', words: [...names.filter((n) => n !== 'help'), ...topics] } }] : c.registeredArguments.map(argument),
    passThrough: (c as unknown as { _passThroughOptions?: boolean })._passThroughOptions === true,
  }));
  return { options: help.visibleOptions(program).map(option), commands };
}

/** Writes the spec of the program into `dir` (the build: `node dist/src/cli/completion-spec.js dist/src/cli`). */
export function writeSpec(dir: string): void {
  const { buildProgram } = require('./program.js') as typeof import('./program.js');
  writeFileSync(join(dir, SPEC_FILE), `${JSON.stringify(specOf(buildProgram(() => undefined)))}\n`);
}

if (require.main === module) writeSpec(process.argv[2] ?? __dirname);
