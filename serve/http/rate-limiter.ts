/** One client's current window: how many requests it has made since `start`. */
export interface RateWindow {
  readonly count: number;
  /** Epoch milliseconds at which the window ends and the count starts again from zero. */
  readonly resetsAt: number;
}

/** Counts each client's requests in a window; `limit` is how many a window allows. */
export interface RateLimiter {
  readonly limit: number;
  /**
   * Counts one request of `client` at `nowMs` and returns its window (over the limit when count > limit).
   * With `once`, a request for the same resource counts only the first time in a window (a Parquet file's
   * many range requests are one read of it).
   */
  take(client: string, nowMs: number, once?: string): RateWindow | Promise<RateWindow>;
}

interface MutableWindow {
  count: number;
  resetsAt: number;
  /** The resources counted once in this window. */
  counted: Set<string> | undefined;
}

/**
 * A fixed-window counter per client: the first request of a client opens a window of `windowMs`, and
 * requests past `limit` within it are refused. A client's window is reused in place, so a request
 * allocates nothing once its client has been seen. Clients are API keys, so the map holds at most one
 * entry per key that has ever made a request.
 */
export class FixedWindowRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, MutableWindow>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {}

  take(client: string, nowMs: number, once?: string): RateWindow {
    let window = this.windows.get(client);
    if (window === undefined) {
      window = { count: 0, resetsAt: nowMs + this.windowMs, counted: undefined };
      this.windows.set(client, window);
    } else if (nowMs >= window.resetsAt) {
      window.count = 0;
      window.resetsAt = nowMs + this.windowMs;
      window.counted = undefined;
    }
    if (once !== undefined) {
      // A window counts each resource once, so it never holds more of them than the limit allows requests.
      if (window.counted?.has(once)) return window;
      (window.counted ??= new Set()).add(once);
    }
    window.count++;
    return window;
  }
}
