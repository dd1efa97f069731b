import { z } from 'zod';

const isoDate = /^\d{4}-\d{2}-\d{2}$/;

/** Every setting the service reads from its environment. Defaults are the embedded, single-machine set-up. */
/** `all` (the contiguous US and DC), `none`, or comma-separated two-letter state codes. */
const stateSelection = z
  .string()
  .transform((v): 'all' | string[] => {
    const value = v.trim();
    if (value === 'all') return 'all';
    if (value === 'none' || value === '') return [];
    return value.split(',').map((s) => s.trim().toUpperCase());
  })
  .pipe(
    z.union([
      z.literal('all'),
      z.array(z.string().regex(/^[A-Z]{2}$/, 'must be all, none or two-letter state codes, comma-separated')),
    ]),
  );

export const configSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  LAKE_DIR: z.string().min(1).default('./data-lake'),
  API_KEYS: z
    .string()
    .optional()
    .transform((v) =>
      (v ?? '')
        .split(',')
        .map((k) => k.trim())
        .filter((k) => k.length > 0),
    )
    .pipe(z.array(z.string().min(16, 'each API key must be at least 16 characters'))),
  KAFKA_BROKERS: z
    .string()
    .optional()
    .transform((v) =>
      v === undefined || v.trim() === ''
        ? undefined
        : v
            .split(',')
            .map((b) => b.trim())
            .filter((b) => b.length > 0),
    )
    .pipe(z.array(z.string().regex(/^[^\s:]+:\d+$/, 'brokers are host:port, comma-separated')).optional()),
  KAFKA_TOPIC_PREFIX: z.string().default('electrify.'),
  KAFKA_CLIENT_ID: z.string().default('electrify-service'),
  AS_OF_DATE: z
    .string()
    .regex(isoDate, 'must be YYYY-MM-DD')
    .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)), 'is not a real date')
    .optional(),
  SOURCES_FILE: z.string().default('./ingest/sources.json'),
  INCENTIVES_SOURCE: z.string().min(1).optional(),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(600),
  /**
   * A Redis server holding every key's rate-limit window, so the limit holds across replicas. Unset: each
   * process counts alone. If Redis cannot answer, a process falls back to its own count (fail-open).
   */
  RATE_LIMIT_REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\/\S+$/, 'must be a redis:// or rediss:// URL')
    .optional(),
  /**
   * `primary` (npm start on one machine): runs the pipeline once when nothing is published and creates the
   * first key. `replica`: only serves; it never writes the lake or the key file and waits for a snapshot.
   */
  SERVE_ROLE: z.enum(['primary', 'replica']).default('primary'),
  /**
   * How long, after SIGTERM, /healthz answers 503 (draining) while requests are still answered, before the
   * server closes: longer than the load balancer needs to notice (its check interval × failures to fall).
   */
  SERVE_DRAIN_MS: z.coerce.number().int().min(0).max(600_000).default(0),
  SNAPSHOT_POLL_MS: z.coerce.number().int().min(50).default(2000),
  RESPONSE_CACHE_MB: z.coerce.number().int().min(0).default(32),
  /**
   * How far the serving process's JavaScript heap may grow past what its last full collection kept, in
   * percent (V8's --heap-growing-percent); 0 leaves it to V8, which lets a busy server's heap grow by
   * up to 4× before collecting.
   */
  SERVE_HEAP_GROWTH_PERCENT: z.coerce.number().int().min(0).max(300).default(60),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  GEOCODER: z.enum(['offline', 'census']).default('offline'),
  GEOCODER_URL: z.url().default('https://geocoding.geo.census.gov/geocoder'),
  GEOCODER_TIMEOUT_MS: z.coerce.number().int().positive().default(5000),
  /** Simulate-stage worker threads with the embedded log; unset: one per core. */
  SIMULATE_WORKERS: z.coerce.number().int().min(1).max(256).optional(),
  /** The simulate stage fails, naming the clusters, when no new result arrives for this long. */
  SIMULATE_STALL_TIMEOUT_MS: z.coerce.number().int().min(100).default(600_000),
  /**
   * States whose REM clusters the simulate stage precomputes: `all` (the contiguous US and DC), `none`, or
   * comma-separated two-letter codes. The default is the sample data's states, so a first start stays quick;
   * production sets `all`.
   */
  REM_STATES: stateSelection.default(['RI', 'MA', 'CO']),
  /**
   * States whose health rollup the simulate stage computes: their counties' clusters with a drawn water-heater
   * fuel (4 of a county's 20) are precomputed even outside REM_STATES. `all` by default, so the health API
   * answers for every contiguous state on a first start.
   */
  HEALTH_STATES: stateSelection.default('all'),
  /** Sample homes drawn per REM cluster. */
  REM_SAMPLES: z.coerce.number().int().min(10).max(10_000).default(400),
  /**
   * Worker threads computing POST /rem/profile (started on the first one). Each holds its own surrogate
   * session and sampler tables, so each costs tens of MB of RSS. Two by default: the most the REM bench's
   * memory budget allows (`npm run bench -- rem` prints the peak), and concurrent profiles then wait for
   * two threads, not four.
   */
  REM_PROFILE_WORKERS: z.coerce.number().int().min(1).max(64).default(2),
  /** Profiles that may wait for a thread; beyond them the route answers 503 with Retry-After. */
  REM_PROFILE_QUEUE: z.coerce.number().int().min(0).max(10_000).default(16),
});

export type Config = z.infer<typeof configSchema>;
