import { createServer, type Server } from 'node:http';
import type { Registry } from 'prom-client';

export interface MetricsListener {
  /** `http://host:port/metrics`, with the port actually bound (METRICS_PORT=0 picks a free one). */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Serves a process's Prometheus registry as `GET /metrics` on a port of its own (METRICS_HOST, METRICS_PORT),
 * apart from the API: scrapes need no key, count against no rate limit and never queue behind API requests'
 * hooks. Loopback by default, since it asks no key.
 */
export async function startMetricsListener(
  registry: Registry,
  { host, port }: { host: string; port: number },
): Promise<MetricsListener> {
  const server: Server = createServer((request, response) => {
    if (request.method !== 'GET' || request.url?.split('?')[0] !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found: GET /metrics\n');
      return;
    }
    registry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': registry.contentType }).end(text),
      (error: unknown) =>
        response.writeHead(500, { 'content-type': 'text/plain' }).end(`${(error as Error).message}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.unref(); // a process stops when its work is done, scraped or not
  const address = server.address();
  const bound = typeof address === 'object' && address !== null ? address.port : port;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${bound}/metrics`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
