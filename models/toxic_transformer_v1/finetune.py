#!/usr/bin/python3
"""Stage 3 of `npm run train:toxicity`: threat + identity fine-tune, selected on validation only.

Continues from the stage-1/2 checkpoint (final.pt if phase 2 was kept, else best.pt; or --init PATH,
e.g. dequantized.pt from dequantize.py) at a low learning rate. Every batch mixes
  * TOX_FT_BATCH (48) training rows, drawn from an index list where rows with threat = 1 are
    repeated TOX_FT_THREAT_OVERSAMPLE (4) times: threat has 444 training positives and is the head
    that lags the TF-IDF baseline;
  * TOX_FT_IDENTITY (16) neutral identity sentences (identity-augmentation.json, training frames,
    every head labelled 0), against identity-term false positives (Dixon et al. 2018).
Leetspeak and spaced-out letters are folded in the tokenizer's input (toxicity-core.ts), so no
obfuscated rows are needed here.

Every TOX_FT_EVAL_EVERY (150) steps it measures, on validation only: ROC-AUC per head over the
validation split and the flag rate of the validation identity templates (identity-validation.json,
disjoint from the training frames and from the evaluation templates) at 0.5 on any head. The kept
step is the one with the highest validation mean ROC-AUC over the five heads among the steps whose
validation identity flag rate is <= TOX_FT_MAX_IDENTITY_FLAG (0.05); if none qualifies, the step
with the lowest flag rate. Step 0 (the starting model) takes part, so the stage can only be kept
if it helps on validation. The kept weights go to checkpoints/finetuned.pt and model.onnx.
With TOX_FT_SELECT=select the step is chosen by select_checkpoint.py's rule instead, against the
checkpoint named by TOX_FT_REFERENCE (default: this run's step 0).

Options of rounds 4-6 (validation experiments, not part of the shipped recipe): TOX_FT_CDA=1 adds the
counterfactual copies of cda.ts to the pool; TOX_FT_CLP=λ adds counterfactual logit pairing on
TOX_FT_CLP_PAIRS (16) neutral pairs per step (cda-pairs.jsonl).

  /usr/bin/python3 models/toxic_transformer_v1/finetune.py [--init PATH] [--no-export]
  /usr/bin/python3 models/toxic_transformer_v1/finetune.py --export-only   # export checkpoints/finetuned.pt
"""
import json
import os
import shutil
import sys
import time

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from train import (  # noqa: E402
    HEADS, HERE, WORK, ToxicityTransformer, class_weights, export_onnx, head_aucs, length_batches, load_split, log,
    mixed_batch_step, predict, set_seed, write_config, write_reference,
)


def env(name, default, cast=float):
    return cast(os.environ.get(name, default))


def evaluate(model, val, idv):
    aucs = head_aucs(predict(model, val), val)
    ip = predict(model, idv)
    flagged = (ip >= 0.5).any(axis=1)
    groups = {}
    for c, f in zip(idv["c"], flagged):
        groups.setdefault(c.split(":", 1)[1], []).append(bool(f))
    return dict(
        val={k: round(v["roc_auc"], 4) for k, v in aucs.items()},
        val_mean_roc_auc=round(float(np.mean([v["roc_auc"] for v in aucs.values()])), 4),
        identity_val_flag_rate=round(float(flagged.mean()), 4),
        identity_val_max_group=round(max(float(np.mean(v)) for v in groups.values()), 4),
        identity_val_mean_overall=round(float(ip[:, 0].mean()), 4),
    )


