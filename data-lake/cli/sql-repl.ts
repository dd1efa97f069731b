import { createInterface } from 'node:readline';
import { formatTable } from './format-table.ts';
import type { SqlSession } from './sql-session.ts';

const HELP = [
  'End each statement with ";". Tables are views over the snapshot\'s Parquet files.',
  '  .tables   the tables and their files',
  '  .quit     leave (or Ctrl-D)',
].join('\n');

/** An interactive SQL prompt over a session: reads statements line by line, prints each result as a table. */
export async function runRepl(
  session: SqlSession,
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
): Promise<void> {
  const rl = createInterface({ input, output, prompt: 'lake> ' });
  const print = (text: string) => output.write(`${text}\n`);
  print(`snapshot ${session.snapshotId}; .tables lists tables, .quit leaves. ${HELP.split('\n')[0]}`);
  let buffer = '';
  // Lines pasted after .quit are already queued: they are not run.
  let left = false;
  let busy: Promise<void> = Promise.resolve();
  rl.prompt();
  rl.on('line', (line) => {
    busy = busy.then(async () => {
      if (left) return;
      const trimmed = line.trim();
      // Leaving works mid-statement too: what was typed of it is dropped, and said so.
      if (trimmed === '.quit' || trimmed === '.exit') {
        if (buffer !== '') print('(the unfinished statement was not run)');
        left = true;
        return void rl.close();
      }
      if (buffer === '' && trimmed.startsWith('.')) {
        if (trimmed === '.tables')
          session.tables.forEach((t) => print(`${t.name}  read_parquet('${t.file}')`));
        else print(HELP);
      } else if (trimmed !== '' || buffer !== '') {
        buffer += `${line}\n`;
        if (!trimmed.endsWith(';')) {
          rl.setPrompt('  ...> ');
          rl.prompt();
          return;
        }
        const sql = buffer;
        buffer = '';
        try {
          for (const result of await session.query(sql)) print(formatTable(result.columns, result.rows));
        } catch (error) {
          print(`error: ${(error as Error).message}`);
        }
      }
      rl.setPrompt('lake> ');
      rl.prompt();
    });
  });
  await new Promise<void>((resolve) => rl.on('close', () => void busy.then(resolve)));
}
