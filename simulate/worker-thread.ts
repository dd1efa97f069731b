import { readlinkSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { remWorkUnitSchema, type RemClusterResult } from '../schemas/rem-stage.ts';
import { OnnxSurrogate } from '../model/surrogate/onnx-surrogate.ts';
import { reportLoaded } from '../lib/thread-loaded.ts';
import { runWorkUnit } from './run-work-unit.ts';

// One simulate worker thread: holds one surrogate session (one onnxruntime thread) and runs the units
// its pool sends.
const surrogate = OnnxSurrogate.load((workerData as { onnx: Uint8Array }).onnx);
reportLoaded(surrogate);

// Its id in the operating system (Linux: /proc/thread-self → <pid>/task/<tid>), for the simulate bench's
// per-thread CPU time.
try {
  parentPort?.postMessage({ systemThreadId: Number(readlinkSync('/proc/thread-self').split('/').pop()) });
} catch {
  // not Linux: the bench leaves the breakdown out
}

export default async function runUnit(unit: unknown): Promise<RemClusterResult> {
  return runWorkUnit(remWorkUnitSchema.parse(unit), await surrogate);
}
