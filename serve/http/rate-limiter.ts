/** One client's current window: how many requests it has made since `start`. */
export interface RateWindow {
  readonly count: number;
  /** Epoch milliseconds at which the window ends and the count starts again from zero. */
  readonly resetsAt: number;
}

/** Counts each client's requests in a window; `limit` is how many a window allows. */
export interface RateLimiter {
  readonly limit: number;
  /** Counts one request of `client` at `nowMs` and returns its window (over the limit when count > limit). */
  take(client: string, nowMs: number): RateWindow | Promise<RateWindow>;
}

interface MutableWindow {
  count: number;
  resetsAt: number;
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

  /** Counts one request of `client` at `nowMs` and returns its window (over the limit when count > limit). */
  take(client: string, nowMs: number): RateWindow {
    const window = this.windows.get(client);
    if (window === undefined) {
      const opened = { count: 1, resetsAt: nowMs + this.windowMs };
      this.windows.set(client, opened);
      return opened;
    }
    if (nowMs >= window.resetsAt) {
      window.count = 1;
      window.resetsAt = nowMs + this.windowMs;
    } else {
      window.count++;
    }
    return window;
  }
}
