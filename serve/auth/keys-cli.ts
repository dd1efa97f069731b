import { parseArgs } from 'node:util';
import { addKey, KeyCommandError, revokeKey } from './key-commands.ts';
import { readKeyFile, writeKeyFile } from './key-file.ts';
import { withKeyFileLock } from './key-file-lock.ts';

const USAGE = `usage: npm run keys -- create --name <name> [--reviewer]   (--reviewer: may read held snapshots)
       npm run keys -- list
       npm run keys -- revoke <id|name>`;

export interface KeysCliIo {
  out: (line: string) => void;
  err: (line: string) => void;
  now?: () => Date;
}

/** `npm run keys`: create, list and revoke API keys in the key file. Returns the process exit code. */
export async function runKeysCli(argv: string[], file: string, io: KeysCliIo): Promise<number> {
  const now = io.now ?? (() => new Date());
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: { name: { type: 'string' }, reviewer: { type: 'boolean' } },
      allowPositionals: true,
    });
  } catch (err) {
    io.err(`${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  const [command, ...rest] = parsed.positionals;
  try {
    switch (command) {
      case 'create': {
        if (parsed.values.name === undefined || rest.length > 0) break;
        const name = parsed.values.name;
        const reviewer = parsed.values.reviewer === true;
        const { key, stored } = await withKeyFileLock(file, async () => {
          const added = addKey(await readKeyFile(file), name, now(), { reviewer });
          await writeKeyFile(file, added.file);
          return added;
        });
        io.out(
          `Created API key ${stored.id} (name "${stored.name}"${reviewer ? ', may read held snapshots' : ''}). ` +
            'It is shown only this once:',
        );
        io.out(key);
        return 0;
      }
      case 'list': {
        if (rest.length > 0 || parsed.values.name !== undefined || parsed.values.reviewer) break;
        const { keys } = await readKeyFile(file);
        io.out(['id', 'name', 'created', 'revoked', 'reviewer'].join('\t'));
        for (const k of keys)
          io.out([k.id, k.name, k.createdAt, k.revokedAt ?? '-', k.reviewer ? 'yes' : 'no'].join('\t'));
        return 0;
      }
      case 'revoke': {
        if (rest.length !== 1 || parsed.values.name !== undefined || parsed.values.reviewer) break;
        const target = rest[0]!;
        const { revoked } = await withKeyFileLock(file, async () => {
          const result = revokeKey(await readKeyFile(file), target, now());
          await writeKeyFile(file, result.file);
          return result;
        });
        io.out(`Revoked API key ${revoked.id} (name "${revoked.name}")`);
        return 0;
      }
    }
  } catch (err) {
    if (!(err instanceof KeyCommandError)) throw err;
    io.err(`error: ${err.message}`);
    return 1;
  }
  io.err(USAGE);
  return 2;
}
