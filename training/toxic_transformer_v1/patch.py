"""Step 2 of `npm run train:toxicity`: patch the served model instead of retraining it.

A full fine-tune of MiniLM-L6 over every corpus takes about 3 hours on a 2-core AVX2 CPU; this step
warm-starts from the weights the service runs (models/toxic_transformer_v1/onnx, int8 weights read
back to float32: exactly the function that serves) and trains for about one hour on:

* a replay sample of the training split, each row with the served model's own logits, computed once
  with onnxruntime on the served file (self-distillation keeps what the model already does well),
  mixed with the rows' gold labels (masked per corpus);
* counterfactual identity pairs (prepare-patch.ts `pairs.jsonl`): a training row that names a group
  and the same row with the group swapped; the swapped text keeps the row's toxicity labels, and a
  consistency loss pulls the two texts' toxicity logits together (logit pairing);
* patch-training.json's rows (praise and slogans naming a group, mentions of slurs, self-harm intent
  and encouragement, figurative uses, veiled threats and their lookalikes), repeated;
* twitter_suicidal_intention.csv's training split on a new seventh label, `self_harm`, which the
  ensemble reads as a model signal beside the self-harm rules (it is never an API toxicity head).

Word embeddings are frozen (they are most of AdamW's time and barely move in a short run), batches are
bucketed by length, and the run checkpoints every TOX_PATCH_CKPT steps to .work/toxicity/patch-ckpt.pt
and resumes from it. Selection is on validation only: the toxicity validation split, the self-harm
validation split and patch_val.jsonl. Writes .work/toxicity/model.onnx (fp32, 7 logits),
hf_config.json and train-summary.json, as train.py does.

  .work/venv/bin/python training/toxic_transformer_v1/patch.py   (patch.sh runs it; npm run train:toxicity-patch)
Environment: TOX_PATCH_BASE (the model folder to start from), TOX_THREADS (2), TOX_PATCH_REPLAY (replay rows), TOX_PATCH_PAIRS (pairs), TOX_PATCH_PAIRS_FROM (all, nontoxic), TOX_PATCH_REPEAT (3), TOX_PATCH_LR,
TOX_PATCH_EPOCHS, TOX_PATCH_MAX_LEN, TOX_PATCH_PAIR_WEIGHT, TOX_PATCH_KD_WEIGHT, TOX_SEED, TOX_LIMIT (smoke runs).
"""
import json
import math
import os
import random
import sys
import time

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

import numpy as np  # noqa: E402
import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import train as base  # noqa: E402  (the recipe's readers, batching, metrics, export and machine record)

HEADS = base.HEADS + ["self_harm"]
TOX = base.TOXICITY
SELF_HARM = len(HEADS) - 1
WORK = base.WORK
# The model the patch starts from: patch.sh extracts the base weights from git history into
# .work/toxicity/base; without TOX_PATCH_BASE, the folder that serves now.
MODEL_DIR = os.environ.get("TOX_PATCH_BASE", os.path.join(base.ROOT, "models", "toxic_transformer_v1"))
CKPT = os.path.join(WORK, "patch-ckpt.pt")

CFG = dict(
    replay=int(os.environ.get("TOX_PATCH_REPLAY", 14000)),
    pairs=int(os.environ.get("TOX_PATCH_PAIRS", 5000)),
    # "all": pairs of any row; "nontoxic": only rows labelled not toxic (pairing on non-toxic rows only,
    # so a hateful row's label is not copied onto the group it is swapped to)
    pairs_from=os.environ.get("TOX_PATCH_PAIRS_FROM", "all"),
    # how many times each written row of patch-training.json is seen
    patch_repeat=int(os.environ.get("TOX_PATCH_REPEAT", 3)),
    lr=float(os.environ.get("TOX_PATCH_LR", 2e-5)),
    epochs=float(os.environ.get("TOX_PATCH_EPOCHS", 1)),
    max_len=int(os.environ.get("TOX_PATCH_MAX_LEN", 96)),
    batch_size=32,
    kd_weight=float(os.environ.get("TOX_PATCH_KD_WEIGHT", 0.6)),
    pair_weight=float(os.environ.get("TOX_PATCH_PAIR_WEIGHT", 1.0)),
    # replay rows labelled not toxic are taken as not self-harm, at this weight
    self_harm_negative_weight=0.3,
    warmup_frac=0.05,
    ckpt_every=int(os.environ.get("TOX_PATCH_CKPT", 100)),
    seed=int(os.environ.get("TOX_SEED", 1234)),
)
base.CFG["max_len"] = CFG["max_len"]


