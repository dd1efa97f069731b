import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TestModule } from 'vitest/node';
import StallReporter from './stall-reporter.ts';

const module = (relativeModuleId: string) => ({ relativeModuleId }) as TestModule;
const MINUTE = 60_000;

describe('the stall reporter', () => {
  let stalls: { files: string[]; stallMs: number }[];
  let reporter: StallReporter;
  beforeEach(() => {
    vi.useFakeTimers();
    stalls = [];
    reporter = new StallReporter(10 * MINUTE, (files, stallMs) => stalls.push({ files, stallMs }));
  });
  afterEach(() => vi.useRealTimers());

  it('names the files still running when nothing has ended for its time', () => {
    reporter.onTestModuleStart(module('test/pipeline/pipeline-kafka-workers.test.ts'));
    reporter.onTestModuleStart(module('test/eventlog/kafka-log.test.ts'));
    reporter.onTestModuleEnd(module('test/eventlog/kafka-log.test.ts'));
    vi.advanceTimersByTime(10 * MINUTE - 1);
    expect(stalls).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(stalls).toEqual([
      { files: ['test/pipeline/pipeline-kafka-workers.test.ts'], stallMs: 10 * MINUTE },
    ]);
  });

  it('waits its whole time again after each test, hook or file that ends', () => {
    reporter.onTestModuleStart(module('test/serve/replicas-soak.test.ts'));
    for (const ended of [() => reporter.onTestCaseResult(), () => reporter.onHookEnd()]) {
      vi.advanceTimersByTime(9 * MINUTE);
      ended();
    }
    vi.advanceTimersByTime(9 * MINUTE);
    expect(stalls).toEqual([]);
    vi.advanceTimersByTime(MINUTE);
    expect(stalls).toHaveLength(1);
  });

  it('says nothing once the run has ended', () => {
    reporter.onTestModuleStart(module('test/lib/clock.test.ts'));
    reporter.onTestModuleEnd(module('test/lib/clock.test.ts'));
    reporter.onTestRunEnd();
    vi.advanceTimersByTime(60 * MINUTE);
    expect(stalls).toEqual([]);
  });
});
