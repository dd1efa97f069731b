import { PIPELINE_STEPS, type PipelineStep } from '../pipeline-step.ts';
import { UsageError } from '../../lib/cli-main.ts';

/** Printed on stderr when a run pauses, so a test driving the process knows where it stopped. */
export const PAUSED_MARKER = 'PIPELINE_PAUSED';

/**
 * PIPELINE_PAUSE_AT=<step> makes a run stop the first time it reaches that step and wait there until it
 * is killed. The crash tests use it to `kill -9` a run at each step; operators can do the same to check
 * that a run killed anywhere leaves the served snapshot alone.
 */
export function pauseHookFromEnv(
  env: NodeJS.ProcessEnv,
): ((step: PipelineStep) => Promise<void>) | undefined {
  const target = env.PIPELINE_PAUSE_AT;
  if (target === undefined || target === '') return undefined;
  if (!(PIPELINE_STEPS as readonly string[]).includes(target)) {
    throw new UsageError(`PIPELINE_PAUSE_AT must be one of ${PIPELINE_STEPS.join(', ')}, not "${target}"`);
  }
  let paused = false;
  return async (step) => {
    if (step !== target || paused) return;
    paused = true;
    process.stderr.write(`${PAUSED_MARKER} ${step}\n`);
    // Keep the process alive and the run suspended at this point, forever.
    setInterval(() => undefined, 60_000);
    await new Promise<never>(() => undefined);
  };
}