def log(*a):
    base.log(*a)


def pad7(y):
    return list(y) + [0.0] * (len(HEADS) - len(y))


def read(name):
    """Rows as dicts {ids, y, m} with 7-wide labels (prepare.ts rows have 6: self_harm unlabelled)."""
    out = []
    for ids, y, m, _j, c in base.read_rows(name):
        out.append({"ids": ids, "y": pad7(y), "m": pad7(m), "c": c})
    return out


# ---------------------------------------------------------------- the served model, in torch


def served_session():
    import onnxruntime as ort

    opts = ort.SessionOptions()
    opts.intra_op_num_threads = int(os.environ.get("TOX_THREADS", 2))
    return ort.InferenceSession(os.path.join(MODEL_DIR, "onnx", "model_quantized.onnx"), opts, providers=["CPUExecutionProvider"])


def served_state():
    """The served ONNX file's weights as a BertForSequenceClassification state dict (int8 x scale)."""
    import onnx
    from onnx import numpy_helper

    m = onnx.load(os.path.join(MODEL_DIR, "onnx", "model_quantized.onnx"), load_external_data=True)
    inits = {i.name: numpy_helper.to_array(i) for i in m.graph.initializer}
    state = {}
    for name, arr in inits.items():
        if name.startswith("model."):
            state[name[len("model."):]] = torch.from_numpy(arr.astype(np.float32).copy())
    emb = inits["model_bert_embeddings_word_embeddings_Gather_Eq"].astype(np.float32)
    emb *= inits["model_bert_embeddings_word_embeddings_Gather_Escale"][:, None]
    state["bert.embeddings.word_embeddings.weight"] = torch.from_numpy(emb)
    for name in inits:
        if name.endswith("_MatMul_Wq"):
            stem = name[: -len("_MatMul_Wq")]  # model_bert_encoder_layer.0_attention_self_query
            w = inits[name].astype(np.float32) * inits[stem + "_MatMul_Wscale"][None, :]
            key = stem[len("model_"):].replace("_", ".") + ".weight"
            state[key] = torch.from_numpy(w.T.copy())  # ONNX MatMul is [in, out]; Linear is [out, in]
    return state


def load_served(device):
    from transformers import BertConfig, BertForSequenceClassification

    with open(os.path.join(MODEL_DIR, "config.json"), encoding="utf-8") as f:
        cfg = json.load(f)
    for k in ("transformers.js_config", "vigil"):
        cfg.pop(k, None)
    cfg["id2label"] = {str(i): h for i, h in enumerate(HEADS)}
    cfg["label2id"] = {h: i for i, h in enumerate(HEADS)}
    model = BertForSequenceClassification(BertConfig(**cfg))
    state = served_state()
    w, b = state.pop("classifier.weight"), state.pop("classifier.bias")
    missing, unexpected = model.load_state_dict(state, strict=False)
    assert not unexpected and set(missing) <= {"classifier.weight", "classifier.bias", "bert.embeddings.position_ids"}, (missing, unexpected)
    with torch.no_grad():
        model.classifier.weight[: len(w)] = w
        model.classifier.bias[: len(b)] = b
        # the new self_harm row starts as a rare class: small weights, bias at logit(0.05)
        model.classifier.weight[SELF_HARM].normal_(0.0, 0.02)
        model.classifier.bias[SELF_HARM] = math.log(0.05 / 0.95)
    return model.to(device)


def onnx_logits(sess, rows, batch_size=64):
    out = np.zeros((len(rows), len(base.HEADS)), dtype=np.float32)
    for idx in base.batches([(r["ids"],) for r in rows], batch_size, False, None):
        t = max(len(rows[i]["ids"]) for i in idx)
        ids = np.zeros((len(idx), t), dtype=np.int64)
        mask = np.zeros((len(idx), t), dtype=np.int64)
        for k, i in enumerate(idx):
            ids[k, : len(rows[i]["ids"])] = rows[i]["ids"]
            mask[k, : len(rows[i]["ids"])] = 1
        out[idx] = sess.run(["logits"], {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)})[0]
    return out


