import type { OutgoingHttpHeaders } from 'node:http';
import { isLent } from './json-bytes.ts';
import { LruCache, type LruLimits } from './lru-cache.ts';

/** A 200 answer as it was sent: the encoded body and the headers that belong to the answer itself. */
export interface CachedResponse {
  /** Encoded once, so a hit writes the bytes without encoding a string again. */
  body: Buffer;
  headers: Readonly<OutgoingHttpHeaders>;
  etag: string;
}

/** What a cache generation is for: the data and the date every answer in it was computed from. */
interface Generation {
  snapshot: object;
  asOfDate: string;
  responses: LruCache<CachedResponse>;
}

/** Bytes an entry is charged beyond its body: headers, key and bookkeeping, roughly. */
const ENTRY_OVERHEAD_BYTES = 512;

/**
 * Encoded GET answers of the snapshot being served. A data answer is a pure function of the snapshot,
 * the as-of date and the request URL (the assumption the ETag already relies on), so an answer computed
 * once can be sent again as it is. One generation is kept, for the snapshot and date of the latest
 * lookup: the first request after a swap (or after midnight) starts a new one and drops the old answers,
 * and an answer computed from anything else is not kept. Keys are the URL as received; an equivalent URL
 * written differently is simply another entry.
 */
export class SnapshotResponseCache {
  private generation: Generation | null = null;

  constructor(private readonly limits: LruLimits) {}

  /** The answer kept for this URL under this snapshot and date, if any. */
  lookup(snapshot: object, asOfDate: string, url: string): CachedResponse | undefined {
    let generation = this.generation;
    if (generation === null || generation.snapshot !== snapshot || generation.asOfDate !== asOfDate) {
      generation = { snapshot, asOfDate, responses: new LruCache(this.limits) };
      this.generation = generation;
    }
    return generation.responses.get(url);
  }

  /**
   * Keeps an answer computed from this snapshot and date, unless a later lookup has moved on to
   * other ones (a request that outlived a swap): its answer must not land among the new data's.
   */
  store(snapshot: object, asOfDate: string, url: string, response: CachedResponse): void {
    const generation = this.generation;
    if (generation === null || generation.snapshot !== snapshot || generation.asOfDate !== asOfDate) return;
    const bytes = response.body.length + url.length + ENTRY_OVERHEAD_BYTES;
    if (!generation.responses.fits(bytes)) return;
    // A lent body is written over once its response is sent: the cache keeps a copy of its own.
    const body = isLent(response.body) ? Buffer.from(response.body) : response.body;
    generation.responses.set(url, { ...response, body }, bytes);
  }

  /** Entries and bytes held now. */
  get usage(): { entries: number; bytes: number } {
    const responses = this.generation?.responses;
    return { entries: responses?.size ?? 0, bytes: responses?.bytes ?? 0 };
  }
}
