import { createHash } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomically } from '../../lib/fs/durable-file.ts';
import { lakeListingSchema, type LakeListing } from '../../schemas/lake-api.ts';

/*
 * Why download: a DuckDB without its httpfs extension (which it fetches from the internet on first use)
 * reads only local files, so `npm run sql -- --url` fetches a served lake's Parquet files, each in one
 * request, and opens its views over them. One request per file also means every file is of the snapshot
 * the listing named, which range reads across a publish cannot promise (docs/lake-over-http.md).
 */

/** The environment variable the key is read from: a command line would show it (npm prints the command). */
export const LAKE_API_KEY_VARIABLE = 'LAKE_API_KEY';

/** A served lake that could not be read: the message says what to change. */
export class LakeDownloadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LakeDownloadError';
  }
}

export interface DownloadedTable {
  name: string;
  /** The local copy of the table's Parquet file. */
  file: string;
}

export interface DownloadedLake {
  snapshotId: string;
  tables: DownloadedTable[];
}

export interface DownloadOptions {
  /** The server's lake listing, `http://host:3000/api/v1/lake`. */
  listingUrl: string;
  key: string;
  /** Files go to `<into>/<snapshot id>/<table>.parquet`; a file already there with the listed SHA-256 is kept. */
  into: string;
  /** Only these tables (default: every table of the listing). */
  tables?: readonly string[];
}

/** Downloads the tables of the snapshot a server publishes, each checked against the listing's size and SHA-256. */
export async function downloadServedLake(options: DownloadOptions): Promise<DownloadedLake> {
  const listing = lakeListingSchema.parse(
    await (await keyedGet(options.listingUrl, options.key, 'the lake listing')).json(),
  );
  const snapshotId = listing.snapshot.id;
  const dir = path.join(options.into, snapshotId);
  await mkdir(dir, { recursive: true });
  const tables = [];
  for (const table of chosenTables(listing, options.tables)) {
    const file = path.join(dir, `${table.name}.parquet`);
    if ((await sha256Of(file)) !== table.sha256) {
      const response = await keyedGet(
        new URL(table.url, options.listingUrl).href,
        options.key,
        `table ${table.name}`,
      );
      const servedFrom = response.headers.get('x-snapshot-id');
      if (servedFrom !== snapshotId) {
        await response.body?.cancel();
        throw new LakeDownloadError(
          `table ${table.name} came from snapshot ${servedFrom}, not ${snapshotId}: a new snapshot was published while downloading; run the command again`,
        );
      }
      await writeFileAtomically(file, async (handle) => {
        const hash = createHash('sha256');
        let bytes = 0;
        for await (const chunk of response.body!) {
          hash.update(chunk);
          bytes += chunk.length;
          await handle.write(chunk);
        }
        const sha256 = hash.digest('hex');
        if (bytes !== table.bytes || sha256 !== table.sha256) {
          throw new LakeDownloadError(
            `table ${table.name}: received ${bytes} bytes with SHA-256 ${sha256}, the listing says ${table.bytes} bytes with ${table.sha256}`,
          );
        }
      });
    }
    tables.push({ name: table.name, file });
  }
  return { snapshotId, tables };
}

function chosenTables(listing: LakeListing, names: readonly string[] | undefined) {
  if (names === undefined) return listing.tables;
  const unknown = names.filter((name) => !listing.tables.some((table) => table.name === name));
  if (unknown.length > 0) {
    throw new LakeDownloadError(
      `no table ${unknown.join(', ')} in snapshot ${listing.snapshot.id}; it has ${listing.tables.map((t) => t.name).join(', ')}`,
    );
  }
  return listing.tables.filter((table) => names.includes(table.name));
}

/** GET with the key; anything but a 200 is an error naming what was asked and the server's message. */
async function keyedGet(url: string, key: string, what: string): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
  } catch (error) {
    const cause = (error as Error & { cause?: Error }).cause?.message ?? (error as Error).message;
    throw new LakeDownloadError(`cannot reach ${url} for ${what}: ${cause}`);
  }
  if (response.status === 200) return response;
  const message = await response
    .json()
    .then((body) => String((body as { message?: unknown }).message))
    .catch(() => response.statusText);
  const advice =
    response.status === 401 ? `: check ${LAKE_API_KEY_VARIABLE} (a key from npm run keys -- create)` : '';
  throw new LakeDownloadError(`GET ${url} (${what}) answered ${response.status}, "${message}"${advice}`);
}

/** The SHA-256 of a file already downloaded, or null when there is none. */
async function sha256Of(file: string): Promise<string | null> {
  try {
    return createHash('sha256')
      .update(await readFile(file))
      .digest('hex');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
