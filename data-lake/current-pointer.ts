import { assertSnapshotId } from './lake-paths.ts';
import { CURRENT_KEY, type Lake } from './lake.ts';

/** What CURRENT names, and its version in the store (what a swap must still find to replace it). */
export interface CurrentPointer {
  /** The published snapshot's id, or null when nothing has been published yet. */
  id: string | null;
  version: string | null;
}

export async function readCurrentPointer(lake: Lake): Promise<CurrentPointer> {
  const object = await lake.store.get(CURRENT_KEY);
  if (object === null) return { id: null, version: null };
  return { id: assertSnapshotId(object.body.toString('utf8').trim()), version: object.version };
}

/** The id of the published snapshot, or null when nothing has been published yet. */
export async function readCurrent(lake: Lake): Promise<string | null> {
  return (await readCurrentPointer(lake)).id;
}

/** Another writer moved CURRENT after this one read it: its publish did not happen. */
export class PublishRaceError extends Error {
  constructor(
    readonly id: string,
    readonly winner: string | null,
  ) {
    super(
      `snapshot ${id} was not published: CURRENT moved to ${winner ?? 'nothing'} while this ` +
        'publish was being prepared (another pipeline run or lake command published first)',
    );
    this.name = 'PublishRaceError';
  }
}

/**
 * Publishes a snapshot by a compare-and-swap of CURRENT: it names `id` only if it still is what `seen` was
 * when read (readers see the old id or the new one), else PublishRaceError, and nothing changed.
 */
export async function swapCurrent(lake: Lake, id: string, seen: CurrentPointer): Promise<void> {
  if (await lake.store.putIfVersion(CURRENT_KEY, `${assertSnapshotId(id)}\n`, seen.version)) return;
  throw new PublishRaceError(id, await readCurrent(lake).catch(() => null));
}

/** Points CURRENT at `id` from whatever it names now (a swap against what was just read); returns that. */
export async function moveCurrent(lake: Lake, id: string): Promise<string | null> {
  const seen = await readCurrentPointer(lake);
  await swapCurrent(lake, id, seen);
  return seen.id;
}
