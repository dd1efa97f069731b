import autocannon from 'autocannon';

/** What one autocannon run measured. */
export interface LoadFigures {
  requestsPerSecond: number;
  p99Ms: number;
  /** The slowest request's latency. */
  maxMs: number;
  /** Bytes received per response, headers included: what went over the wire. */
  bytesPerResponse: number;
  /** Requests that failed at the socket or got an answer other than 2xx or `alsoOk`: a run with any is void. */
  failed: number;
}

export interface LoadOptions {
  headers?: Record<string, string>;
  method?: 'GET' | 'POST';
  body?: string;
  /** Defaults: 50 connections for 5 s. */
  connections?: number;
  durationSeconds?: number;
  /** Status codes that count as success besides 2xx (e.g. 304 for a conditional GET). */
  alsoOk?: number[];
  /** The path of each request in turn, when requests must differ (e.g. to miss a response cache). */
  nextPath?: () => string;
  /** The body of each request in turn (a POST's `nextPath`). */
  nextBody?: () => string;
  /** Requests a second over all connections (a paced client, not a saturating one); default: unpaced. */
  ratePerSecond?: number;
}

/** Runs autocannon against a URL (same process as the server, so compare ratios, not absolute figures). */
export async function measureLoad(url: string, options: LoadOptions = {}): Promise<LoadFigures> {
  const result = await autocannon({
    url,
    method: options.method ?? 'GET',
    headers: options.headers,
    body: options.body,
    connections: options.connections ?? 50,
    duration: options.durationSeconds ?? 5,
    successStatusCodes: [200, ...(options.alsoOk ?? [])],
    ...(options.ratePerSecond === undefined ? {} : { overallRate: options.ratePerSecond }),
    ...(options.nextPath || options.nextBody
      ? {
          requests: [
            {
              setupRequest: (request: autocannon.Request) => ({
                ...request,
                ...(options.nextPath ? { path: options.nextPath() } : {}),
                ...(options.nextBody ? { body: options.nextBody() } : {}),
              }),
            },
          ],
        }
      : {}),
  } as autocannon.Options);
  return {
    requestsPerSecond: result.requests.average,
    p99Ms: result.latency.p99,
    maxMs: result.latency.max,
    bytesPerResponse: result.throughput.total / Math.max(1, result.requests.total),
    failed:
      result.errors +
      result.timeouts +
      Object.entries(result.statusCodeStats ?? {})
        .filter(([code]) => !(code.startsWith('2') || (options.alsoOk ?? []).includes(Number(code))))
        .reduce((sum, [, stats]) => sum + (stats.count ?? 0), 0),
  };
}
