import type { ClusterJob, ClusterOutcome, ProfileJob, ProfileOutcome } from '../../schemas/rem-model.ts';
import type { Predictor } from '../../model/surrogate/held-out.ts';
import { computeCluster } from './compute-cluster.ts';
import { computeProfile } from './profile-homes.ts';

/** The jobs a REM model thread takes: both kinds share the threads, their queue and their bound. */
export type ModelJob = { kind: 'cluster'; job: ClusterJob } | { kind: 'profile'; job: ProfileJob };
export type ModelJobOutcome = ClusterOutcome | ProfileOutcome;

export function runModelJob(job: ModelJob, surrogate: Predictor): Promise<ModelJobOutcome> {
  return job.kind === 'cluster' ? computeCluster(job.job, surrogate) : computeProfile(job.job, surrogate);
}
