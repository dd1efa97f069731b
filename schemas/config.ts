import { z } from 'zod';

const isoDate = /^\d{4}-\d{2}-\d{2}$/;

/** Every setting the service reads from its environment. Defaults are the embedded, single-machine set-up. */
/** `all` (the contiguous US and DC), `none`, or comma-separated two-letter state codes. */
/** The states the project's own sample data covers (its incentives, and the REM precomputed by default). */
export const SAMPLE_STATES = ['RI', 'MA', 'CO'] as const;

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

/** An unset or empty variable is an empty list; entries are trimmed and empty ones dropped. */
const commaSeparated = z
  .string()
  .optional()
  .transform((v) =>
    (v ?? '')
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item.length > 0),
  );

/** An origin as a browser sends it in the Origin header (scheme, host, port; no path), or `*`. */
const isOrigin = (value: string) => value === '*' || (URL.canParse(value) && new URL(value).origin === value);

export const configSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  LAKE_DIR: z.string().min(1).default('./data-lake/local'),
  /**
   * `s3://bucket/prefix`: the lake's snapshots, CURRENT, run records and source freshness live in this S3
   * bucket (the AWS SDK's usual environment: AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL, AWS_REGION,
   * credentials, AWS_MAX_ATTEMPTS), shared by hosts; LAKE_DIR stays this machine's working directory. Unset: the lake is
   * LAKE_DIR.
   */
  LAKE_URL: z
    .string()
    .regex(/^s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/.*)?$/, 'must be s3://bucket or s3://bucket/prefix')
    .optional(),
  API_KEYS: commaSeparated.pipe(z.array(z.string().min(16, 'each API key must be at least 16 characters'))),
  /**
   * Web origins whose pages may call the API from a visitor's browser (CORS). None by default: a browser
   * then refuses every cross-origin call, which is what a deployment that has not chosen its sites wants.
   */
  CORS_ORIGINS: commaSeparated.pipe(
    z.array(
      z
        .string()
        .refine(
          isOrigin,
          'each origin is written as a browser sends it, scheme://host[:port] with no path or trailing slash, or *',
        ),
    ),
  ),
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
  /** Where the metrics listener listens: loopback by default, as it asks no key. */
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  /** Port of the Prometheus metrics listener (`GET /metrics`) of `npm start` and `npm run simulate:worker`; unset: none. */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /** File `npm run pipeline` writes its run's metrics to (node-exporter textfile format, atomically); unset: none. */
  METRICS_TEXTFILE: z.string().min(1).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** `auto`: a progress display when stdout and stderr are terminals, JSON logs otherwise. */
  LOG_FORMAT: z.enum(['auto', 'json', 'terminal']).default('auto'),
  /**
   * The share of successful requests (status below 400) the server logs a line for, 0–1; every error is
   * logged. Lets an operator keep request logs on a busy server at a fraction of their cost.
   */
  REQUEST_LOG_SAMPLE: z.coerce.number().min(0).max(1).default(1),
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
  REM_STATES: stateSelection.default([...SAMPLE_STATES]),
  /**
   * States whose health rollup the simulate stage computes: their counties' clusters with a drawn water-heater
   * fuel (4 of a county's 20) are precomputed even outside REM_STATES. `all` by default, so the health API
   * answers for every contiguous state on a first start.
   */
  HEALTH_STATES: stateSelection.default('all'),
  /**
   * Days a source may go without a change, or without a successful read, before `lake runs` and the
   * pipeline's metrics call it stale (a source's own `staleAfterDays` in the sources file wins).
   */
  SOURCE_STALE_AFTER_DAYS: z.coerce.number().int().positive().default(90),
  /**
   * What a run does with a source whose version it cannot read or stage completely: `none` fails the run
   * (exit 4); `published` builds from the version the published snapshot was built from instead, and says
   * so in the run's outcome, so the other sources' changes still publish.
   */
  SOURCE_FALLBACK: z.enum(['none', 'published']).default('none'),
  /** Sample homes drawn per REM cluster. */
  REM_SAMPLES: z.coerce.number().int().min(10).max(10_000).default(400),
  /**
   * Worker threads of the REM model computing what requests ask and the snapshot does not hold: clusters
   * outside REM_STATES and POST /rem/profile (started on the first one). Each holds its own surrogate session
   * and sampler tables, so each costs tens of MB of RSS once started (`npm run bench -- rem` prints the peak,
   * which with two is over its budget at national size). Two by default: with one, concurrent profiles miss
   * their p99 target.
   */
  REM_MODEL_THREADS: z.coerce.number().int().min(1).max(64).default(2),
  /** Model jobs that may wait for a thread; beyond them the REM routes answer 503 with Retry-After. */
  REM_MODEL_QUEUE: z.coerce.number().int().min(0).max(10_000).default(16),
});

export type Config = z.infer<typeof configSchema>;
