import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runRepl } from '../../../data-lake/cli/sql-repl.ts';
import type { SqlSession } from '../../../data-lake/cli/sql-session.ts';

/** A session over one table that answers every statement with the statement's text, to show what was run. */
function echoSession(ran: string[]): SqlSession {
  return {
    snapshotId: '20261201T000000000Z-abcdef12',
    tables: [{ name: 'incentives', file: '/lake/incentives.parquet' }],
    query: async (sql) => {
      ran.push(sql);
      return [{ columns: ['n'], rows: [[1]] }];
    },
    close: () => {},
  };
}

/** Types `lines` into the prompt and returns what it printed once it ended, and the statements it ran. */
async function typed(lines: string[]): Promise<{ printed: string; ran: string[] }> {
  const input = new PassThrough();
  const output = new PassThrough();
  let printed = '';
  output.on('data', (chunk: Buffer) => void (printed += chunk.toString()));
  const ran: string[] = [];
  const done = runRepl(echoSession(ran), input, output);
  input.end(lines.map((line) => `${line}\n`).join(''));
  await done;
  return { printed, ran };
}

describe('the npm run sql prompt', () => {
  it('runs a statement written over several lines once it ends with ";"', async () => {
    const { ran } = await typed(['SELECT count(*)', 'FROM incentives;']);
    expect(ran).toEqual(['SELECT count(*)\nFROM incentives;\n']);
  });

  it('leaves on .quit in the middle of a statement, running nothing and saying so', async () => {
    const { printed, ran } = await typed(['SELECT count(*) FROM incentives', '.quit', 'SELECT 1;']);
    expect(ran).toEqual([]);
    expect(printed).toContain('(the unfinished statement was not run)');
  });

  it('leaves on .exit at the prompt without a word', async () => {
    const { printed, ran } = await typed(['.exit', 'SELECT 1;']);
    expect(ran).toEqual([]);
    expect(printed).not.toContain('unfinished');
  });
});
