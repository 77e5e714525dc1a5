import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';

/** The repository's root, from dist/test/unit/. */
const ROOT = join(__dirname, '..', '..', '..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const GUIDES = join(ROOT, 'src', 'guides');

/** The text of the section under `## TITLE`, up to the next `## `. */
function section(markdown: string, title: string): string | null {
  const start = markdown.indexOf(`\n## ${title}\n`);
  if (start < 0) return null;
  const end = markdown.indexOf('\n## ', start + 1);
  return markdown.slice(start, end < 0 ? undefined : end);
}

describe('the README is the first ten minutes, and its map leads somewhere (ADR 0064)', () => {
  test('at most 300 lines', () => {
    const lines = README.split('\n').length;
    assert.ok(lines <= 300, `README.md has ${lines} lines; what goes beyond the first ten minutes belongs in a guide (src/guides/)`);
  });

  test('Quick start keeps its two commands, as CI runs them', () => {
    const quick = section(README, 'Quick start');
    assert.ok(quick, 'README.md has a "## Quick start" section');
    assert.match(quick, /^bash scripts\/setup\.sh {5}# installs tmux/m);
    assert.match(quick, /^npm test {18}# unit tests \+ integration tests against real tmux$/m);
  });

  test('every guide, amux help TOPIC and file the README names exists', () => {
    const topics = new Set(readdirSync(GUIDES).filter((f) => f.endsWith('.md')).map((f) => f.slice(0, -3)));
    const named = [...README.matchAll(/`amux help ([a-z-]+)`/g)].map((m) => m[1]!);
    assert.ok(named.length > 0);
    // A command's page is `amux help COMMAND` too (ADR 0063): its man page is built from the CLI.
    const commands = new Set(readdirSync(join(ROOT, 'dist', 'man')).map((f) => /^amux-(.+)\.1$/.exec(f)?.[1]).filter(Boolean));
    for (const topic of named) assert.ok(topics.has(topic) || commands.has(topic), `README names amux help ${topic}, but there is no src/guides/${topic}.md and no such command`);
    for (const [, path] of README.matchAll(/\]\(([^)#]+)\)/g)) {
      if (/^https?:/.test(path!)) continue;
      assert.ok(existsSync(join(ROOT, path!)), `README links ${path}, which does not exist`);
    }
  });

  test('the README says where logs -f -t and the more and truncated of logs --json are explained', () => {
    assert.match(README, /logs -f -t/);
    assert.match(README, /`more`/);
    assert.match(README, /`truncated`/);
    const sessions = readFileSync(join(GUIDES, 'sessions.md'), 'utf8');
    assert.match(sessions, /#### Following logs with times: `logs -f -t`/);
    assert.match(sessions, /\*\*`more`\*\* is true while/);
    assert.match(sessions, /\*\*`truncated`\*\* is true when older bytes/);
  });
});

describe('guides (src/guides/TOPIC.md)', () => {
  for (const file of readdirSync(GUIDES).filter((f) => f.endsWith('.md'))) {
    test(`${file}: a title, a one-line summary, and links that lead somewhere`, () => {
      const text = readFileSync(join(GUIDES, file), 'utf8');
      const [title, blank, summary, after] = text.split('\n');
      assert.match(title!, /^# \S/, `${file} starts with '# Title'`);
      assert.equal(blank, '');
      assert.ok(summary && summary.trim() !== '', `${file}: a summary line after the title`);
      assert.equal(after, '', `${file}: the summary is one line`);
      for (const [, path] of text.matchAll(/\]\(([^)#]+)\)/g)) {
        if (/^https?:/.test(path!)) continue;
        assert.ok(existsSync(join(GUIDES, path!)), `${file} links ${path}, which does not exist`);
      }
    });
  }
});
