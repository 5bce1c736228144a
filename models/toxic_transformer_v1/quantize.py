"""Step 3 of `npm run train:toxicity`: int8 dynamic quantisation of the fp32 export
(.work/toxicity/model.onnx) -> models/toxic_transformer_v1/onnx/model_quantized.onnx, saved as the
graph plus external data files under 20 MB each (split_external_data.py, decision 185).

Rewrites the graph with the `onnx` package into the pattern onnxruntime's `quantize_dynamic` emits
for MatMul, using only standard ONNX ops that
onnxruntime-node and onnxruntime-web (wasm CPU kernels) both execute:

* MatMul(X, W) with a constant 2-D W  ->  DynamicQuantizeLinear(X) -> MatMulInteger(Xq, Wq, Xzp)
  -> Cast(float) -> Mul(Xscale * Wscale). W is int8 with 7-bit range (see MATMUL_QMAX), symmetric, one scale per output column.
* Gather(E, ids) on the token-embedding table  ->  Gather(Eq, ids) -> Cast -> Mul(Gather(Escale, ids)):
  an int8 table with one scale per row, dequantised only for the rows a batch uses.

Everything else (LayerNorm, softmax, attention score MatMuls, the pooler and the 6-way head) stays
float32. Kept rather than onnxruntime's `quantize_dynamic` because its weight range and per-row table
are what the server/browser parity test and the benchmarks were measured with (see MATMUL_QMAX).
Usage: .work/venv/bin/python models/toxic_transformer_v1/quantize.py [in.onnx] [out.onnx]
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from split_external_data import save_split

HERE = os.path.dirname(os.path.abspath(__file__))


# MatMul weights use 7 bits (|q| <= 63, onnxruntime's `reduce_range`): on x86 CPUs without VNNI,
# onnxruntime's u8 x s8 MatMulInteger kernel adds pairs of products in int16 and saturates with full-range
# weights (measured on this project's AMD EPYC/AVX2 machines: a one-node probe returned 1,048,544 for an
# exact 2,072,640), so the server would disagree with the browser's wasm kernel and with itself on
# another CPU. Embedding rows are only gathered and dequantised, so they keep the full 8 bits.
MATMUL_QMAX = 63
GATHER_QMAX = 127


def quantize_columns(w, qmax=MATMUL_QMAX):
    """Symmetric per output column: w[K, N] ~= q[K, N] * scale[N], |q| <= qmax."""
    amax = np.abs(w).max(axis=0)
    scale = np.where(amax > 0, amax / float(qmax), 1.0).astype(np.float32)
    q = np.clip(np.round(w / scale), -qmax, qmax).astype(np.int8)
    return q, scale


def quantize_rows(w):
    q, scale = quantize_columns(w.T, GATHER_QMAX)
    return q.T.copy(), scale


def main():
    src = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "..", ".work", "toxicity", "model.onnx")
    dst = sys.argv[2] if len(sys.argv) > 2 else os.path.join(HERE, "onnx", "model_quantized.onnx")
    model = onnx.load(src)
    g = model.graph
    inits = {i.name: i for i in g.initializer}
    uses = {}
    for n in g.node:
        for x in n.input:
            uses[x] = uses.get(x, 0) + 1

    new_nodes, new_inits, drop = [], [], set()
    n_mm = n_gather = 0
    for node in g.node:
        w_name = node.input[1] if node.op_type == "MatMul" and len(node.input) == 2 else None
        if w_name in inits and len(inits[w_name].dims) == 2 and uses.get(w_name) == 1:
            w = numpy_helper.to_array(inits[w_name]).astype(np.float32)
            q, scale = quantize_columns(w)
            base = node.name.strip("/").replace("/", "_") or w_name
            new_inits += [
                numpy_helper.from_array(q, f"{base}_Wq"),
                numpy_helper.from_array(scale, f"{base}_Wscale"),
                numpy_helper.from_array(np.array(0, dtype=np.int8), f"{base}_Wzp"),
            ]
            x = node.input[0]
            new_nodes += [
                helper.make_node("DynamicQuantizeLinear", [x], [f"{base}_Xq", f"{base}_Xscale", f"{base}_Xzp"], name=f"{base}_dql"),
                helper.make_node(
                    "MatMulInteger", [f"{base}_Xq", f"{base}_Wq", f"{base}_Xzp", f"{base}_Wzp"], [f"{base}_Yint"], name=f"{base}_mmi"
                ),
                helper.make_node("Cast", [f"{base}_Yint"], [f"{base}_Yf"], to=TensorProto.FLOAT, name=f"{base}_cast"),
                helper.make_node("Mul", [f"{base}_Xscale", f"{base}_Wscale"], [f"{base}_scale"], name=f"{base}_scale_mul"),
                helper.make_node("Mul", [f"{base}_Yf", f"{base}_scale"], [node.output[0]], name=f"{base}_deq"),
            ]
            drop.add(w_name)
            n_mm += 1
            continue
        e_name = node.input[0] if node.op_type == "Gather" and len(node.input) == 2 else None
        if e_name in inits and len(inits[e_name].dims) == 2 and inits[e_name].dims[0] > 1000 and uses.get(e_name) == 1:
            e = numpy_helper.to_array(inits[e_name]).astype(np.float32)
            q, scale = quantize_rows(e)
            base = node.name.strip("/").replace("/", "_") or e_name
            ids = node.input[1]
            new_inits += [numpy_helper.from_array(q, f"{base}_Eq"), numpy_helper.from_array(scale, f"{base}_Escale")]
            new_nodes += [
                helper.make_node("Gather", [f"{base}_Eq", ids], [f"{base}_rows_q"], name=f"{base}_gather_q"),
                helper.make_node("Cast", [f"{base}_rows_q"], [f"{base}_rows_f"], to=TensorProto.FLOAT, name=f"{base}_cast"),
                helper.make_node("Gather", [f"{base}_Escale", ids], [f"{base}_row_scale"], name=f"{base}_gather_scale"),
                helper.make_node("Unsqueeze", [f"{base}_row_scale", f"{base}_axes"], [f"{base}_row_scale_u"], name=f"{base}_unsq"),
                helper.make_node("Mul", [f"{base}_rows_f", f"{base}_row_scale_u"], [node.output[0]], name=f"{base}_deq"),
            ]
            new_inits.append(numpy_helper.from_array(np.array([-1], dtype=np.int64), f"{base}_axes"))
            drop.add(e_name)
            n_gather += 1
            continue
        new_nodes.append(node)

    kept = [i for i in g.initializer if i.name not in drop]
    del g.node[:]
    g.node.extend(new_nodes)
    del g.initializer[:]
    g.initializer.extend(kept + new_inits)
    # Value-info of rewritten tensors may be stale; let the runtime infer shapes.
    del g.value_info[:]
    onnx.checker.check_model(model)
    artifact, files = save_split(model, dst)
    sizes = ", ".join(f"{n} {b / 1e6:.2f} MB" for n, b in files)
    print(f"quantised {n_mm} MatMul and {n_gather} embedding Gather nodes: {src} ({os.path.getsize(src) / 1e6:.2f} MB) "
          f"-> {dst} ({os.path.getsize(dst) / 1e6:.2f} MB graph + {sizes}); artifact {artifact}")


if __name__ == "__main__":
    main()
