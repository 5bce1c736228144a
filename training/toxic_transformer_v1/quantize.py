"""Step 3 of `npm run train:toxicity`: int8 weights for the fp32 export (.work/toxicity/model.onnx)
-> models/toxic_transformer_v1/onnx/model_quantized.onnx, saved as the graph plus external data files
under 20 MB each (split_external_data.py, decision 185).

Weight-only quantisation (decision 188): the weights are stored in int8, the arithmetic stays float32.
Rewrites the graph with the `onnx` package, using only standard ONNX ops that onnxruntime-node and
onnxruntime-web both execute:

* MatMul(X, W) with a constant 2-D W  ->  MatMul(X, Mul(Cast(Wq, float), Wscale)). Wq is int8 with
  7-bit range (|q| <= 63), symmetric, one scale per output column. Cast and Mul read constants only,
  so onnxruntime folds them into one float32 weight when the session is created: every run is a plain
  float32 MatMul, which onnxruntime's graph optimiser can fuse into its attention and bias kernels.
* Gather(E, ids) on the token-embedding table  ->  Gather(Eq, ids) -> Cast -> Mul(Gather(Escale, ids)):
  an int8 table with one scale per row, dequantised only for the rows a run uses.

Activations are never quantised. Dynamic activation quantisation (one scale per run, from every row in
it) made a text's scores depend on the other texts of its batch, and its rounding turned the last-bit
differences between CPU instruction sets (AVX2, AVX-512) into visible score differences. With float32
activations a text's scores are the same, to float rounding, alone or in any batch and on any x86 CPU.

The int8 weights are also what a model exported before decision 188 holds: given a graph with the
earlier `DynamicQuantizeLinear -> MatMulInteger -> Cast -> Mul` pattern, this script rewrites each
such chain to the pattern above with the same int8 weights and scales, bit for bit.

Usage: .work/venv/bin/python training/toxic_transformer_v1/quantize.py [in.onnx] [out.onnx]
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from split_external_data import save_split

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
# The model folder this writes into (training code lives in training/, the artifact in models/).
MODEL_DIR = os.path.join(ROOT, "models", "toxic_transformer_v1")


# MatMul weights use 7 bits (|q| <= 63): the range the shipped weights were quantised to when the
# arithmetic was int8 (on x86 CPUs without VNNI, onnxruntime's u8 x s8 kernel adds pairs of products in
# int16 and saturates with full-range weights). Float32 arithmetic does not need it; it is kept so that
# a rebuild gives the same weights as the shipped model for the same fp32 export. Embedding rows are
# only gathered and dequantised, so they keep the full 8 bits.
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


def weight_only_matmul(base, x, y):
    """MatMul(x, Cast(Wq) * Wscale) -> y, reading the initializers `{base}_Wq` and `{base}_Wscale`."""
    return [
        helper.make_node("Cast", [f"{base}_Wq"], [f"{base}_Wf"], to=TensorProto.FLOAT, name=f"{base}_wcast"),
        helper.make_node("Mul", [f"{base}_Wf", f"{base}_Wscale"], [f"{base}_W"], name=f"{base}_wdeq"),
        helper.make_node("MatMul", [x, f"{base}_W"], [y], name=f"{base}_matmul"),
    ]


def from_dynamic(model):
    """Rewrites each `DynamicQuantizeLinear -> MatMulInteger -> Cast -> Mul` chain of an earlier export
    to `weight_only_matmul`, keeping its int8 weights and scales; returns the number of chains."""
    g = model.graph
    producer = {o: n for n in g.node for o in n.output}
    consumers = {}
    for n in g.node:
        for x in n.input:
            consumers.setdefault(x, []).append(n)
    drop_nodes, drop_inits, added = set(), set(), {}
    for mmi in [n for n in g.node if n.op_type == "MatMulInteger"]:
        base = mmi.name[: -len("_mmi")]
        dql = producer[mmi.input[0]]
        cast = consumers[mmi.output[0]][0]
        deq = consumers[cast.output[0]][0]
        scale_mul = producer[deq.input[1]]
        assert dql.op_type == "DynamicQuantizeLinear" and cast.op_type == "Cast" and deq.op_type == "Mul"
        assert mmi.input[1] == f"{base}_Wq" and f"{base}_Wscale" in scale_mul.input
        added[id(dql)] = weight_only_matmul(base, dql.input[0], deq.output[0])
        drop_nodes |= {id(mmi), id(cast), id(deq), id(scale_mul)}
        drop_inits.add(f"{base}_Wzp")
    nodes = []
    for n in g.node:
        if id(n) in added:
            nodes += added[id(n)]
        elif id(n) not in drop_nodes and n.op_type != "DynamicQuantizeLinear":
            nodes.append(n)
    kept = [i for i in g.initializer if i.name not in drop_inits]
    del g.node[:]
    g.node.extend(nodes)
    del g.initializer[:]
    g.initializer.extend(kept)
    return len(added)


def main():
    src = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".work", "toxicity", "model.onnx")
    dst = sys.argv[2] if len(sys.argv) > 2 else os.path.join(MODEL_DIR, "onnx", "model_quantized.onnx")
    model = onnx.load(src)
    if any(n.op_type == "MatMulInteger" for n in model.graph.node):
        n_mm = from_dynamic(model)
        del model.graph.value_info[:]
        onnx.checker.check_model(model)
        artifact, files = save_split(model, dst)
        print(f"rewrote {n_mm} dynamic int8 MatMul chains to int8 weights with float32 arithmetic: {src} -> {dst}; artifact {artifact}")
        return
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
            ]
            new_nodes += weight_only_matmul(base, node.input[0], node.output[0])
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
