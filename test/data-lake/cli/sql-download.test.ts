import { localLake } from '../../../data-lake/lake.ts';
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect } from 'vitest';
import { it } from '../../support/temp-dir.ts';
import { z } from 'zod';
import { sqlCommand } from '../../../data-lake/cli/sql-command.ts';
import { downloadServedLake } from '../../../data-lake/cli/sql-download.ts';
import { snapshotDir } from '../../../data-lake/lake-paths.ts';
import { readManifest } from '../../../data-lake/manifest-file.ts';
import { createLakeApi } from '../../../serve/lake/lake-api.ts';
import { lakeServerForSpecs } from '../../support/serve-lake-fixture.ts';

const KEY = 'sql-download-key-0123456789abcdef';
const SNAPSHOT = 'sql-download';

// A real server publishing a lake of heat-pump quotes and the fixture programs table.
const server = lakeServerForSpecs(SNAPSHOT, {
  tables: () => [
    {
      name: 'heat_pump_quotes',
      row: z.object({ state: z.string(), usd: z.number() }),
      rows: [
        { state: 'MA', usd: 14_500 },
        { state: 'MA', usd: 17_250 },
        { state: 'RI', usd: 13_900 },
      ],
    },
  ],
  routeGroups: () => [createLakeApi()],
  key: KEY,
});

let listingUrl: string;
let into: string;
it.beforeAll(async ({ fileTempDir }) => {
  listingUrl = `${await server().app.listen({ port: 0, host: '127.0.0.1' })}/api/v1/lake`;
  into = fileTempDir;
});

const lakeFile = (table: string) => path.join(snapshotDir(server().lakeDir, SNAPSHOT), `${table}.parquet`);

/** `npm run sql` with these arguments and LAKE_API_KEY, run from `cwd`. */
async function sql(argv: string[], env: { apiKey?: string; cwd: string }) {
  const output = { stdout: '', stderr: '' };
  const stdout = new PassThrough().on('data', (chunk: Buffer) => (output.stdout += chunk.toString()));
  const stderr = new PassThrough().on('data', (chunk: Buffer) => (output.stderr += chunk.toString()));
  const stdin = new PassThrough();
  stdin.end();
  const code = await sqlCommand(argv, localLake('/no/local/lake'), { stdin, stdout, stderr }, env);
  return { code, ...output };
}

describe('npm run sql -- --url (a served lake, downloaded)', () => {
  it("downloads every table of the server's snapshot, byte for byte, and queries them", async () => {
    const { code, stdout, stderr } = await sql(
      [
        '--url',
        listingUrl,
        '--into',
        'downloads',
        '-c',
        'SELECT state, count(*) AS quotes FROM heat_pump_quotes GROUP BY 1 ORDER BY 1',
      ],
      { apiKey: KEY, cwd: into },
    );
    expect(code).toBe(0);
    expect(stdout).toBe(
      ['state | quotes', '------+-------', 'MA    | 2', 'RI    | 1', '(2 rows)', ''].join('\n'),
    );
    // --into is relative to where the command was run.
    const dir = path.join(into, 'downloads', SNAPSHOT);
    expect(stderr).toBe(
      [
        `-- snapshot ${SNAPSHOT}: one view per table, reading`,
        `--   heat_pump_quotes: read_parquet('${path.join(dir, 'heat_pump_quotes.parquet')}')`,
        `--   programs: read_parquet('${path.join(dir, 'programs.parquet')}')`,
        '',
      ].join('\n'),
    );
    for (const table of ['programs', 'heat_pump_quotes'])
      expect(
        (await readFile(path.join(dir, `${table}.parquet`))).equals(await readFile(lakeFile(table))),
      ).toBe(true);
  });

  it('keeps a file already downloaded with the listed SHA-256, and fetches only the tables asked for', async ({
    tempDir: target,
  }) => {
    const first = await downloadServedLake({
      listingUrl,
      key: KEY,
      into: target,
      tables: ['heat_pump_quotes'],
    });
    expect(first).toEqual({
      snapshotId: SNAPSHOT,
      tables: [{ name: 'heat_pump_quotes', file: path.join(target, SNAPSHOT, 'heat_pump_quotes.parquet') }],
    });
    const written = (await stat(first.tables[0]!.file)).mtimeMs;
    await downloadServedLake({ listingUrl, key: KEY, into: target, tables: ['heat_pump_quotes'] });
    expect((await stat(first.tables[0]!.file)).mtimeMs).toBe(written);
    await expect(
      downloadServedLake({ listingUrl, key: KEY, into: target, tables: ['heat_pumps'] }),
    ).rejects.toThrow(`no table heat_pumps in snapshot ${SNAPSHOT}; it has heat_pump_quotes, programs`);
  });

  it('takes the key only from LAKE_API_KEY, and says what to do when it is missing or refused', async () => {
    await expect(sql(['--url', listingUrl, '-c', 'SELECT 1'], { cwd: into })).rejects.toThrow(
      '--url reads the API key from LAKE_API_KEY (export LAKE_API_KEY=…): npm prints a command line, key included',
    );
    await expect(downloadServedLake({ listingUrl, key: 'a-revoked-key-0123456789', into })).rejects.toThrow(
      `GET ${listingUrl} (the lake listing) answered 401, "Invalid or revoked API key: send the header ` +
        `"Authorization: Bearer <key>", with the key the server printed on its first npm start or one made with ` +
        `"npm run keys -- create --name <name>" where the server runs": check LAKE_API_KEY (a key from npm run ` +
        `keys -- create)`,
    );
    await expect(
      sql(['--url', listingUrl, '--snapshot', SNAPSHOT], { apiKey: KEY, cwd: into }),
    ).rejects.toThrow('--snapshot names a snapshot of the local lake, not of --url');
  });

  it('names a server it cannot reach', async () => {
    const closed = await listeningServer(() => {});
    await new Promise((resolve) => closed.server.close(resolve));
    await expect(downloadServedLake({ listingUrl: closed.listingUrl, key: KEY, into })).rejects.toThrow(
      new RegExp(`^cannot reach ${closed.listingUrl} for the lake listing: connect ECONNREFUSED`),
    );
  });
});

