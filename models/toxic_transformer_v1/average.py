#!/usr/bin/python3
"""Uniform weight averaging of stage-3 checkpoints (validation-only comparison).

  /usr/bin/python3 models/toxic_transformer_v1/average.py NAME CKPT [CKPT ...]   # writes checkpoints/NAME.pt, prints validation metrics
  /usr/bin/python3 models/toxic_transformer_v1/average.py --eval CKPT [...]      # only evaluates existing checkpoints

Checkpoint names are relative to .work/toxicity/checkpoints (".pt" optional). Every checkpoint of
one run shares the starting point, so their mean stays in one basin (stochastic weight averaging,
Izmailov et al. 2018, here uniform over the saved steps). Metrics (finetune.evaluate): validation
ROC-AUC per head and mean, and the validation identity flag rate at 0.5 (overall and worst group).
"""
import json
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from train import HERE, WORK, ToxicityTransformer, load_split, log  # noqa: E402
from finetune import evaluate  # noqa: E402

CK = os.path.join(WORK, "checkpoints")


def path(n):
    return os.path.join(CK, n if n.endswith(".pt") else n + ".pt")


def main():
    torch.set_num_threads(int(os.environ.get("TOX_THREADS", 2)))
    args = sys.argv[1:]
    only_eval = args[0] == "--eval"
    tok = json.load(open(os.path.join(HERE, "tokenizer.json"), encoding="utf-8"))
    vocab = len(tok["model"]["vocab"])
    val, idv = load_split("val"), load_split("identity_val")
    results = {}
    todo = [(n, [n]) for n in args[1:]] if only_eval else [(args[0], args[1:])]
    for name, parts in todo:
        states = [torch.load(path(p)) for p in parts]
        cfg = states[0]["cfg"]
        avg = {}
        for k, v in states[0]["model"].items():
            avg[k] = sum(s["model"][k].double() for s in states).div(len(states)).to(v.dtype) if v.is_floating_point() else v
        model = ToxicityTransformer(vocab, cfg)
        model.load_state_dict(avg)
        model.eval()
        if not only_eval:
            torch.save({"model": avg, "cfg": cfg, "step": f"avg({','.join(parts)})", "averaged": parts}, path(name))
        results[name] = evaluate(model, val, idv)
        log(f"{name}: {json.dumps(results[name])}")
    print(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
