import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Where the guides are: `src/guides/TOPIC.md` of the repository, which the package ships as they
 * are (ADR 0063). This module is compiled to dist/src/cli/ and bundled into dist/src/cli/bundle-full.js:
 * from either, the package's root is three directories up.
 */
export const GUIDES_DIR = join(__dirname, '..', '..', '..', 'src', 'guides');

/** The topics there are, by file name, sorted. */
export function guideTopics(dir: string = GUIDES_DIR): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => /^[a-z][a-z0-9-]*\.md$/.test(f))
    .map((f) => f.slice(0, -'.md'.length))
    .sort();
}

/** The Markdown of one guide, or null when there is no such topic. */
export function readGuide(topic: string, dir: string = GUIDES_DIR): string | null {
  if (!guideTopics(dir).includes(topic)) return null;
  return readFileSync(join(dir, `${topic}.md`), 'utf8');
}
