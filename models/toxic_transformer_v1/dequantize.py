#!/usr/bin/python3
"""Recover a torch checkpoint from the committed int8 model (model_quantized.onnx).

The fp32 checkpoint of the first training run was not committed (only the int8 ONNX file is), so
stage 3 (finetune.py) of this repository's model started from these dequantised weights:
MatMul weights `Wq * Wscale` (per output column, transposed back to torch's [out, in]), the token
embedding `Eq * Escale` (per row); biases, LayerNorm, positions and the head were stored in fp32.
Writes .work/toxicity/checkpoints/dequantized.pt and checks that the torch model reproduces the
ONNX int8 scores of validation rows (onnxruntime for Python is not available; the int8 scores come
from `val-checks.ts --out`, when given with --check).

Usage: /usr/bin/python3 models/toxic_transformer_v1/dequantize.py [--check scores.json]
"""
import json
import os
import sys

import numpy as np
import onnx
import torch
from onnx import numpy_helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from train import DEFAULTS, WORK, HERE, ToxicityTransformer, load_split, predict  # noqa: E402


def main():
    # --model PATH: another int8 export (e.g. an earlier commit's, via git show); --out NAME: checkpoint name
    src = sys.argv[sys.argv.index("--model") + 1] if "--model" in sys.argv else os.path.join(HERE, "model_quantized.onnx")
    m = onnx.load(src)
    init = {i.name: numpy_helper.to_array(i) for i in m.graph.initializer}
    cfg = dict(DEFAULTS)
    cfg.update(dim=128, layers=4, heads=4, ff_mult=4, max_len=128)
    vocab = init["tok_Gather_Eq"].shape[0]
    model = ToxicityTransformer(vocab, cfg)
    state = model.state_dict()
    new = {}
    for k in state:
        if k in init:
            new[k] = torch.from_numpy(init[k].astype(np.float32).copy())
    new["tok.weight"] = torch.from_numpy(init["tok_Gather_Eq"].astype(np.float32) * init["tok_Gather_Escale"][:, None])
    for layer in range(cfg["layers"]):
        for lin in ("qkv", "out", "ff1", "ff2"):
            b = f"layers.{layer}_{lin}_MatMul"
            w = init[f"{b}_Wq"].astype(np.float32) * init[f"{b}_Wscale"][None, :]
            new[f"layers.{layer}.{lin}.weight"] = torch.from_numpy(w.T.copy())
    missing = set(state) - set(new)
    assert not missing, missing
    model.load_state_dict(new)
    os.makedirs(os.path.join(WORK, "checkpoints"), exist_ok=True)
    name = sys.argv[sys.argv.index("--out") + 1] if "--out" in sys.argv else "dequantized"
    out = os.path.join(WORK, "checkpoints", f"{name}.pt")
    torch.save({"model": model.state_dict(), "cfg": cfg, "step": 0, "source": f"{os.path.basename(src)} (dequantised)"}, out)
    print(f"wrote {out}")
    if "--check" in sys.argv:
        ref = json.load(open(sys.argv[sys.argv.index("--check") + 1]))
        val = load_split("val")
        torch.set_num_threads(int(os.environ.get("TOX_THREADS", 2)))
        probs = predict(model, val)
        onnx_probs = np.asarray(ref["val_scores"], dtype=np.float32)
        d = np.abs(probs - onnx_probs)
        print(f"torch (dequantised fp32) vs ONNX int8 on {len(probs)} validation rows: max |diff| {d.max():.4f}, "
              f"mean {d.mean():.5f}, 99th pct {np.percentile(d, 99):.4f}")


if __name__ == "__main__":
    main()