describe('a download that is not the listed snapshot’s bytes', () => {
  /** A server answering the listing of the real one, and `file` for every table file. */
  async function misbehaving(file: (snapshotId: string) => { snapshotId: string; body: Buffer }) {
    const listing = await (await fetch(listingUrl, { headers: { authorization: `Bearer ${KEY}` } })).json();
    return listeningServer((request, response) => {
      if (request.url === '/api/v1/lake') {
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify(listing));
        return;
      }
      const { snapshotId, body } = file(SNAPSHOT);
      response.setHeader('x-snapshot-id', snapshotId);
      response.end(body);
    });
  }

  it('fails, keeping nothing, when a new snapshot was published between the listing and a file', async ({
    tempDir: target,
  }) => {
    const stub = await misbehaving(() => ({ snapshotId: 'published-meanwhile', body: Buffer.from('PAR1') }));
    try {
      await expect(
        downloadServedLake({ listingUrl: stub.listingUrl, key: KEY, into: target }),
      ).rejects.toThrow(
        `table heat_pump_quotes came from snapshot published-meanwhile, not ${SNAPSHOT}: a new snapshot was published while downloading; run the command again`,
      );
      expect(await readdirOrEmpty(path.join(target, SNAPSHOT))).toEqual([]);
    } finally {
      stub.server.close();
    }
  });

  it('fails, keeping nothing, when the bytes are not those the listing describes', async ({
    tempDir: target,
  }) => {
    const { sha256 } = (await readManifest(snapshotDir(server().lakeDir, SNAPSHOT))).tables.heat_pump_quotes!;
    const { size } = await stat(lakeFile('heat_pump_quotes'));
    const body = Buffer.from('PAR1 not the programs table');
    const stub = await misbehaving((snapshotId) => ({ snapshotId, body }));
    try {
      await expect(
        downloadServedLake({ listingUrl: stub.listingUrl, key: KEY, into: target }),
      ).rejects.toThrow(
        `table heat_pump_quotes: received ${body.length} bytes with SHA-256 ` +
          `${createHash('sha256').update(body).digest('hex')}, the listing says ${size} bytes with ${sha256}`,
      );
      expect(await readdirOrEmpty(path.join(target, SNAPSHOT))).toEqual([]);
    } finally {
      stub.server.close();
    }
  });
});

/** The files of a directory, none when it does not exist. */
const readdirOrEmpty = (dir: string): Promise<string[]> => readdir(dir).catch(() => []);

async function listeningServer(
  handler: Parameters<typeof createServer>[1],
): Promise<{ server: Server; listingUrl: string }> {
  const stub = createServer(handler);
  await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', resolve));
  const { port } = stub.address() as { port: number };
  return { server: stub, listingUrl: `http://127.0.0.1:${port}/api/v1/lake` };
}
