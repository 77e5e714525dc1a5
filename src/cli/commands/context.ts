import { AmuxError } from '../../errors.js';
import { amuxPaths } from '../../paths.js';
import { addContext, currentContext, listContexts, readConfigFile, removeContext, useContext, validContextName } from '../contexts.js';
import { formatTable, printJson, writeOut } from '../output.js';

/** `amux context add NAME URL | ls | rm NAME | use NAME` (src/guides/remote.md). */
export async function contextCommand(action: string, args: string[], opts: { json?: boolean }): Promise<number> {
  const paths = amuxPaths();
  const want = (n: number, usage: string) => {
    if (args.length !== n) throw new AmuxError('usage', `usage: amux context ${usage}`);
  };
  switch (action) {
    case 'add': {
      want(2, 'add NAME ssh://[user@]host[:port]');
      const name = validContextName(args[0]!);
      const { parseHostUrl } = require('../../client/ssh.js') as typeof import('../../client/ssh.js');
      const host = parseHostUrl(args[1]!).url;
      addContext(paths, name, host);
      await writeOut(`${name}\n`);
      return 0;
    }
    case 'ls': {
      want(0, 'ls [--json]');
      const config = readConfigFile(paths);
      const current = currentContext(config);
      const all = listContexts(config);
      if (opts.json) printJson(all.map((c) => ({ ...c, current: c.name === current })));
      else await writeOut(formatTable(['NAME', 'HOST', 'CURRENT'], all.map((c) => [c.name, c.host ?? '(this machine)', c.name === current ? '*' : ''])));
      return 0;
    }
    case 'rm': {
      want(1, 'rm NAME');
      if (removeContext(paths, args[0]!)) process.stderr.write(`amux: '${args[0]}' was the current context; now it is 'local'\n`);
      await writeOut(`${args[0]}\n`);
      return 0;
    }
    case 'use': {
      want(1, 'use NAME');
      useContext(paths, args[0]!);
      await writeOut(`${args[0]}\n`);
      return 0;
    }
    default:
      throw new AmuxError('usage', `unknown context action '${action}': use add, ls, rm or use`);
  }
}