def torch_logits(model, rows, device, batch_size=128):
    model.eval()
    out = np.zeros((len(rows), len(HEADS)), dtype=np.float32)
    with torch.no_grad():
        for idx in base.batches([(r["ids"],) for r in rows], batch_size, False, None):
            ids, mask = collate_ids([rows[i]["ids"] for i in idx], device)
            out[idx] = model(input_ids=ids, attention_mask=mask).logits.float().cpu().numpy()
    model.train()
    return out


def collate_ids(seqs, device):
    t = max(len(s) for s in seqs)
    ids = np.zeros((len(seqs), t), dtype=np.int64)
    mask = np.zeros((len(seqs), t), dtype=np.int64)
    for k, s in enumerate(seqs):
        ids[k, : len(s)] = s
        mask[k, : len(s)] = 1
    return torch.from_numpy(ids).to(device), torch.from_numpy(mask).to(device)


# ---------------------------------------------------------------- the patch set


def truncate(ids):
    return ids if len(ids) <= CFG["max_len"] else ids[: CFG["max_len"] - 1] + ids[-1:]


def build(rnd, sess):
    train = read("train.jsonl")
    pairs = []
    with open(os.path.join(WORK, "pairs.jsonl"), encoding="utf-8") as f:
        for line in f:
            pairs.append(json.loads(line))
    if CFG["pairs_from"] == "nontoxic":
        pairs = [p for p in pairs if p["m"][0] == 1 and p["y"][0] < 0.5]
    elif CFG["pairs_from"] != "all":
        raise SystemExit(f"TOX_PATCH_PAIRS_FROM must be all or nontoxic, not {CFG['pairs_from']}")
    rnd.shuffle(pairs)
    pairs = pairs[: CFG["pairs"]]
    paired = {p["k"] for p in pairs}
    others = [k for k in range(len(train)) if k not in paired]
    rnd.shuffle(others)
    replay_idx = sorted(paired) + others[: max(0, CFG["replay"] - len(paired))]
    replay = [dict(train[k], ids=truncate(train[k]["ids"]), k=k) for k in replay_idx]

    cache = os.path.join(WORK, "patch-teacher.npz")
    key = f"{len(train)}|{CFG['max_len']}|" + ",".join(map(str, replay_idx[:50])) + f"|{len(replay_idx)}"
    if os.path.exists(cache) and str(np.load(cache)["key"]) == key:
        teacher = np.load(cache)["logits"]
    else:
        t0 = time.time()
        teacher = onnx_logits(sess, replay)
        np.savez(cache, key=key, logits=teacher)
        log(f"served-model logits for {len(replay)} replay rows in {time.time() - t0:.0f} s")
    at = {r["k"]: i for i, r in enumerate(replay)}

    items = []  # (ids, y, m, teacher or None, pair ids or None, pair y/m or None)
    pair_of = {p["k"]: p for p in pairs}
    for i, r in enumerate(replay):
        m = list(r["m"])
        y = list(r["y"])
        if m[0] > 0 and y[0] < 0.5:  # a row labelled not toxic: not self-harm either (down-weighted)
            m[SELF_HARM], y[SELF_HARM] = CFG["self_harm_negative_weight"], 0.0
        p = pair_of.get(r["k"])
        pm = [float(x) if h < TOX else 0.0 for h, x in enumerate(pad7(p["m"]))] if p else None
        items.append((r["ids"], y, m, teacher[at[r["k"]]], truncate(p["ids2"]) if p else None, (pad7(p["y"]), pm) if p else None))
    patch = read("patch_train.jsonl")
    selfharm = read("selfharm_train.jsonl")
    for r in patch * CFG["patch_repeat"] + selfharm:
        items.append((truncate(r["ids"]), r["y"], r["m"], None, None, None))
    return items


# ---------------------------------------------------------------- training


