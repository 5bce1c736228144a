#!/usr/bin/python3
"""Step 2 of `npm run train:toxicity`: train the toxicity transformer from scratch and export ONNX.

Reads the token ids that prepare.ts wrote with the serving tokenizer (.work/toxicity/*.jsonl), trains
a small pre-LN transformer encoder with five sigmoid heads under a per-corpus masked, class-weighted
BCE loss, early-stops on the validation split, and exports the best checkpoint to .work/toxicity/model.onnx (fp32; quantize.py makes the committed int8 copy).

Run with Debian's interpreter (python3-torch 1.13, python3-onnx, python3-numpy, python3-sklearn):
  /usr/bin/python3 models/toxic_transformer_v1/train.py            # train + export
  /usr/bin/python3 models/toxic_transformer_v1/train.py --export-only   # export best.pt again
Environment: TOX_THREADS (2), TOX_EPOCHS (see DEFAULTS), TOX_TIME_BUDGET_MIN (safety stop),
TOX_MAX_STEPS (smoke runs), TOX_DIM/TOX_LAYERS/TOX_HEADS/TOX_SEED.
"""
import json
import math
import os
import random
import sys
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
WORK = os.environ.get("TOX_WORK_DIR", os.path.join(ROOT, ".work", "toxicity"))
HEADS = ["overall", "insult", "threat", "identity_attack", "profanity"]

DEFAULTS = dict(
    dim=int(os.environ.get("TOX_DIM", 128)),
    layers=int(os.environ.get("TOX_LAYERS", 4)),
    heads=int(os.environ.get("TOX_HEADS", 4)),
    ff_mult=4,
    max_len=128,
    dropout=0.1,
    batch_size=int(os.environ.get("TOX_BATCH", 64)),
    lr=float(os.environ.get("TOX_LR", 1e-3)),
    weight_decay=0.01,
    warmup_steps=400,
    epochs=int(os.environ.get("TOX_EPOCHS", 2)),
    evals_per_epoch=int(os.environ.get("TOX_EVALS_PER_EPOCH", 2)),
    patience=int(os.environ.get("TOX_PATIENCE", 3)),
    threat_oversample=3,
    seed=int(os.environ.get("TOX_SEED", 1234)),
)


def log(*a):
    print(time.strftime("%H:%M:%S"), *a, flush=True)


def set_seed(seed):
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


class EncoderLayer(nn.Module):
    """Pre-LN block written with plain Linear/MatMul so ONNX export and int8 rewriting stay simple."""

    def __init__(self, d, h, ff, p):
        super().__init__()
        self.h = h
        self.ln1 = nn.LayerNorm(d)
        self.qkv = nn.Linear(d, 3 * d)
        self.out = nn.Linear(d, d)
        self.ln2 = nn.LayerNorm(d)
        self.ff1 = nn.Linear(d, ff)
        self.ff2 = nn.Linear(ff, d)
        self.drop = nn.Dropout(p)

    def forward(self, x, bias):
        b, t, d = x.shape
        hd = d // self.h
        q, k, v = self.qkv(self.ln1(x)).chunk(3, dim=-1)
        q = q.reshape(b, t, self.h, hd).transpose(1, 2)
        k = k.reshape(b, t, self.h, hd).transpose(1, 2)
        v = v.reshape(b, t, self.h, hd).transpose(1, 2)
        att = torch.matmul(q, k.transpose(-1, -2)) * (1.0 / math.sqrt(hd)) + bias
        att = self.drop(torch.softmax(att, dim=-1))
        y = torch.matmul(att, v).transpose(1, 2).reshape(b, t, d)
        x = x + self.drop(self.out(y))
        x = x + self.drop(self.ff2(self.drop(F.gelu(self.ff1(self.ln2(x))))))
        return x


