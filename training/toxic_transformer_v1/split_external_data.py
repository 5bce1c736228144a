"""Last part of step 3 of `npm run train:toxicity`: store an ONNX model as its graph plus external
data files of at most MAX_CHUNK_BYTES each, so that no file of the model folder reaches the
repository's 20 MB limit (decision 185).

The files are named as transformers.js looks for them when `config.json` says
`"transformers.js_config": {"use_external_data_format": {"model_quantized.onnx": N}}`:
`model_quantized.onnx_data`, `model_quantized.onnx_data_1`, ... `_data_{N-1}`, beside the graph
(evaluate.ts writes that config entry from the graph). Node's onnxruntime reads them itself, relative
to the graph's path; in the browser transformers.js fetches them and hands them to onnxruntime-web.

The weights are not changed, only moved: every initializer of at least INLINE_BELOW bytes keeps its
exact `raw_data` bytes, in a data file, at a 64-byte aligned offset. The model's artifact id
(`vigil.artifact`, shown by /v1/models) is the sha256 of the single-file form, the bytes `onnx.save`
writes for the inlined model; this script checks that the split files give back exactly those bytes
and prints the id.

Usage: .work/venv/bin/python training/toxic_transformer_v1/split_external_data.py [model.onnx]
(default models/toxic_transformer_v1/onnx/model_quantized.onnx; a model already split is re-split).
"""
import glob
import hashlib
import os
import sys

import onnx
from onnx import TensorProto
from onnx.external_data_helper import set_external_data

HERE = os.path.dirname(os.path.abspath(__file__))
# The model folder whose graph this splits by default (the artifact lives in models/, this script in training/).
MODEL_DIR = os.path.join(HERE, "..", "..", "models", "toxic_transformer_v1")

# Hard limit per data file, well under the repository's 20,000,000 bytes; the tensors are spread
# evenly over as few files as this allows (24.1 MB of weights -> two files of about 12 MB).
MAX_CHUNK_BYTES = 16_000_000
# Biases and LayerNorm vectors stay in the graph file: each external tensor costs an entry there.
INLINE_BELOW = 1024
ALIGN = 64


def data_file_names(model_file, n):
    """transformers.js's names for n chunks (src/utils/model-loader.js, getExternalDataChunkNames)."""
    return [f"{model_file}_data" + ("" if i == 0 else f"_{i}") for i in range(n)]


def assign_chunks(sizes, max_bytes=MAX_CHUNK_BYTES):
    """Chunk index per tensor, in order: as few chunks as max_bytes allows, filled evenly."""
    padded = [-(-s // ALIGN) * ALIGN for s in sizes]
    total = sum(padded)
    if total == 0:
        return []
    if max(padded) > max_bytes:
        raise ValueError(f"a tensor of {max(padded)} bytes does not fit in one data file of {max_bytes}")
    n = -(-total // max_bytes)
    while True:
        target = total / n
        chunks, idx, cur = [], 0, 0
        for s in padded:
            # A tensor whose middle would pass this chunk's share starts the next chunk.
            if cur > 0 and idx < n - 1 and cur + s / 2 > target:
                idx, cur = idx + 1, 0
            chunks.append(idx)
            cur += s
        sums = [sum(p for p, c in zip(padded, chunks) if c == k) for k in range(idx + 1)]
        if max(sums) <= max_bytes:
            return chunks
        n += 1


def single_file_bytes(model):
    """The model as `onnx.save` writes it with all data inline. onnx.load of a split model marks
    each loaded tensor's data_location DEFAULT explicitly, which a model saved inline never had."""
    for t in model.graph.initializer:
        if t.HasField("data_location") and t.data_location == TensorProto.DEFAULT:
            t.ClearField("data_location")
    return model.SerializeToString()


def save_split(model, dst, max_bytes=MAX_CHUNK_BYTES):
    """Write `model` (all data loaded) to dst + data files; returns (artifact id, [(file, bytes)])."""
    single = single_file_bytes(model)
    artifact = hashlib.sha256(single).hexdigest()[:12]
    model = onnx.load_from_string(single)
    out_dir = os.path.dirname(os.path.abspath(dst))
    name = os.path.basename(dst)
    for stale in glob.glob(os.path.join(glob.escape(out_dir), glob.escape(name) + "_data*")):
        os.remove(stale)

    big = [t for t in model.graph.initializer if t.HasField("raw_data") and len(t.raw_data) >= INLINE_BELOW]
    chunks = assign_chunks([len(t.raw_data) for t in big], max_bytes)
    names = data_file_names(name, (chunks[-1] + 1) if chunks else 0)
    files = [bytearray() for _ in names]
    for t, c in zip(big, chunks):
        buf = files[c]
        buf.extend(b"\0" * (-len(buf) % ALIGN))
        set_external_data(t, names[c], offset=len(buf), length=len(t.raw_data))
        buf.extend(t.raw_data)
        t.data_location = TensorProto.EXTERNAL
        t.ClearField("raw_data")
    for n, buf in zip(names, files):
        with open(os.path.join(out_dir, n), "wb") as f:
            f.write(buf)
    with open(dst, "wb") as f:
        f.write(model.SerializeToString())

    # The split files must load back to the very bytes of the single-file form.
    onnx.checker.check_model(dst)
    if single_file_bytes(onnx.load(dst)) != single:
        raise RuntimeError(f"{dst}: the split model does not load back to the single-file bytes")
    return artifact, [(n, len(b)) for n, b in zip(names, files)]


def main():
    dst = sys.argv[1] if len(sys.argv) > 1 else os.path.join(MODEL_DIR, "onnx", "model_quantized.onnx")
    artifact, files = save_split(onnx.load(dst), dst)
    graph = os.path.getsize(dst)
    print(f"{dst}: graph {graph / 1e6:.2f} MB + " + ", ".join(f"{n} {b / 1e6:.2f} MB" for n, b in files) + f"; artifact {artifact}")


if __name__ == "__main__":
    main()
