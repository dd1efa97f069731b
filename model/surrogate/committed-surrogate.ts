import { readModelFiles } from './committed-model.ts';
import { OnnxSurrogate } from './onnx-surrogate.ts';

/** The surrogate, loaded once per process on the first on-demand request (checked against its model card). */
let surrogate: Promise<OnnxSurrogate> | undefined;

export const committedSurrogate = (): Promise<OnnxSurrogate> =>
  (surrogate ??= readModelFiles().then(({ onnx }) => OnnxSurrogate.load(onnx)));
