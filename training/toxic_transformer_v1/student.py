"""Distil the served toxic_transformer_v1 (the teacher) into a student with half its layers, on the CPU.

The student keeps the teacher's family, tokenizer, width and seven outputs (the six toxicity heads and
the `self_harm` signal), so the server, the browser preview and every threshold step read it as they
read the teacher. It has 3 of the teacher's 6 encoder layers, initialised from the teacher's own
layers (TOX_STUDENT_LAYERS; by default the pair of candidates with the lower distillation loss on
validation rows before training, measured and logged at start), with the teacher's embeddings
(frozen, as in the patch) and classifier.

Training targets, computed once with onnxruntime on the teacher's served file (int8 weights,
float32 arithmetic: exactly the function that serves) and cached in .work/toxicity/student-teacher.npz:

* the teacher's logits on every training item (all seven outputs), as soft targets;
* the gold labels where a corpus has them (masked per corpus), at weight 1 - TOX_STUDENT_KD_WEIGHT;
* the same items the teacher's patch saw: a replay sample of the training split (larger than the
  patch's), the counterfactual identity pairs with the pairing loss between a text and its swap,
  patch_train.jsonl (repeated) and the self-harm tweets' training split.

Word embeddings stay frozen, batches are bucketed by length, and the run checkpoints every
TOX_STUDENT_CKPT steps to .work/toxicity/student-ckpt.pt and resumes from it. Selection uses
validation only. Writes .work/toxicity/model.onnx (fp32, 7 logits), hf_config.json and
train-summary.json (with the teacher's artifact), as patch.py does, so finish.sh serves it.

  .work/venv/bin/python training/toxic_transformer_v1/student.py   (student.sh runs it; npm run train:toxicity-student)
Environment: TOX_STUDENT_TEACHER (the teacher's model folder), TOX_STUDENT_LAYERS ("1,3,5"; default:
measured), TOX_STUDENT_REPLAY, TOX_STUDENT_EPOCHS, TOX_STUDENT_LR, TOX_STUDENT_KD_WEIGHT,
TOX_STUDENT_MAX_SECONDS (stop the schedule early at this many training seconds, for a bounded run),
TOX_THREADS, TOX_SEED, TOX_LIMIT (smoke runs).
"""
import json
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
TEACHER_DIR = os.environ.get("TOX_STUDENT_TEACHER", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "models", "toxic_transformer_v1"))
os.environ["TOX_PATCH_BASE"] = TEACHER_DIR  # patch.py's readers load the teacher's served file
import patch  # noqa: E402  (served-weights reader, onnxruntime logits, row readers)
import train as base  # noqa: E402  (batching, metrics, export and machine record)

HEADS = patch.HEADS
TOX = patch.TOX
SELF_HARM = patch.SELF_HARM
WORK = base.WORK
CKPT = os.path.join(WORK, "student-ckpt.pt")
CANDIDATE_LAYERS = [(0, 2, 4), (1, 3, 5)]

CFG = dict(
    layers=os.environ.get("TOX_STUDENT_LAYERS", ""),
    replay=int(os.environ.get("TOX_STUDENT_REPLAY", 40000)),
    pairs=int(os.environ.get("TOX_STUDENT_PAIRS", 5000)),
    patch_repeat=3,
    lr=float(os.environ.get("TOX_STUDENT_LR", 1e-4)),
    epochs=float(os.environ.get("TOX_STUDENT_EPOCHS", 2)),
    max_len=96,
    batch_size=32,
    kd_weight=float(os.environ.get("TOX_STUDENT_KD_WEIGHT", 0.7)),
    pair_weight=1.0,
    warmup_frac=0.05,
    max_seconds=float(os.environ.get("TOX_STUDENT_MAX_SECONDS", 0)),
    ckpt_every=int(os.environ.get("TOX_STUDENT_CKPT", 100)),
    seed=int(os.environ.get("TOX_SEED", 1234)),
)
base.CFG["max_len"] = CFG["max_len"]
patch.CFG["max_len"] = CFG["max_len"]
log = base.log


def teacher_config():
    with open(os.path.join(TEACHER_DIR, "config.json"), encoding="utf-8") as f:
        cfg = json.load(f)
    vigil = cfg.pop("vigil", {})
    cfg.pop("transformers.js_config", None)
    return cfg, vigil