class ToxicityTransformer(nn.Module):
    def __init__(self, vocab, cfg):
        super().__init__()
        d = cfg["dim"]
        self.tok = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(cfg["max_len"], d)
        self.ln_in = nn.LayerNorm(d)
        self.drop = nn.Dropout(cfg["dropout"])
        self.layers = nn.ModuleList(
            [EncoderLayer(d, cfg["heads"], cfg["ff_mult"] * d, cfg["dropout"]) for _ in range(cfg["layers"])]
        )
        self.ln_out = nn.LayerNorm(d)
        self.head = nn.Linear(2 * d, len(HEADS))
        nn.init.normal_(self.tok.weight, std=0.02)
        nn.init.normal_(self.pos.weight, std=0.02)

    def forward(self, input_ids, attention_mask):
        t = input_ids.shape[1]
        pos = torch.arange(t, device=input_ids.device).unsqueeze(0)
        x = self.drop(self.ln_in(self.tok(input_ids) + self.pos(pos)))
        m = attention_mask.to(x.dtype)
        bias = ((1.0 - m) * -10000.0).unsqueeze(1).unsqueeze(2)
        for layer in self.layers:
            x = layer(x, bias)
        x = self.ln_out(x)
        mm = m.unsqueeze(-1)
        mean = (x * mm).sum(1) / mm.sum(1).clamp(min=1.0)
        mx = (x + (mm - 1.0) * 10000.0).max(dim=1).values
        return self.head(self.drop(torch.cat([mean, mx], dim=-1)))


