import { reportLoaded } from '../../lib/thread-loaded.ts';
import { committedSurrogate } from '../../model/surrogate/committed-surrogate.ts';
import { runModelJob, type ModelJob, type ModelJobOutcome } from './model-jobs.ts';

// One REM model thread: its own surrogate session and sampler tables; everything that comes from a
// snapshot arrives with the job, so a thread answers any snapshot's request as it was pinned.
const surrogate = committedSurrogate();
reportLoaded(surrogate);

export default async function answerModelJob(job: ModelJob): Promise<ModelJobOutcome> {
  return runModelJob(job, await surrogate);
}
