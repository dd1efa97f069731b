import ort from 'onnxruntime-node';
import { ONNX_INPUT, ONNX_OUTPUT } from './onnx-export.ts';

/** Rows per onnxruntime call: large enough to amortise the fixed per-call cost, small enough to stay in cache. */
export const DEFAULT_BATCH_ROWS = 1024;

/**
 * The exported surrogate run by onnxruntime-node on one thread (fastest for batches up to ~1k rows,
 * and it leaves the other core to the server). Inputs larger than a batch are run batch by batch.
 */
export class OnnxSurrogate {
  private constructor(
    private readonly session: ort.InferenceSession,
    readonly inputs: number,
    readonly outputs: number,
    readonly batchRows: number,
  ) {}

  /** Loads a model file (or its bytes) written by exportOnnx. */
  static async load(model: string | Uint8Array, batchRows = DEFAULT_BATCH_ROWS): Promise<OnnxSurrogate> {
    if (!Number.isInteger(batchRows) || batchRows < 1)
      throw new Error(`batchRows must be a positive integer, got ${batchRows}`);
    const options: ort.InferenceSession.SessionOptions = {
      intraOpNumThreads: 1,
      interOpNumThreads: 1,
      executionMode: 'sequential',
      graphOptimizationLevel: 'all',
    };
    // Two calls because create's overloads take a path or bytes, not their union.
    const session =
      typeof model === 'string'
        ? await ort.InferenceSession.create(model, options)
        : await ort.InferenceSession.create(model, options);
    const width = (name: string, list: readonly ort.InferenceSession.ValueMetadata[]): number => {
      const meta = list.find((m) => m.name === name);
      const last = meta?.isTensor ? meta.shape[meta.shape.length - 1] : undefined;
      if (typeof last !== 'number')
        throw new Error(`model has no tensor "${name}" with a fixed last dimension`);
      return last;
    };
    return new OnnxSurrogate(
      session,
      width(ONNX_INPUT, session.inputMetadata),
      width(ONNX_OUTPUT, session.outputMetadata),
      batchRows,
    );
  }

  /** kWh per output (rows × outputs, row-major) for `rows` rows of raw features (rows × inputs). */
  async predict(features: Float32Array, rows: number): Promise<Float32Array> {
    if (!Number.isInteger(rows) || rows < 0)
      throw new Error(`rows must be a non-negative integer, got ${rows}`);
    if (features.length !== rows * this.inputs) {
      throw new Error(
        `expected ${rows} × ${this.inputs} = ${rows * this.inputs} features, got ${features.length}`,
      );
    }
    const result = new Float32Array(rows * this.outputs);
    for (let start = 0; start < rows; start += this.batchRows) {
      const count = Math.min(this.batchRows, rows - start);
      const batch = features.subarray(start * this.inputs, (start + count) * this.inputs);
      const output = await this.session.run({
        [ONNX_INPUT]: new ort.Tensor('float32', batch, [count, this.inputs]),
      });
      result.set(output[ONNX_OUTPUT]!.data as Float32Array, start * this.outputs);
    }
    return result;
  }

  async close(): Promise<void> {
    await this.session.release();
  }
}
