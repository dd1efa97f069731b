/**
 * The points of a run where its state on disk changes hands. A caller may observe them (`onStep`); the
 * crash tests pause a child run at each one and kill it there.
 */
export const PIPELINE_STEPS = [
  'locked',
  'ingested',
  'batch-staged',
  'staged',
  'built',
  'snapshot-written',
  'snapshot-promoted',
  'published',
] as const;

export type PipelineStep = (typeof PIPELINE_STEPS)[number];