def load_split(name):
    ids, y, m, j, c = [], [], [], [], []
    with open(os.path.join(WORK, f"{name}.jsonl"), encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            ids.append(np.asarray(r["ids"], dtype=np.int64))
            y.append(r["y"])
            m.append(r["m"])
            j.append(r["j"])
            c.append(r["c"])
    return dict(
        ids=ids,
        y=np.asarray(y, dtype=np.float32),
        m=np.asarray(m, dtype=np.float32),
        j=np.asarray(j, dtype=np.int8),
        c=c,
        lens=np.asarray([len(a) for a in ids]),
    )


def pad(ids_list, pad_id=0):
    t = max(len(a) for a in ids_list)
    out = np.full((len(ids_list), t), pad_id, dtype=np.int64)
    mask = np.zeros((len(ids_list), t), dtype=np.int64)
    for i, a in enumerate(ids_list):
        out[i, : len(a)] = a
        mask[i, : len(a)] = 1
    return torch.from_numpy(out), torch.from_numpy(mask)


def length_batches(lens, idx, batch_size, rs):
    """Shuffle, sort by length inside chunks of 50 batches, cut, shuffle the batches."""
    idx = np.array(idx)
    rs.shuffle(idx)
    chunk = batch_size * 50
    batches = []
    for s in range(0, len(idx), chunk):
        part = idx[s : s + chunk]
        part = part[np.argsort(lens[part], kind="stable")]
        batches.extend(part[i : i + batch_size] for i in range(0, len(part), batch_size))
    rs.shuffle(batches)
    return batches


@torch.no_grad()
def predict(model, data, batch_size=256):
    model.eval()
    order = np.argsort(data["lens"], kind="stable")
    out = np.zeros((len(order), len(HEADS)), dtype=np.float32)
    for s in range(0, len(order), batch_size):
        b = order[s : s + batch_size]
        ids, mask = pad([data["ids"][i] for i in b])
        out[b] = torch.sigmoid(model(ids, mask)).numpy()
    model.train()
    return out


def head_aucs(probs, data, rows=None):
    from sklearn.metrics import average_precision_score, roc_auc_score

    res = {}
    for h, name in enumerate(HEADS):
        sel = data["m"][:, h] > 0
        if rows is not None:
            sel &= rows
        yt = data["y"][sel, h] >= 0.5
        if yt.sum() < 2 or (~yt).sum() < 2:
            continue
        res[name] = dict(
            roc_auc=float(roc_auc_score(yt, probs[sel, h])),
            pr_auc=float(average_precision_score(yt, probs[sel, h])),
            n=int(sel.sum()),
            positives=int(yt.sum()),
        )
    return res


def export_onnx(model, path, vocab):
    model.eval()
    ids = torch.randint(5, vocab, (2, 16), dtype=torch.int64)
    mask = torch.ones(2, 16, dtype=torch.int64)
    mask[1, 10:] = 0
    torch.onnx.export(
        model,
        (ids, mask),
        path,
        input_names=["input_ids", "attention_mask"],
        output_names=["logits"],
        dynamic_axes={"input_ids": {0: "batch", 1: "seq"}, "attention_mask": {0: "batch", 1: "seq"}, "logits": {0: "batch"}},
        opset_version=14,
        do_constant_folding=True,
    )
    import onnx

    m = onnx.load(path)
    onnx.checker.check_model(m)
    log(f"exported {path} ({os.path.getsize(path) / 1e6:.2f} MB)")


def write_config(cfg, vocab, path):
    """config.json: what the runtime needs. evaluate.ts later fills in the thresholds tuned on val."""
    old = {}
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            old = json.load(f)
    config = dict(
        model_version="toxic_transformer_v1",
        labels=HEADS,
        max_length=cfg["max_len"],
        pad_token_id=0,
        output="logits",
        inputs=["input_ids", "attention_mask"],
        default_model="model_quantized.onnx",
        thresholds=old.get("thresholds", {h: 0.5 for h in HEADS}),
        architecture=dict(type="pre-LN transformer encoder, mean+max pooling, 5 sigmoid heads", vocab_size=vocab,
                          dim=cfg["dim"], layers=cfg["layers"], heads=cfg["heads"], ffn=cfg["ff_mult"] * cfg["dim"]),
    )
    for k in ("thresholds_note",):
        if k in old:
            config[k] = old[k]
    with open(path, "w", encoding="utf-8") as f:
        json.dump(config, f, indent=2)
        f.write("\n")


def write_reference(model, test, path, n=64):
    """fp32 torch logits for the first n test rows: the TS tests compare onnxruntime against them."""
    model.eval()
    rows = list(range(min(n, len(test["ids"]))))
    with torch.no_grad():
        ids, mask = pad([test["ids"][i] for i in rows])
        logits = model(ids, mask).numpy().tolist()
    with open(path, "w") as f:
        json.dump({"rows": rows, "logits": logits}, f)


def mixed_batch_step(model, opt, train, aug, b, n_aug, rs, pos_weight, lr, pairs=None, n_pairs=0, clp=0.0):
    """One AdamW step at learning rate `lr` on training rows `b` plus `n_aug` random rows of `aug`
    (masked BCE over the labelled heads, gradients clipped at 1). Shared by phase 2 and stage 3
    (finetune.py); draws from `rs` before anything else, as both always did.
    With `clp` > 0, adds counterfactual logit pairing (Garg et al. 2019): `n_pairs` random neutral
    pairs (text, same text with a group term swapped; cda.ts) and clp * mean |logit(a) - logit(b)|."""
    a = rs.randint(0, len(aug["ids"]), size=n_aug)
    rows = [train["ids"][i] for i in b] + [aug["ids"][i] for i in a]
    n_bce = len(rows)
    if clp > 0 and n_pairs > 0:
        p = rs.randint(0, len(pairs["a"]), size=n_pairs)
        rows += [pairs["a"][i] for i in p] + [pairs["b"][i] for i in p]
    ids, mask = pad(rows)
    y = torch.from_numpy(np.concatenate([train["y"][b], aug["y"][a]]))
    m = torch.from_numpy(np.concatenate([train["m"][b], aug["m"][a]]))
    for g in opt.param_groups:
        g["lr"] = lr
    logits = model(ids, mask)
    loss_el = F.binary_cross_entropy_with_logits(logits[:n_bce], y, pos_weight=pos_weight, reduction="none")
    loss = (loss_el * m).sum() / m.sum().clamp(min=1.0)
    if n_bce < len(rows):
        la, lb = logits[n_bce:].chunk(2)
        loss = loss + clp * (la - lb).abs().mean()
    opt.zero_grad(set_to_none=True)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()
    return loss


def finetune_identity(model, cfg, train, val, pos_weight, ckpt_dir, base_val_auc):
    """Phase 2, identity-term debiasing (Dixon et al. 2018): continue from the best checkpoint at a low
    learning rate with every batch = 56 training rows + 8 neutral identity sentences (all heads 0,
    from identity-augmentation.json via prepare.ts). Kept only if the validation mean ROC-AUC over the
    heads with >= 100 validation positives stays within TOX_FINETUNE_MAX_DROP (0.005) of phase 1;
    otherwise phase 1 is exported."""
    steps = int(os.environ.get("TOX_FINETUNE_STEPS", 600))
    aug_path = os.path.join(WORK, "identity_aug.jsonl")
    if steps <= 0 or not os.path.exists(aug_path):
        log("identity fine-tuning skipped")
        return None
    aug = load_split("identity_aug")
    base_aucs = head_aucs(predict(model, val), val)
    set_seed(cfg["seed"] + 100)
    rs = np.random.RandomState(cfg["seed"] + 100)
    lr_peak = float(os.environ.get("TOX_FINETUNE_LR", 2e-4))
    opt = torch.optim.AdamW(model.parameters(), lr=lr_peak, weight_decay=cfg["weight_decay"])
    batches = length_batches(train["lens"], list(range(len(train["ids"]))), 56, rs)
    model.train()
    t0 = time.time()
    for step in range(steps):
        b = batches[step % len(batches)]
        loss = mixed_batch_step(model, opt, train, aug, b, 8, rs, pos_weight, lr_peak * min(1.0, (step + 1) / 50) * (1 - step / steps))
        if (step + 1) % 100 == 0:
            log(f"identity fine-tune step {step + 1}/{steps} loss {float(loss):.4f} ({(step + 1) / (time.time() - t0):.2f} steps/s)")
    aucs = head_aucs(predict(model, val), val)
    mean_auc = float(np.mean([v["roc_auc"] for v in aucs.values()]))
    # The gate uses heads with >= 100 validation positives: threat has ~30, so its AUC moves by
    # several hundredths from a handful of rank changes (standard error ~0.04) and cannot resolve
    # a 0.005 difference. Its change is logged and reported instead.
    gated = [h for h, v in aucs.items() if v["positives"] >= 100]
    gated_auc = float(np.mean([aucs[h]["roc_auc"] for h in gated]))
    base_gated = float(np.mean([base_aucs[h]["roc_auc"] for h in gated]))
    max_drop = float(os.environ.get("TOX_FINETUNE_MAX_DROP", 0.005))
    kept = gated_auc >= base_gated - max_drop
    log(f"identity fine-tune: val mean ROC-AUC {mean_auc:.4f} (phase 1 {base_val_auc:.4f}); over {gated}: "
        f"{gated_auc:.4f} (phase 1 {base_gated:.4f}) -> {'kept' if kept else 'discarded'}")
    if kept:
        torch.save({"model": model.state_dict(), "cfg": cfg, "val_mean_roc_auc": mean_auc}, os.path.join(ckpt_dir, "final.pt"))
    return dict(steps=steps, lr=lr_peak, val_mean_roc_auc=mean_auc, gated_heads=gated, gated_val_mean_roc_auc=gated_auc,
                phase1_gated_val_mean_roc_auc=base_gated, val={k: round(v["roc_auc"], 4) for k, v in aucs.items()},
                kept=kept, minutes=round((time.time() - t0) / 60, 1))


def class_weights(train):
    """sqrt(neg/pos) per head over labelled training rows, clipped to [1, 20]."""
    pos = ((train["y"] >= 0.5) * train["m"]).sum(0)
    neg = train["m"].sum(0) - pos
    return torch.tensor(np.clip(np.sqrt(neg / np.maximum(pos, 1)), 1.0, 20.0), dtype=torch.float32)


def main():
    cfg = dict(DEFAULTS)
    threads = int(os.environ.get("TOX_THREADS", 2))
    torch.set_num_threads(threads)
    set_seed(cfg["seed"])
    tok = json.load(open(os.path.join(HERE, "tokenizer.json"), encoding="utf-8"))
    vocab = len(tok["model"]["vocab"])
    ckpt_dir = os.path.join(WORK, "checkpoints")
    os.makedirs(ckpt_dir, exist_ok=True)
    best_path = os.path.join(ckpt_dir, "best.pt")
    # The fp32 export stays in the ignored work folder: only the int8 copy is committed (it loses
    # < 0.005 mean ROC-AUC, see metrics.json), which keeps the artifacts far under 15 MB.
    onnx_path = os.path.join(WORK, "model.onnx")

    if "--export-only" in sys.argv or "--finetune-only" in sys.argv:
        state = torch.load(best_path)
        model = ToxicityTransformer(vocab, state["cfg"])
        model.load_state_dict(state["model"])
        final = os.path.join(ckpt_dir, "final.pt")
        if "--finetune-only" in sys.argv:
            train, val = load_split("train"), load_split("val")
            info = finetune_identity(model, state["cfg"], train, val, class_weights(train), ckpt_dir, state["val_mean_roc_auc"])
            summary_path = os.path.join(WORK, "train-summary.json")
            if os.path.exists(summary_path):
                summary = json.load(open(summary_path))
                summary["identity_finetune"] = info
                json.dump(summary, open(summary_path, "w"), indent=2)
            if not (info and info["kept"]):
                model.load_state_dict(state["model"])
        elif os.path.exists(final):
            model.load_state_dict(torch.load(final)["model"])
            log("exporting final.pt (phase 2)")
        export_onnx(model, onnx_path, vocab)
        write_config(state["cfg"], vocab, os.path.join(HERE, "config.json"))
        write_reference(model, load_split("test"), os.path.join(WORK, "torch_reference.json"))
        return

    t_load = time.time()
    train, val = load_split("train"), load_split("val")
    log(f"loaded train {len(train['ids'])} val {len(val['ids'])} rows in {time.time() - t_load:.1f}s; vocab {vocab}; cfg {cfg}")

    pos_weight = class_weights(train)
    log("pos_weight", dict(zip(HEADS, [round(float(x), 2) for x in pos_weight])))

    base_idx = list(range(len(train["ids"])))
    threat_pos = [i for i in base_idx if train["m"][i, 2] > 0 and train["y"][i, 2] >= 0.5]
    train_idx = base_idx + threat_pos * (cfg["threat_oversample"] - 1)

    model = ToxicityTransformer(vocab, cfg)
    n_params = sum(p.numel() for p in model.parameters())
    log(f"model params {n_params / 1e6:.2f}M")
    decay = [p for n, p in model.named_parameters() if p.dim() >= 2 and "pos" not in n]
    no_decay = [p for n, p in model.named_parameters() if not (p.dim() >= 2 and "pos" not in n)]
    opt = torch.optim.AdamW(
        [{"params": decay, "weight_decay": cfg["weight_decay"]}, {"params": no_decay, "weight_decay": 0.0}], lr=cfg["lr"]
    )
    steps_per_epoch = math.ceil(len(train_idx) / cfg["batch_size"])
    max_steps = int(os.environ.get("TOX_MAX_STEPS", 0)) or steps_per_epoch * cfg["epochs"]
    total_planned = steps_per_epoch * cfg["epochs"]

    def lr_at(step):
        if step < cfg["warmup_steps"]:
            return cfg["lr"] * (step + 1) / cfg["warmup_steps"]
        p = min(1.0, (step - cfg["warmup_steps"]) / max(1, total_planned - cfg["warmup_steps"]))
        return cfg["lr"] * (0.05 + 0.95 * 0.5 * (1 + math.cos(math.pi * p)))

    budget_s = float(os.environ.get("TOX_TIME_BUDGET_MIN", 62)) * 60
    eval_every = max(1, steps_per_epoch // cfg["evals_per_epoch"])
    history = []
    best = -1.0
    bad = 0
    step = 0
    t0 = time.time()
    stop = False
    model.train()
    for epoch in range(cfg["epochs"]):
        rs = np.random.RandomState(cfg["seed"] + epoch)
        batches = length_batches(train["lens"], train_idx, cfg["batch_size"], rs)
        run_loss, run_n = 0.0, 0
        for b in batches:
            ids, mask = pad([train["ids"][i] for i in b])
            y = torch.from_numpy(train["y"][b])
            m = torch.from_numpy(train["m"][b])
            for g in opt.param_groups:
                g["lr"] = lr_at(step)
            logits = model(ids, mask)
            loss_el = F.binary_cross_entropy_with_logits(logits, y, pos_weight=pos_weight, reduction="none")
            loss = (loss_el * m).sum() / m.sum().clamp(min=1.0)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            step += 1
            run_loss += float(loss)
            run_n += 1
            if step % 100 == 0:
                el = time.time() - t0
                log(f"epoch {epoch} step {step}/{total_planned} loss {run_loss / run_n:.4f} lr {lr_at(step):.2e} "
                    f"{step / el:.2f} steps/s, eta {(total_planned - step) / (step / el) / 60:.1f} min")
                run_loss, run_n = 0.0, 0
            last_in_epoch = b is batches[-1]
            over_budget = time.time() - t0 > budget_s
            if step % eval_every == 0 or last_in_epoch or step >= max_steps or over_budget:
                probs = predict(model, val)
                aucs = head_aucs(probs, val)
                mean_auc = float(np.mean([v["roc_auc"] for v in aucs.values()]))
                history.append(dict(step=step, epoch=epoch, val_mean_roc_auc=mean_auc,
                                    val={k: round(v["roc_auc"], 4) for k, v in aucs.items()},
                                    elapsed_min=round((time.time() - t0) / 60, 2)))
                log(f"eval step {step}: val mean ROC-AUC {mean_auc:.4f} {history[-1]['val']}")
                torch.save({"model": model.state_dict(), "cfg": cfg, "step": step}, os.path.join(ckpt_dir, "last.pt"))
                if mean_auc > best:
                    best, bad = mean_auc, 0
                    torch.save({"model": model.state_dict(), "cfg": cfg, "step": step, "val_mean_roc_auc": mean_auc}, best_path)
                    log("  new best checkpoint")
                else:
                    bad += 1
                    if bad >= cfg["patience"]:
                        log("early stopping")
                        stop = True
                if over_budget:
                    log("time budget reached")
                    stop = True
            if stop or step >= max_steps:
                stop = True
                break
        if stop:
            break

    train_min = (time.time() - t0) / 60
    state = torch.load(best_path)
    model.load_state_dict(state["model"])
    final = os.path.join(ckpt_dir, "final.pt")
    if os.path.exists(final):
        os.remove(final)
    info = finetune_identity(model, cfg, train, val, pos_weight, ckpt_dir, best)
    if not (info and info["kept"]):
        model.load_state_dict(state["model"])
    summary = dict(identity_finetune=info, cfg=cfg, params=n_params, vocab=vocab, steps=step, best_step=state["step"],
                   best_val_mean_roc_auc=best, train_minutes=round(train_min, 1), threads=threads,
                   pos_weight=dict(zip(HEADS, [round(float(x), 3) for x in pos_weight])), history=history,
                   train_rows=len(train["ids"]), val_rows=len(val["ids"]))
    with open(os.path.join(WORK, "train-summary.json"), "w") as f:
        json.dump(summary, f, indent=2)
    log(f"training done in {train_min:.1f} min; best val mean ROC-AUC {best:.4f} at step {state['step']}")
    export_onnx(model, onnx_path, vocab)
    write_config(cfg, vocab, os.path.join(HERE, "config.json"))
    write_reference(model, load_split("test"), os.path.join(WORK, "torch_reference.json"))


if __name__ == "__main__":
    main()
