import { create, toBinary } from '@bufbuild/protobuf';
import {
  AttributeProto_AttributeType,
  ModelProtoSchema,
  NodeProtoSchema,
  TensorProtoSchema,
  TensorProto_DataType,
  ValueInfoProtoSchema,
  type NodeProto,
  type TensorProto,
  type ValueInfoProto,
} from 'onnx-buf';
import type { SurrogateModel } from './surrogate-model.ts';

/** Names of the graph's single input and output; the adapter feeds and reads these. */
export const ONNX_INPUT = 'features';
export const ONNX_OUTPUT = 'kwh';
export const ONNX_IR_VERSION = 8;
export const ONNX_OPSET = 17;

function floatTensor(name: string, dims: number[], values: Float32Array): TensorProto {
  // raw_data is little-endian float32; copy so the bytes do not alias a larger parameter buffer.
  const bytes = new Uint8Array(values.length * 4);
  const view = new DataView(bytes.buffer);
  values.forEach((v, k) => view.setFloat32(k * 4, v, true));
  return create(TensorProtoSchema, {
    name,
    dims: dims.map(BigInt),
    dataType: TensorProto_DataType.FLOAT,
    rawData: bytes,
  });
}

function node(opType: string, inputs: string[], output: string, transB = false): NodeProto {
  return create(NodeProtoSchema, {
    opType,
    name: output,
    input: inputs,
    output: [output],
    attribute: transB ? [{ name: 'transB', type: AttributeProto_AttributeType.INT, i: 1n }] : [],
  });
}

function matrixValue(name: string, width: number): ValueInfoProto {
  return create(ValueInfoProtoSchema, {
    name,
    type: {
      value: {
        case: 'tensorType',
        value: {
          elemType: TensorProto_DataType.FLOAT,
          shape: {
            dim: [
              { value: { case: 'dimParam', value: 'rows' } },
              { value: { case: 'dimValue', value: BigInt(width) } },
            ],
          },
        },
      },
    },
  });
}

/**
 * Serialises the surrogate as an ONNX model (IR 8, opset 17) whose one input `features` is
 * rows × inputs raw features and whose one output `kwh` is rows × outputs kWh ≥ 0. The graph is
 * Sub/Mul (input standardisation) → Gemm+Relu per hidden layer → Gemm → Div/Add (output
 * de-standardisation) → Exp/Sub (inverse log1p, if used) → Relu → Mul by the output gates (if any),
 * so callers need no side files.
 */
export function exportOnnx(model: SurrogateModel, metadata: Record<string, string>): Uint8Array {
  const { mlp } = model;
  const sizes = mlp.sizes;
  const inputs = sizes[0]!;
  const outputs = sizes[sizes.length - 1]!;
  const initializer: TensorProto[] = [
    floatTensor('input_mean', [inputs], model.input.mean),
    floatTensor('input_scale', [inputs], model.input.scale),
    floatTensor('output_mean', [outputs], model.output.mean),
    floatTensor('output_scale', [outputs], model.output.scale),
  ];
  const nodes: NodeProto[] = [
    node('Sub', [ONNX_INPUT, 'input_mean'], 'centred'),
    node('Mul', ['centred', 'input_scale'], 'standardised'),
  ];
  let current = 'standardised';
  mlp.weights.forEach((w, l) => {
    const fanIn = sizes[l]!;
    const fanOut = sizes[l + 1]!;
    initializer.push(
      floatTensor(`w${l}`, [fanOut, fanIn], w),
      floatTensor(`b${l}`, [fanOut], mlp.biases[l]!),
    );
    const last = l === mlp.weights.length - 1;
    nodes.push(node('Gemm', [current, `w${l}`, `b${l}`], last ? 'raw' : `pre${l}`, true));
    if (!last) nodes.push(node('Relu', [`pre${l}`], `hidden${l}`));
    current = last ? 'raw' : `hidden${l}`;
  });
  nodes.push(
    node('Div', ['raw', 'output_scale'], 'unscaled'),
    node('Add', ['unscaled', 'output_mean'], 'transformed'),
  );
  current = 'transformed';
  if (model.targetTransform === 'log1p') {
    initializer.push(floatTensor('one', [], Float32Array.of(1)));
    nodes.push(node('Exp', [current], 'exp'), node('Sub', ['exp', 'one'], 'expm1'));
    current = 'expm1';
  }
  if (model.outputGates.every((gate) => gate === null)) {
    nodes.push(node('Relu', [current], ONNX_OUTPUT));
  } else {
    // gate = features · G + g, where G picks each output's 0/1 gate feature and g is 1 for ungated outputs.
    const pick = new Float32Array(inputs * outputs);
    const always = new Float32Array(outputs);
    model.outputGates.forEach((gate, f) => {
      if (gate === null) always[f] = 1;
      else pick[gate * outputs + f] = 1;
    });
    initializer.push(
      floatTensor('gate_pick', [inputs, outputs], pick),
      floatTensor('gate_always', [outputs], always),
    );
    nodes.push(
      node('Relu', [current], 'ungated'),
      node('MatMul', [ONNX_INPUT, 'gate_pick'], 'gate_sum'),
      node('Add', ['gate_sum', 'gate_always'], 'gate'),
      node('Mul', ['ungated', 'gate'], ONNX_OUTPUT),
    );
  }

  const proto = create(ModelProtoSchema, {
    irVersion: BigInt(ONNX_IR_VERSION),
    opsetImport: [{ domain: '', version: BigInt(ONNX_OPSET) }],
    producerName: 'electrify-service model/surrogate',
    graph: {
      name: 'rem_surrogate',
      node: nodes,
      initializer,
      input: [matrixValue(ONNX_INPUT, inputs)],
      output: [matrixValue(ONNX_OUTPUT, outputs)],
    },
    metadataProps: Object.entries(metadata).map(([key, value]) => ({ key, value })),
  });
  return toBinary(ModelProtoSchema, proto);
}
