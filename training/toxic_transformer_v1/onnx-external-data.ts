/**
 * Reads an ONNX graph whose weights sit in external data files (split_external_data.py,
 * decision 185) without a runtime: the data files it names, and the sha256 of its single-file form.
 *
 * The artifact id (`vigil.artifact`, shown by /v1/models) is the first 12 hex digits of that sha256,
 * so it names the weights, not how they are packed: a model split into graph + data files keeps the
 * id its single file had. The single-file form is rebuilt from the wire format, touching only the
 * graph's external initializers: their `external_data` (13) and `data_location` (14) fields give
 * way to `raw_data` (9) with the bytes they point at, placed in field-number order as `onnx.save`
 * writes it; every other byte is copied. split_external_data.py checks the same equality in Python.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import protobuf from 'protobufjs';
import { externalDataFileNames } from '@/lib/moderation/toxicity/toxicity-model-files';

/** Field numbers in onnx/onnx.proto. */
const MODEL_GRAPH = 7;
const GRAPH_INITIALIZER = 5;
const TENSOR_RAW_DATA = 9;
const TENSOR_EXTERNAL_DATA = 13;
const TENSOR_DATA_LOCATION = 14;
const DATA_LOCATION_EXTERNAL = 1;
const WIRE_VARINT = 0;
const WIRE_BYTES = 2;

interface Field {
  no: number;
  /** The whole field as serialised (tag included). */
  raw: Uint8Array;
  /** The payload of a length-delimited field. */
  body?: Uint8Array;
  /** The value of a varint field. */
  value?: number;
}

function fields(buf: Uint8Array): Field[] {
  const r = protobuf.Reader.create(buf);
  const out: Field[] = [];
  while (r.pos < r.len) {
    const start = r.pos;
    const tag = r.uint32();
    const [no, wire] = [tag >>> 3, tag & 7];
    const body = wire === WIRE_BYTES ? r.bytes() : undefined;
    const value = wire === WIRE_VARINT ? r.int32() : undefined;
    if (wire !== WIRE_BYTES && wire !== WIRE_VARINT) r.skipType(wire);
    out.push({ no, raw: buf.subarray(start, r.pos), body, value });
  }
  return out;
}

const lengthDelimited = (no: number, body: Uint8Array): Uint8Array =>
  Buffer.concat([
    protobuf.Writer.create()
      .uint32((no << 3) | WIRE_BYTES)
      .uint32(body.length)
      .finish(),
    body,
  ]);

interface ExternalRef {
  location: string;
  offset: number;
  length: number;
}

/** The `external_data` entries of a tensor stored outside the graph, else undefined. */
function externalRef(tensor: Field[]): ExternalRef | undefined {
  if (tensor.find((f) => f.no === TENSOR_DATA_LOCATION)?.value !== DATA_LOCATION_EXTERNAL) return undefined;
  const entries = new Map(
    tensor
      .filter((f) => f.no === TENSOR_EXTERNAL_DATA)
      .map((f) => {
        const kv = fields(f.body!);
        const text = (no: number) => Buffer.from(kv.find((x) => x.no === no)?.body ?? []).toString('utf8');
        return [text(1), text(2)] as const;
      }),
  );
  const location = entries.get('location');
  const length = entries.get('length');
  if (!location || basename(location) !== location || length === undefined) {
    throw new Error(`external tensor with location ${JSON.stringify(location)} and length ${length}: not a file beside the graph`);
  }
  return { location, offset: Number(entries.get('offset') ?? 0), length: Number(length) };
}

function initializers(onnxPath: string): { model: Field[]; graph: Field[] } {
  const model = fields(readFileSync(onnxPath));
  const graph = model.find((f) => f.no === MODEL_GRAPH);
  if (graph?.body === undefined) throw new Error(`${onnxPath}: no graph`);
  return { model, graph: fields(graph.body) };
}

/** The external data files the graph names, in order of first use (empty for a single-file model). */
export function externalDataFiles(onnxPath: string): string[] {
  const files = new Set<string>();
  for (const f of initializers(onnxPath).graph) {
    const ref = f.no === GRAPH_INITIALIZER ? externalRef(fields(f.body!)) : undefined;
    if (ref) files.add(ref.location);
  }
  return [...files];
}

/** sha256 (hex) of the model as one file, its external data inlined: the bytes `onnx.save` writes. */
export function singleFileSha256(onnxPath: string): string {
  const dir = dirname(onnxPath);
  const data = new Map<string, Buffer>();
  const read = (ref: ExternalRef) => {
    if (!data.has(ref.location)) data.set(ref.location, readFileSync(join(dir, ref.location)));
    const bytes = data.get(ref.location)!.subarray(ref.offset, ref.offset + ref.length);
    if (bytes.length !== ref.length) throw new Error(`${ref.location}: ${ref.length} bytes at ${ref.offset} run past its end`);
    return bytes;
  };
  const inline = (tensorBody: Uint8Array): Uint8Array => {
    const tensor = fields(tensorBody);
    const ref = externalRef(tensor);
    if (ref === undefined) return tensorBody;
    const kept = tensor.filter((f) => f.no !== TENSOR_EXTERNAL_DATA && f.no !== TENSOR_DATA_LOCATION);
    return Buffer.concat([
      ...kept.filter((f) => f.no < TENSOR_RAW_DATA).map((f) => f.raw),
      lengthDelimited(TENSOR_RAW_DATA, read(ref)),
      ...kept.filter((f) => f.no > TENSOR_RAW_DATA).map((f) => f.raw),
    ]);
  };
  const { model, graph } = initializers(onnxPath);
  const graphBytes = Buffer.concat(graph.map((f) => (f.no === GRAPH_INITIALIZER ? lengthDelimited(f.no, inline(f.body!)) : f.raw)));
  const hash = createHash('sha256');
  for (const f of model) hash.update(f.no === MODEL_GRAPH ? lengthDelimited(f.no, graphBytes) : f.raw);
  return hash.digest('hex');
}

/**
 * The `transformers.js_config` entry config.json needs for the graph's data files, so that
 * transformers.js fetches them in the browser (Node's onnxruntime finds them itself); undefined for
 * a single-file graph. Throws if the files are not named as transformers.js looks for them.
 */
export function transformersJsConfig(onnxPath: string): { use_external_data_format: Record<string, number> } | undefined {
  const files = externalDataFiles(onnxPath);
  if (files.length === 0) return undefined;
  const file = basename(onnxPath);
  const expected = externalDataFileNames(file, files.length);
  if ([...files].sort().join('\n') !== [...expected].sort().join('\n')) {
    throw new Error(`${onnxPath}: data files ${files.join(', ')}; transformers.js looks for ${expected.join(', ')}`);
  }
  return { use_external_data_format: { [file]: files.length } };
}
