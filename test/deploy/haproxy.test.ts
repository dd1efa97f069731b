import { createServer, request, type Server } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/processes.ts';
import { HaproxyProcess, haproxyUnavailable, replicaTimeoutsMs } from '../support/deployment/haproxy.ts';

/*
 * deploy/haproxy.cfg's `timeout server` gives up on a hung replica after 2 s of silence; it must never cut
 * an answer that takes longer but keeps going: a replica streaming slowly, or a client reading slowly (a
 * large lake file). HAProxy with the checked-in configuration in front of a stand-in replica.
 */

const BIG_BYTES = 48 * 1024 * 1024;

/**
 * A stand-in replica: /healthz, /answer (named `name`, or never answered by a hung one), a body sent in
 * pieces, each within timeout server of the last, and a large body sent at once.
 */
function standInReplica(name: string, timeoutServerMs: number, hung = false): Server {
  const big = Buffer.alloc(BIG_BYTES, 'x');
  return createServer((req, res) => {
    if (req.url === '/answer') {
      if (!hung) res.end(name);
      return;
    }
    if (req.url === '/trickle') {
      // Twelve pieces, each within timeout server of the last, the whole well over it.
      res.writeHead(200, { 'content-type': 'text/plain' });
      let sent = 0;
      const timer = setInterval(() => {
        res.write('x'.repeat(1000));
        if (++sent === 12) {
          clearInterval(timer);
          res.end();
        }
      }, timeoutServerMs / 4);
      return;
    }
    if (req.url === '/large') {
      res.writeHead(200, { 'content-length': big.length });
      res.end(big);
      return;
    }
    res.end('{"status":"ok"}');
  });
}

/** GETs a URL, reading at most `bytesPerSecond` (a slow client), and says what arrived and how long it took. */
function slowGet(
  url: string,
  bytesPerSecond = Infinity,
): Promise<{ status: number; bytes: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    request(url, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytesPerSecond === Infinity) return;
        res.pause();
        setTimeout(() => res.resume(), (chunk.length / bytesPerSecond) * 1000);
      });
      res.on('end', () => resolve({ status: res.statusCode!, bytes, ms: performance.now() - started }));
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

const unavailable = haproxyUnavailable();

describe.skipIf(unavailable !== undefined)('deploy/haproxy.cfg', () => {
  const replicas: Server[] = [];
  let proxy: HaproxyProcess;
  let timeoutServerMs: number;

  beforeAll(async () => {
    timeoutServerMs = (await replicaTimeoutsMs()).server!;
    // r1 answers; r2 passes its health checks but never answers /answer (a hung handler).
    replicas.push(standInReplica('r1', timeoutServerMs), standInReplica('r2', timeoutServerMs, true));
    const addresses: string[] = [];
    for (const replica of replicas) {
      const port = await freePort();
      await new Promise<void>((resolve) => replica.listen(port, '127.0.0.1', resolve));
      addresses.push(`127.0.0.1:${port}`);
    }
    proxy = await HaproxyProcess.start({
      port: await freePort(),
      replicas: addresses,
      socket: `/tmp/haproxy-spec-${process.pid}.sock`,
    });
    for (const server of ['r1', 'r2'])
      while ((await proxy.serverStates()).get(server) !== 'UP') await delay(100);
  });

  afterAll(async () => {
    await proxy?.stop();
    for (const replica of replicas) {
      replica.closeAllConnections();
      await new Promise((resolve) => replica.close(resolve));
    }
  });

  it('retries on another replica a request one leaves unanswered for timeout server (2 s)', async () => {
    expect(timeoutServerMs).toBe(2_000);
    // Four at once: least-connections balancing sends some to the hung replica.
    const answers = await Promise.all(
      Array.from({ length: 4 }, async () => {
        const started = performance.now();
        const response = await fetch(`${proxy.url}/answer`);
        return { status: response.status, body: await response.text(), ms: performance.now() - started };
      }),
    );
    expect(answers.map(({ status, body }) => [status, body])).toEqual(Array(4).fill([200, 'r1']));
    const slowest = Math.max(...answers.map(({ ms }) => ms));
    expect(slowest).toBeGreaterThanOrEqual(timeoutServerMs);
    expect(slowest).toBeLessThan(timeoutServerMs + 1_000);
  });

  it('lets an answer that keeps coming take three times as long', async () => {
    const trickle = await slowGet(`${proxy.url}/trickle`);
    expect(trickle).toMatchObject({ status: 200, bytes: 12_000 });
    expect(trickle.ms).toBeGreaterThan(2 * timeoutServerMs);
  });

  it('lets a slow client read a large file for longer than timeout server, the replica waiting on it', async () => {
    // 48 MB at 12 MB/s: the replica's writes wait on the client for 4 s, far more than any buffer holds.
    const large = await slowGet(`${proxy.url}/large`, 12 * 1024 * 1024);
    expect(large).toMatchObject({ status: 200, bytes: BIG_BYTES });
    expect(large.ms).toBeGreaterThan(timeoutServerMs);
  });
});
