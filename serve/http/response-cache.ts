import type { OutgoingHttpHeaders } from 'node:http';
import type { ContentEncoding } from './accept-encoding.ts';
import { compressBody, type Compression, type Compressor } from './body-encoding.ts';
import { isLent } from './json-bytes.ts';
import { fitsWithin, LruCache, type LruLimits } from './lru-cache.ts';
import { RecentKeys } from './recent-keys.ts';

/** A 200 answer as it was sent: the encoded body and the headers that belong to the answer itself. */
export interface CachedResponse {
  /** Encoded once, so a hit writes the bytes without encoding a string again. */
  body: Buffer;
  /** The body compressed in each coding a client has asked for, compressed once (see `bodyIn`). */
  compressed: Partial<Record<Compression, Buffer>>;
  /** The answer's headers as sent unencoded (its coding's are set per request). */
  headers: Readonly<OutgoingHttpHeaders>;
  /** The ETag of the unencoded answer. */
  etag: string;
}

/** What a cache generation is for: the data and the date every answer in it was computed from. */
interface Generation {
  snapshot: object;
  asOfDate: string;
  responses: LruCache<CachedResponse>;
  /** The name a route gave each URL it named (see `rememberName`). */
  names: UrlNames;
}

/** Bytes an entry is charged beyond its body: headers, key and bookkeeping, roughly. */
const ENTRY_OVERHEAD_BYTES = 512;

/** What an entry is charged: its bodies (unencoded and compressed), its key and the overhead. */
const chargedBytes = (url: string, response: CachedResponse): number =>
  response.body.length +
  (response.compressed.br?.length ?? 0) +
  (response.compressed.gzip?.length ?? 0) +
  url.length +
  ENTRY_OVERHEAD_BYTES;

/** Bytes a remembered name is charged beyond its two strings (two bytes a character). */
const NAME_OVERHEAD_BYTES = 128;

/** URLs whose names are remembered at once: enough for the URLs asked often, few enough to die young. */
const URL_NAMES = 512;

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
  /** Compressions of kept answers under way, by answer and coding. */
  private readonly compressing = new WeakMap<CachedResponse, Partial<Record<Compression, Promise<Buffer>>>>();

  constructor(
    private readonly limits: LruLimits,
    private readonly compress: Compressor = compressBody,
  ) {}

  /** The answer kept for this URL under this snapshot and date, if any. */
  lookup(snapshot: object, asOfDate: string, url: string): CachedResponse | undefined {
    return this.generationFor(snapshot, asOfDate).responses.get(url);
  }

  /**
   * The name a route gave this URL under this snapshot and date (see `rememberName`), if it is kept: a
   * repeated URL is then answered under its name without its query being validated and named again.
   */
  knownName(snapshot: object, asOfDate: string, url: string): string | undefined {
    return this.generationFor(snapshot, asOfDate).names.get(url);
  }

  /**
   * Keeps the name a route gave this URL: a route's name for a URL is a function of the snapshot, the date
   * and the URL (see `nameAnswer`). Kept from a URL's second request on, for at most 512 URLs at once (none
   * with a cache of 0 bytes).
   */
  rememberName(snapshot: object, asOfDate: string, url: string, name: string): void {
    this.generationFor(snapshot, asOfDate).names.set(url, name);
  }

  /** The generation of this snapshot and date; the first call for new ones drops the old. */
  private generationFor(snapshot: object, asOfDate: string): Generation {
    let generation = this.generation;
    if (generation === null || generation.snapshot !== snapshot || generation.asOfDate !== asOfDate) {
      generation = {
        snapshot,
        asOfDate,
        responses: new LruCache(this.limits),
        names: new UrlNames(this.limits),
      };
      this.generation = generation;
    }
    return generation;
  }

  /**
   * Keeps an answer computed from this snapshot and date, unless a later lookup has moved on to
   * other ones (a request that outlived a swap): its answer must not land among the new data's.
   */
  store(snapshot: object, asOfDate: string, url: string, response: CachedResponse): void {
    const generation = this.generation;
    if (generation === null || generation.snapshot !== snapshot || generation.asOfDate !== asOfDate) return;
    const bytes = chargedBytes(url, response);
    if (!generation.responses.fits(bytes)) return;
    // A lent body is written over once its response is sent: the cache keeps a copy of its own.
    const body = isLent(response.body) ? Buffer.from(response.body) : response.body;
    const { compressed, headers, etag } = response;
    generation.responses.set(url, { body, compressed, headers, etag }, bytes);
  }

  /** Whether an answer with a body of this many bytes could be kept at all (never with a cache of 0 bytes). */
  couldKeep(bodyBytes: number): boolean {
    return fitsWithin(this.limits, bodyBytes + ENTRY_OVERHEAD_BYTES);
  }

  /**
   * The body of `response`, kept under `url`, in `encoding`: compressed on the first request for that
   * coding and kept beside the unencoded body (and charged to the cache), so later hits compress nothing;
   * requests that come while it is being compressed wait for the same compression.
   */
  bodyIn(
    snapshot: object,
    asOfDate: string,
    url: string,
    response: CachedResponse,
    encoding: ContentEncoding,
  ): Buffer | Promise<Buffer> {
    if (encoding === 'identity') return response.body;
    const kept = response.compressed[encoding];
    if (kept !== undefined) return kept;
    const underWay = this.compressing.get(response)?.[encoding];
    if (underWay !== undefined) return underWay;
    const pending = this.compressing.get(response) ?? {};
    // Forgotten once settled, failed too: a failure is not handed to later requests.
    const compressing = this.compress(response.body, encoding)
      .then((compressed) => {
        const generation = this.generation;
        if (generation?.snapshot === snapshot && generation.asOfDate === asOfDate) {
          response.compressed[encoding] = compressed;
          generation.responses.set(url, response, chargedBytes(url, response));
        }
        return compressed;
      })
      .finally(() => delete pending[encoding]);
    pending[encoding] = compressing;
    this.compressing.set(response, pending);
    return compressing;
  }

  /** Entries and bytes held now. */
  get usage(): { entries: number; bytes: number } {
    const responses = this.generation?.responses;
    return { entries: responses?.size ?? 0, bytes: responses?.bytes ?? 0 };
  }
}

/**
 * The names of up to `URL_NAMES` URLs, each kept from its second request on (a URL asked once, like a
 * calculator request with an income nobody else gives, would only cost the keeping). Not an LRU: a hit
 * only reads, and when full the whole set is dropped and refilled. Keeping every URL's name, reordering
 * on each hit, or holding thousands of names long enough to reach the old generation (where the snapshot
 * makes every major GC costly) each made requests with a new URL each time slower.
 */
class UrlNames {
  private readonly names = new Map<string, string>();
  private readonly askedBefore = new RecentKeys(URL_NAMES * 8);

  /** With a byte bound too small for one name (a cache of 0 bytes), none is kept. */
  constructor(private readonly limits: LruLimits) {}

  get(url: string): string | undefined {
    return this.names.get(url);
  }

  set(url: string, name: string): void {
    if (2 * (url.length + name.length) + NAME_OVERHEAD_BYTES > this.limits.maxBytes) return;
    if (!this.askedBefore.seenBefore(url)) return;
    if (this.names.size >= Math.min(URL_NAMES, this.limits.maxEntries)) this.names.clear();
    this.names.set(url, name);
  }
}
