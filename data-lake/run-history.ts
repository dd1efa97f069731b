import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { runRecordSchema, type RunRecord } from '../schemas/lake.ts';
import type { Lake } from './lake.ts';
import { processExists } from '../lib/process-exists.ts';

const RUNS_PREFIX = 'runs/';

/**
 * The lake's run history: every pipeline run leaves one record in the lake's runs/, written when it starts and
 * replaced (atomically) as it learns what it read and built and when it ends, so a run that fails, or
 * whose process dies, still leaves what it got to.
 */
export class RunHistory {
  private constructor(
    private readonly lake: Lake,
    private record: RunRecord,
  ) {}

  /** Starts a run's record (`running`). */
  static async start(
    lake: Lake,
    start: Pick<RunRecord, 'trigger' | 'previous'> & { now: Date },
  ): Promise<RunHistory> {
    // Sortable by start, unique per process: e.g. 20261127T170029319Z-4f2a.
    const id = `${start.now.toISOString().replace(/[-:.]/g, '')}-${randomBytes(2).toString('hex')}`;
    const history = new RunHistory(lake, {
      id,
      trigger: start.trigger,
      pid: process.pid,
      host: hostname(),
      startedAt: start.now.toISOString(),
      endedAt: null,
      outcome: 'running',
      previous: start.previous,
      snapshot: null,
      sources: [],
      findings: { error: 0, hold: 0, warning: 0 },
    });
    await history.write();
    return history;
  }

  get id(): string {
    return this.record.id;
  }

  /** Adds what the run has learnt (its sources, its tables, its findings) to its record. */
  async update(change: Partial<Omit<RunRecord, 'id' | 'startedAt' | 'outcome' | 'endedAt'>>): Promise<void> {
    this.record = { ...this.record, ...change };
    await this.write();
  }

  /** Ends the record with the run's outcome. */
  async finish(
    outcome: Exclude<RunRecord['outcome'], 'running'>,
    change: Partial<Pick<RunRecord, 'detail' | 'snapshot'>> & { now: Date },
  ): Promise<void> {
    const { now, ...rest } = change;
    this.record = { ...this.record, ...rest, outcome, endedAt: now.toISOString() };
    await this.write();
  }

  private write(): Promise<void> {
    return this.lake.store.put(
      `${RUNS_PREFIX}${this.record.id}.json`,
      `${JSON.stringify(runRecordSchema.parse(this.record), null, 2)}\n`,
    );
  }
}

/** The lake's run records, newest first; `running` ones whose process is gone from this host are `interrupted`. */
export async function listRuns(lake: Lake): Promise<(RunRecord | InterruptedRun)[]> {
  const keys = (await lake.store.list(RUNS_PREFIX)).filter((key) => key.endsWith('.json'));
  const records: (RunRecord | InterruptedRun)[] = [];
  for (const key of keys.reverse()) {
    // A record damaged by hand is left out rather than failing the list.
    const parsed = runRecordSchema.safeParse(await readJson(lake, key));
    if (!parsed.success) continue;
    const run = parsed.data;
    const gone = run.outcome === 'running' && run.host === hostname() && !processExists(run.pid);
    records.push(gone ? { ...run, outcome: 'interrupted' } : run);
  }
  return records;
}

async function readJson(lake: Lake, key: string): Promise<unknown> {
  const object = await lake.store.get(key);
  try {
    return object === null ? null : JSON.parse(object.body.toString('utf8'));
  } catch {
    return null;
  }
}

/** A run whose record says `running` but whose process is gone: killed, or the machine stopped. */
export type InterruptedRun = Omit<RunRecord, 'outcome'> & { outcome: 'interrupted' };