def main():
    torch.set_num_threads(int(os.environ.get("TOX_THREADS", 2)))
    ckpt_dir = os.path.join(WORK, "checkpoints")
    if "--init" in sys.argv:
        init = sys.argv[sys.argv.index("--init") + 1]
    else:
        init = os.path.join(ckpt_dir, "final.pt")
        if not os.path.exists(init):
            init = os.path.join(ckpt_dir, "best.pt")
    if "--export-only" in sys.argv:  # re-export the kept weights (checkpoints/finetuned.pt)
        init = os.path.join(ckpt_dir, "finetuned.pt")
    state = torch.load(init)
    cfg = state["cfg"]
    tok = json.load(open(os.path.join(HERE, "tokenizer.json"), encoding="utf-8"))
    vocab = len(tok["model"]["vocab"])
    model = ToxicityTransformer(vocab, cfg)
    model.load_state_dict(state["model"])
    log(f"stage 3 fine-tune from {init}")

    if "--export-only" in sys.argv:
        export_onnx(model, os.path.join(WORK, "model.onnx"), vocab)
        write_config(cfg, vocab, os.path.join(HERE, "config.json"))
        write_reference(model, load_split("test"), os.path.join(WORK, "torch_reference.json"))
        return
    steps = env("TOX_FT_STEPS", 900, int)
    lr_peak = env("TOX_FT_LR", 2e-4)
    n_train = env("TOX_FT_BATCH", 48, int)
    n_id = env("TOX_FT_IDENTITY", 16, int)
    threat_os = env("TOX_FT_THREAT_OVERSAMPLE", 4, int)
    eval_every = env("TOX_FT_EVAL_EVERY", 150, int)
    max_flag = env("TOX_FT_MAX_IDENTITY_FLAG", 0.05)
    seed = env("TOX_FT_SEED", cfg["seed"] + 300, int)
    warmup = env("TOX_FT_WARMUP", 50, int)
    tag = os.environ.get("TOX_FT_TAG", "ft")
    selection = os.environ.get("TOX_FT_SELECT", "flag-rate")
    reference = os.environ.get("TOX_FT_REFERENCE", f"{tag}-0")

    train, val = load_split("train"), load_split("val")
    aug, idv = load_split("identity_aug"), load_split("identity_val")
    pos_weight = class_weights(train)
    if env("TOX_FT_CDA", 0, int):  # counterfactual identity-term copies of training rows (cda.ts)
        cda = load_split("cda")
        for k in ("ids", "c"):
            train[k] = train[k] + cda[k]
        for k in ("y", "m", "j", "lens"):
            train[k] = np.concatenate([train[k], cda[k]])
        log(f"+ {len(cda['ids'])} counterfactual (CDA) rows in the training pool")
    clp = env("TOX_FT_CLP", 0.0)  # counterfactual logit pairing weight (cda.ts writes the pairs)
    n_pairs = env("TOX_FT_CLP_PAIRS", 16, int)
    pairs = None
    if clp > 0:
        pairs = dict(a=[], b=[])
        with open(os.path.join(WORK, "cda-pairs.jsonl"), encoding="utf-8") as f:
            for line in f:
                r = json.loads(line)
                pairs["a"].append(np.asarray(r["a"], dtype=np.int64))
                pairs["b"].append(np.asarray(r["b"], dtype=np.int64))
        log(f"CLP: weight {clp}, {n_pairs} of {len(pairs['a'])} neutral counterfactual pairs per step")
    base_idx = list(range(len(train["ids"])))
    threat_pos = [i for i in base_idx if train["m"][i, 2] > 0 and train["y"][i, 2] >= 0.5]
    idx = base_idx + threat_pos * (threat_os - 1)

    history = [dict(step=0, **evaluate(model, val, idv))]
    log(f"step 0: {history[-1]}")
    torch.save({"model": model.state_dict(), "cfg": cfg, "step": 0}, os.path.join(ckpt_dir, f"{tag}-0.pt"))

    set_seed(seed)
    rs = np.random.RandomState(seed)
    decay = [p for n, p in model.named_parameters() if p.dim() >= 2 and "pos" not in n]
    no_decay = [p for n, p in model.named_parameters() if not (p.dim() >= 2 and "pos" not in n)]
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": cfg["weight_decay"]}, {"params": no_decay, "weight_decay": 0.0}], lr=lr_peak)
    batches = length_batches(train["lens"], idx, n_train, rs)
    model.train()
    t0 = time.time()
    for step in range(steps):
        b = batches[step % len(batches)]
        lr = lr_peak * min(1.0, (step + 1) / warmup) * max(0.0, 1 - step / steps)
        loss = mixed_batch_step(model, opt, train, aug, b, n_id, rs, pos_weight, lr, pairs, n_pairs, clp)
        if (step + 1) % 50 == 0:
            log(f"step {step + 1}/{steps} loss {float(loss):.4f} ({(step + 1) / (time.time() - t0):.2f} steps/s)")
        if (step + 1) % eval_every == 0 or step + 1 == steps:
            history.append(dict(step=step + 1, **evaluate(model, val, idv)))
            log(f"eval: {history[-1]}")
            torch.save({"model": model.state_dict(), "cfg": cfg, "step": step + 1}, os.path.join(ckpt_dir, f"{tag}-{step + 1}.pt"))
            model.train()

    if selection == "select":  # select_checkpoint.py's rule (round 6) against TOX_FT_REFERENCE (default: step 0)
        from select_checkpoint import select

        names = [reference] + [f"{tag}-{h['step']}" for h in history if h["step"] > 0]
        winner = select(names, os.path.join(WORK, f"select-summary-{tag}.json"))
        if winner == reference and reference != f"{tag}-0":
            shutil.copyfile(os.path.join(ckpt_dir, f"{reference}.pt"), os.path.join(ckpt_dir, f"{tag}-ref.pt"))
            history.append(dict(step="ref", reference=reference))
            winner = f"{tag}-ref"
        chosen = next(h for h in history if f"{tag}-{h['step']}" == winner)
    else:  # "flag-rate": best validation mean ROC-AUC among steps with identity flag rate <= max_flag
        ok = [h for h in history if h["identity_val_flag_rate"] <= max_flag]
        chosen = max(ok, key=lambda h: h["val_mean_roc_auc"]) if ok else min(history, key=lambda h: h["identity_val_flag_rate"])
    log(f"kept step {chosen['step']}: {chosen}")
    summary = dict(init=init, steps=steps, lr=lr_peak, train_rows_per_batch=n_train, identity_rows_per_batch=n_id, clp=clp, clp_pairs=n_pairs, selection=selection,
                   threat_oversample=threat_os, max_identity_flag=max_flag, seed=seed, minutes=round((time.time() - t0) / 60, 1),
                   history=history, kept_step=chosen["step"])
    with open(os.path.join(WORK, f"finetune-summary-{tag}.json"), "w") as f:
        json.dump(summary, f, indent=2)
    kept = torch.load(os.path.join(ckpt_dir, f"{tag}-{chosen['step']}.pt"))
    model.load_state_dict(kept["model"])
    torch.save({"model": model.state_dict(), "cfg": cfg, "step": chosen["step"], "stage3": summary}, os.path.join(ckpt_dir, "finetuned.pt"))
    if "--no-export" not in sys.argv:
        export_onnx(model, os.path.join(WORK, "model.onnx"), vocab)
        write_config(cfg, vocab, os.path.join(HERE, "config.json"))
        write_reference(model, load_split("test"), os.path.join(WORK, "torch_reference.json"))
        with open(os.path.join(WORK, "finetune-summary.json"), "w") as f:  # the exported run's, read by evaluate.ts
            json.dump(summary, f, indent=2)


if __name__ == "__main__":
    main()