def step_loss(model, batch, pos_weight, device):
    seqs = [it[0] for it in batch]
    swapped = [(k, it[4]) for k, it in enumerate(batch) if it[4] is not None]
    ids, mask = collate_ids(seqs + [s for _, s in swapped], device)
    logits = model(input_ids=ids, attention_mask=mask).logits.float()
    main, extra = logits[: len(batch)], logits[len(batch):]
    y = torch.tensor([it[1] for it in batch], dtype=torch.float32, device=device)
    m = torch.tensor([it[2] for it in batch], dtype=torch.float32, device=device)
    gold = F.binary_cross_entropy_with_logits(main, y, pos_weight=pos_weight, reduction="none")
    has_t = torch.tensor([[1.0] if it[3] is not None else [0.0] for it in batch], device=device)
    # rows with the served model's logits mix them (heads 0-5) with the gold labels; others use gold alone
    gold_w = (1 - CFG["kd_weight"] * has_t) * m
    loss = (gold * gold_w).sum()
    norm = gold_w.sum()
    if has_t.sum() > 0:
        t = torch.tensor(np.stack([it[3] if it[3] is not None else np.zeros(len(base.HEADS), np.float32) for it in batch]), device=device)
        kd = F.binary_cross_entropy_with_logits(main[:, : len(base.HEADS)], torch.sigmoid(t), reduction="none")
        kd_w = CFG["kd_weight"] * has_t.expand(-1, len(base.HEADS))
        loss = loss + (kd * kd_w).sum()
        norm = norm + kd_w.sum()
    loss = loss / norm.clamp(min=1)
    if swapped:
        rows = [k for k, _ in swapped]
        py = torch.tensor([batch[k][5][0] for k in rows], dtype=torch.float32, device=device)
        pm = torch.tensor([batch[k][5][1] for k in rows], dtype=torch.float32, device=device)
        g2 = F.binary_cross_entropy_with_logits(extra, py, pos_weight=pos_weight, reduction="none")
        loss = loss + (g2 * pm).sum() / pm.sum().clamp(min=1) * 0.5
        pair = (main[rows, :TOX] - extra[:, :TOX]).pow(2).mean()
        loss = loss + CFG["pair_weight"] * pair
    return loss


def evaluate(model, device, sets, thresholds):
    val, shval, pval, ident = sets
    res = {}
    vl = torch_logits(model, val, device)
    vp = 1 / (1 + np.exp(-vl))
    rows6 = [(r["ids"], r["y"], r["m"], 0, r["c"]) for r in val]
    aucs = base.auc_table(rows6, vp)
    res["val_auc"] = aucs
    res["val_mean_auc"] = float(np.mean(list(aucs.values())))
    from sklearn.metrics import roc_auc_score

    sp = 1 / (1 + np.exp(-torch_logits(model, shval, device)[:, SELF_HARM]))
    res["self_harm_val_auc"] = float(roc_auc_score([r["y"][SELF_HARM] >= 0.5 for r in shval], sp))
    pl = torch_logits(model, pval, device)
    pp = 1 / (1 + np.exp(-pl))
    acc = {}
    for i, r in enumerate(pval):
        for h in range(len(HEADS)):
            if r["m"][h] > 0 and h != 5:
                thr = thresholds[h] if h < TOX else 0.5
                acc.setdefault(f"{r['c']}:{HEADS[h]}", []).append((pp[i, h] >= thr) == (r["y"][h] >= 0.5))
    res["patch_val_accuracy"] = {k: round(float(np.mean(v)), 3) for k, v in sorted(acc.items())}
    ip = 1 / (1 + np.exp(-torch_logits(model, ident, device)))
    res["identity_val_flags_at_served_thresholds"] = round(float((ip[:, :TOX] >= thresholds[:TOX]).any(1).mean()), 4)
    return res