def build_student(layers, state):
    """A BertForSequenceClassification with `layers` of the teacher's encoder (renumbered 0..n-1)."""
    from transformers import BertConfig, BertForSequenceClassification

    cfg, _ = teacher_config()
    cfg["num_hidden_layers"] = len(layers)
    cfg["id2label"] = {str(i): h for i, h in enumerate(HEADS)}
    cfg["label2id"] = {h: i for i, h in enumerate(HEADS)}
    model = BertForSequenceClassification(BertConfig(**cfg))
    mapped = {}
    for k, v in state.items():
        if k.startswith("bert.encoder.layer."):
            i = int(k.split(".")[3])
            if i not in layers:
                continue
            rest = ".".join(k.split(".")[4:])
            mapped[f"bert.encoder.layer.{layers.index(i)}.{rest}"] = v
        else:
            mapped[k] = v
    missing, unexpected = model.load_state_dict(mapped, strict=False)
    assert not unexpected and set(missing) <= {"bert.embeddings.position_ids"}, (missing, unexpected)
    return model


def teacher_logits(sess, rows, cache_name, key):
    cache = os.path.join(WORK, cache_name)
    if os.path.exists(cache) and str(np.load(cache)["key"]) == key:
        return np.load(cache)["logits"]
    t0 = time.time()
    out = teacher_onnx_logits(sess, rows)
    np.savez(cache, key=key, logits=out)
    log(f"teacher logits for {len(rows)} rows in {time.time() - t0:.0f} s")
    return out


def teacher_onnx_logits(sess, rows, batch_size=64):
    out = np.zeros((len(rows), len(HEADS)), dtype=np.float32)
    for idx in base.batches([(r["ids"],) for r in rows], batch_size, False, None):
        ids, mask = patch.collate_ids([rows[i]["ids"] for i in idx], "cpu")
        ids, mask = ids.numpy(), mask.numpy()
        out[idx] = sess.run(["logits"], {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)})[0]
    return out


