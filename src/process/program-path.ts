import { accessSync, constants, statSync } from 'node:fs';

/** `name`'s first executable on PATH, as a spawn would find it; `name` itself when it holds a `/` or is not found. */
export function onPath(name: string, path = process.env.PATH ?? ''): string {
  if (name.includes('/')) return name;
  for (const dir of path.split(':')) {
    if (!dir.startsWith('/')) return name; // a relative entry depends on the directory of the moment: left to the spawn
    const file = `${dir}/${name}`;
    try {
      accessSync(file, constants.X_OK);
      if (statSync(file).isFile()) return file;
    } catch {
      /* not here */
    }
  }
  return name;
}