def main():
    random.seed(CFG["seed"])
    np.random.seed(CFG["seed"])
    torch.manual_seed(CFG["seed"])
    torch.set_num_threads(int(os.environ.get("TOX_THREADS", 2)))
    device = torch.device("cpu")
    rnd = random.Random(CFG["seed"])
    sess = served_session()
    model = load_served(device)

    # The float model must be the served function: compare with onnxruntime on validation rows.
    val = read("val.jsonl")
    probe = val[:48]
    diff = np.abs(torch_logits(model, probe, device)[:, : len(base.HEADS)] - onnx_logits(sess, probe)).max()
    log(f"served weights read back: max |torch - onnxruntime| logit difference {diff:.2e} on {len(probe)} rows")
    assert diff < 1e-3, "the float model is not the served model"

    items = build(rnd, sess)
    del sess
    limit = int(os.environ.get("TOX_LIMIT", 0))
    if limit:
        items, val = items[:limit], val[: limit // 4]
    sets = (val, read("selfharm_val.jsonl"), read("patch_val.jsonl"), read("identity_val.jsonl"))
    with open(os.path.join(MODEL_DIR, "config.json"), encoding="utf-8") as f:
        served_thr = json.load(f)["vigil"]["thresholds"]
    thresholds = np.array([served_thr[h] for h in base.HEADS[:TOX]] + [0.5, 0.5], dtype=np.float32)

    model.bert.embeddings.word_embeddings.weight.requires_grad_(False)
    y = np.array([it[1] for it in items])
    m = np.array([it[2] for it in items])
    pos = ((y >= 0.5) & (m > 0)).sum(0)
    neg = ((y < 0.5) & (m > 0)).sum(0)
    pos_weight = torch.tensor(np.clip(np.sqrt(neg / np.maximum(pos, 1)), 1, 20), dtype=torch.float32)
    log(f"{len(items)} training items ({sum(1 for it in items if it[4] is not None)} with a swapped twin), cfg {CFG}")
    log("pos_weight", dict(zip(HEADS, [round(float(x), 2) for x in pos_weight])))

    params = [(n, p) for n, p in model.named_parameters() if p.requires_grad]
    decay = [p for n, p in params if p.dim() >= 2 and "embeddings" not in n]
    rest = [p for n, p in params if not (p.dim() >= 2 and "embeddings" not in n)]
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.01}, {"params": rest, "weight_decay": 0.0}], lr=CFG["lr"])
    order = base.batches([(it[0],) for it in items], CFG["batch_size"], True, rnd)
    total = max(1, int(len(order) * CFG["epochs"]))
    order = (order * math.ceil(CFG["epochs"]))[:total]
    warm = max(1, int(total * CFG["warmup_frac"]))
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min(1.0, (s + 1) / warm) * max(0.0, (total - s) / max(1, total - warm)))
    step, spent = 0, 0.0
    if os.path.exists(CKPT):
        ck = torch.load(CKPT, weights_only=False)
        if ck["cfg"] == CFG and ck["items"] == len(items):
            model.load_state_dict(ck["model"])
            opt.load_state_dict(ck["opt"])
            sched.load_state_dict(ck["sched"])
            step, spent = ck["step"], ck["seconds"]
            log(f"resumed from {CKPT} at step {step}/{total}")
    t0 = time.time() - spent
    model.train()
    while step < total:
        batch = [items[i] for i in order[step]]
        loss = step_loss(model, batch, pos_weight, device)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        sched.step()
        step += 1
        if step % 25 == 0:
            el = time.time() - t0
            log(f"step {step}/{total} loss {loss.item():.4f} ({el:.0f} s, {el / step:.2f} s/step)")
        if step % CFG["ckpt_every"] == 0 and step < total:
            torch.save({"cfg": CFG, "items": len(items), "model": model.state_dict(), "opt": opt.state_dict(),
                        "sched": sched.state_dict(), "step": step, "seconds": time.time() - t0}, CKPT)
    seconds = time.time() - t0
    metrics = evaluate(model, device, sets, thresholds)
    log("validation:", json.dumps(metrics))
    model.eval()
    base.export_onnx(model, os.path.join(WORK, "model.onnx"))
    config = model.config.to_dict()
    for k in ("_name_or_path", "transformers_version", "torch_dtype", "dtype", "use_cache", "gradient_checkpointing"):
        config.pop(k, None)
    config["architectures"] = ["BertForSequenceClassification"]
    config["problem_type"] = "multi_label_classification"
    with open(os.path.join(WORK, "hf_config.json"), "w", encoding="utf-8") as f:
        json.dump(config, f, indent=2)
    summary = {"tag": "patch", "method": "warm-start patch of the served model", "cfg": CFG, "device": "cpu",
               "training_items": len(items), "steps": total, "seconds": round(seconds), "validation": metrics,
               "best_val_mean_auc": metrics["val_mean_auc"], "torch": torch.__version__, "machine": base.machine()}
    with open(os.path.join(WORK, "train-summary.json"), "w", encoding="utf-8") as f:
        json.dump(summary, f, indent=2)
    if os.path.exists(CKPT):
        os.remove(CKPT)
    log(f"patch done: {total} steps in {seconds:.0f} s")


if __name__ == "__main__":
    main()
