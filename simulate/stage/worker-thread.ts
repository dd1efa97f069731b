import { workerData } from 'node:worker_threads';
import { serveThreadJobs } from '../../lib/thread-pool.ts';
import { remWorkUnitSchema, type RemClusterResult } from '../../schemas/rem-stage.ts';
import { OnnxSurrogate } from '../surrogate/onnx-surrogate.ts';
import { runWorkUnit } from './run-work-unit.ts';

// One simulate worker thread: holds one surrogate session (one onnxruntime thread) and runs the units
// its pool sends, one after another.
const surrogate = OnnxSurrogate.load((workerData as { onnx: Uint8Array }).onnx);
serveThreadJobs<unknown, RemClusterResult>(
  async (unit) => runWorkUnit(remWorkUnitSchema.parse(unit), await surrogate),
  surrogate,
);