def build(rnd, sess):
    """Training items: (ids, y, m, teacher logits, swapped ids or None, teacher logits of the swap or None)."""
    train = patch.read("train.jsonl")
    pairs = []
    with open(os.path.join(WORK, "pairs.jsonl"), encoding="utf-8") as f:
        for line in f:
            pairs.append(json.loads(line))
    rnd.shuffle(pairs)
    pairs = pairs[: CFG["pairs"]]
    paired = {p["k"] for p in pairs}
    others = [k for k in range(len(train)) if k not in paired]
    rnd.shuffle(others)
    replay_idx = sorted(paired) + others[: max(0, CFG["replay"] - len(paired))]
    rows = [dict(train[k], ids=patch.truncate(train[k]["ids"]), k=k) for k in replay_idx]
    extra = patch.read("patch_train.jsonl") + patch.read("selfharm_train.jsonl")
    rows += [dict(r, ids=patch.truncate(r["ids"]), k=-1) for r in extra]
    swaps = [{"ids": patch.truncate(p["ids2"])} for p in pairs]
    limit = int(os.environ.get("TOX_LIMIT", 0))
    if limit:
        rows, swaps, pairs = rows[:limit], swaps[: limit // 10], pairs[: limit // 10]
    key = f"{len(train)}|{CFG['max_len']}|{len(rows)}|{len(swaps)}|" + ",".join(map(str, replay_idx[:50]))
    logits = teacher_logits(sess, rows + swaps, "student-teacher.npz", key + "|" + str(teacher_config()[1].get("artifact")))
    row_t, swap_t = logits[: len(rows)], logits[len(rows):]
    swap_of = {p["k"]: (swaps[i]["ids"], swap_t[i]) for i, p in enumerate(pairs)}
    items = []
    for i, r in enumerate(rows):
        s = swap_of.get(r["k"])
        item = (r["ids"], r["y"], r["m"], row_t[i], s[0] if s else None, s[1] if s else None)
        # the written patch rows are few: repeat them, as the teacher's patch did
        repeat = CFG["patch_repeat"] if r["k"] == -1 and r.get("c", "").startswith("patch_") else 1
        items += [item] * repeat
    return items


def step_loss(model, batch, device):
    seqs = [it[0] for it in batch]
    swapped = [k for k, it in enumerate(batch) if it[4] is not None]
    ids, mask = patch.collate_ids(seqs + [batch[k][4] for k in swapped], device)
    logits = model(input_ids=ids, attention_mask=mask).logits.float()
    main, extra = logits[: len(batch)], logits[len(batch):]
    t = torch.tensor(np.stack([it[3] for it in batch]), device=device)
    kd = F.binary_cross_entropy_with_logits(main, torch.sigmoid(t), reduction="mean")
    y = torch.tensor([it[1] for it in batch], dtype=torch.float32, device=device)
    m = torch.tensor([it[2] for it in batch], dtype=torch.float32, device=device)
    gold = (F.binary_cross_entropy_with_logits(main, y, reduction="none") * m).sum() / m.sum().clamp(min=1)
    loss = CFG["kd_weight"] * kd + (1 - CFG["kd_weight"]) * gold
    if swapped:
        ts = torch.tensor(np.stack([batch[k][5] for k in swapped]), device=device)
        loss = loss + CFG["kd_weight"] * F.binary_cross_entropy_with_logits(extra, torch.sigmoid(ts), reduction="mean")
        loss = loss + CFG["pair_weight"] * (main[swapped, :TOX] - extra[:, :TOX]).pow(2).mean()
    return loss


def kd_loss_on(model, rows, teacher, device):
    s = patch.torch_logits(model, rows, device)
    return float(F.binary_cross_entropy_with_logits(torch.from_numpy(s), torch.sigmoid(torch.from_numpy(teacher))).item())


def main():
    random.seed(CFG["seed"])
    np.random.seed(CFG["seed"])
    torch.manual_seed(CFG["seed"])
    torch.set_num_threads(int(os.environ.get("TOX_THREADS", 2)))
    device = torch.device("cpu")
    rnd = random.Random(CFG["seed"])
    sess = patch.served_session()
    state = patch.served_state()
    _, teacher_vigil = teacher_config()

    val = patch.read("val.jsonl")
    probe = val[:400]
    probe_t = teacher_onnx_logits(sess, probe)
    if CFG["layers"]:
        layers = [int(x) for x in CFG["layers"].split(",")]
    else:
        losses = {}
        for cand in CANDIDATE_LAYERS:
            losses[cand] = kd_loss_on(build_student(list(cand), state), probe, probe_t, device)
        layers = list(min(losses, key=losses.get))
        log("distillation loss before training, by teacher layers kept:", {",".join(map(str, k)): round(v, 4) for k, v in losses.items()})
        CFG["layers"] = ",".join(map(str, layers))
    log(f"student keeps teacher layers {layers}")
    model = build_student(layers, state)
    items = build(rnd, sess)
    del sess
    limit = int(os.environ.get("TOX_LIMIT", 0))
    if limit:
        val = val[: limit // 4]
    sets = (val, patch.read("selfharm_val.jsonl"), patch.read("patch_val.jsonl"), patch.read("identity_val.jsonl"))
    thresholds = np.array([teacher_vigil["thresholds"][h] for h in base.HEADS[:TOX]] + [0.5, 0.5], dtype=np.float32)

    model.bert.embeddings.word_embeddings.weight.requires_grad_(False)
    log(f"{len(items)} training items ({sum(1 for it in items if it[4] is not None)} with a swapped twin), cfg {CFG}")
    params = [(n, p) for n, p in model.named_parameters() if p.requires_grad]
    decay = [p for n, p in params if p.dim() >= 2 and "embeddings" not in n]
    rest = [p for n, p in params if not (p.dim() >= 2 and "embeddings" not in n)]
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.01}, {"params": rest, "weight_decay": 0.0}], lr=CFG["lr"])
    order = base.batches([(it[0],) for it in items], CFG["batch_size"], True, rnd)
    total = max(1, int(len(order) * CFG["epochs"]))
    while len(order) < total:  # later epochs: fresh shuffles
        order += base.batches([(it[0],) for it in items], CFG["batch_size"], True, rnd)
    order = order[:total]
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
    stopped_early = False
    while step < total:
        batch = [items[i] for i in order[step]]
        loss = step_loss(model, batch, device)
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
        if CFG["max_seconds"] and time.time() - t0 > CFG["max_seconds"]:
            log(f"stopping at step {step}/{total}: the run's {CFG['max_seconds']:.0f} s budget is spent")
            stopped_early = True
            break
    seconds = time.time() - t0
    metrics = patch.evaluate(model, device, sets, thresholds)
    metrics["val_kd_loss"] = kd_loss_on(model, probe, probe_t, device)
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
    summary = {"tag": "student", "method": f"distilled from the served model into {len(layers)} of its 6 layers",
               "teacher": {"artifact": teacher_vigil.get("artifact"), "layers": 6, "student_layers_from_teacher": layers},
               "cfg": CFG, "device": "cpu", "training_items": len(items), "steps": step, "planned_steps": total,
               "stopped_early": stopped_early, "seconds": round(seconds), "validation": metrics,
               "best_val_mean_auc": metrics["val_mean_auc"], "torch": torch.__version__, "machine": base.machine()}
    with open(os.path.join(WORK, "train-summary.json"), "w", encoding="utf-8") as f:
        json.dump(summary, f, indent=2)
    if os.path.exists(CKPT):
        os.remove(CKPT)
    log(f"student done: {step} steps in {seconds:.0f} s")


if __name__ == "__main__":
    main()
