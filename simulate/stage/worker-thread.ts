import { readlinkSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { remWorkUnitSchema } from '../../schemas/rem-stage.ts';
import { OnnxSurrogate } from '../surrogate/onnx-surrogate.ts';
import { runWorkUnit } from './run-work-unit.ts';

// One simulate worker thread: holds one surrogate session (one onnxruntime thread) and runs the units
// its pool sends, one at a time.
const port = parentPort!;
const surrogate = await OnnxSurrogate.load((workerData as { onnx: Uint8Array }).onnx);
port.on('message', (message: { id: number; unit: unknown }) => {
  runWorkUnit(remWorkUnitSchema.parse(message.unit), surrogate).then(
    (result) => port.postMessage({ id: message.id, result }),
    (error: unknown) => port.postMessage({ id: message.id, error: (error as Error).message }),
  );
});
// The thread's id in the operating system (Linux: /proc/thread-self → <pid>/task/<tid>), so the pool's
// owner can read this thread's CPU time from /proc (the simulate bench's per-thread breakdown).
const systemThreadId = ((): number | null => {
  try {
    return Number(readlinkSync('/proc/thread-self').split('/').pop());
  } catch {
    return null;
  }
})();
port.postMessage({ ready: true, systemThreadId });
