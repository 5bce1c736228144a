"""Fine-tune a larger encoder (the teacher, all-mpnet-base-v2 by default) on the same rows and the
same multi-label masked loss as train.py, and write its logits for every training and validation row,
which train.py's distillation option (TOX_TEACHER) reads.

Input: a Hugging Face encoder folder (--model-dir; any AutoModelForSequenceClassification class) and
the rows payload.py wrote (--data-dir: train/val/identity_val/contrast_val/noun_val/sexism_dev .jsonl with the
text, labels and masks, and rows-meta.json). The teacher tokenises the texts with its own tokenizer.

Training, as train.py's recipe less its long-context rows (which are built from MiniLM token ids):
identity template rows, threat positives and slur-homonym rows repeated 3 times, binary cross-entropy
per label masked per corpus with pos_weight = clip(sqrt(neg/pos), 1, 20), length-bucketed batches,
AdamW (weight decay on matrices) with 6 % warm-up and linear decay, gradient clip 1.0, bf16 autocast on
CUDA, the seed given. Evaluates on the validation rows at the end of each epoch (and where a deadline
stops it) with train.py's measures and keeps the state with the best validation mean AUC of the five
toxicity heads.

Output in --out (names carry the seed):
  teacher-s{seed}.npz   float16 logits [rows, 6] per file (train, val, identity_val, contrast_val,
                        noun_val, sexism_dev), in file order, and `meta` (JSON: rows and text hashes per file)
  teacher-s{seed}.json  configuration, validation AUC per head, the other selection measures per
                        evaluation, timings

  python train_teacher.py --model-dir DIR --data-dir DIR --out DIR --seed 1 [--epochs 3] [--deadline-s 420]
"""
import argparse
import json
import math
import os
import random
import sys
import time

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "true")

import numpy as np  # noqa: E402
import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import train as student  # noqa: E402  (the student's measures, so both are scored alike)

HEADS = student.HEADS
TOXICITY = student.TOXICITY
FILES = ["train", "val", "identity_val", "contrast_val", "noun_val", "sexism_dev"]


def log(*a):
    print(time.strftime("%H:%M:%S"), *a, flush=True)


def args():
    p = argparse.ArgumentParser()
    p.add_argument("--model-dir", required=True)
    p.add_argument("--data-dir", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--epochs", type=float, default=3)
    p.add_argument("--lr", type=float, default=5e-5)
    p.add_argument("--batch", type=int, default=128)
    p.add_argument("--max-len", type=int, default=128)
    p.add_argument("--warmup", type=float, default=0.06)
    p.add_argument("--weight-decay", type=float, default=0.01)
    p.add_argument("--identity-repeat", type=int, default=3)
    p.add_argument("--threat-repeat", type=int, default=3)
    p.add_argument("--corpus-repeat", default="contrast_homonym:3")
    p.add_argument("--evals-per-epoch", type=int, default=1)
    p.add_argument("--deadline-s", type=float, default=0, help="stop training this many seconds after start, less --reserve-s (0: none)")
    p.add_argument("--reserve-s", type=float, default=75, help="time kept for the final logits")
    p.add_argument("--limit", type=int, default=0, help="smoke runs: train on the first N sampled rows")
    p.add_argument("--threads", type=int, default=int(os.environ.get("TOX_THREADS", 2)))
    p.add_argument("--predict-batch", type=int, default=512)
    return p.parse_args()


def read(data_dir, name, tok, max_len):
    path = os.path.join(data_dir, f"{name}.jsonl")
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as f:
        recs = [json.loads(line) for line in f if line.strip()]
    if not recs:
        return []
    ids = tok([r["t"] for r in recs], truncation=True, max_length=max_len)["input_ids"]
    # (ids, y, m, jigsaw, corpus): the tuple layout train.py's measures read
    return [(i, r["y"], r["m"], r.get("j", 0), r.get("c", "")) for i, r in zip(ids, recs)]


def sample_rows(train, a, rnd):
    """train.py's training_sample without the long-context rows and without subsampling."""
    identity = [r for r in train if r[4].startswith("identity_")]
    is_threat = lambda r: r[2][2] > 0 and r[1][2] >= 0.5  # noqa: E731
    threat = [r for r in train if not r[4].startswith("identity_") and is_threat(r)]
    rest = [r for r in train if not r[4].startswith("identity_") and not is_threat(r)]
    out = identity * a.identity_repeat + threat * a.threat_repeat + rest
    for spec in filter(None, a.corpus_repeat.split(",")):
        name, times = spec.split(":")
        out += [r for r in rest if r[4] == name] * (int(times) - 1)
    rnd.shuffle(out)
    return out


def collate(rows, idx, pad_id, device):
    t = max(len(rows[i][0]) for i in idx)
    ids = np.full((len(idx), t), pad_id, dtype=np.int64)
    mask = np.zeros((len(idx), t), dtype=np.int64)
    for k, i in enumerate(idx):
        r = rows[i][0]
        ids[k, : len(r)] = r
        mask[k, : len(r)] = 1
    y = np.array([rows[i][1] for i in idx], dtype=np.float32)
    m = np.array([rows[i][2] for i in idx], dtype=np.float32)
    to = lambda x: torch.from_numpy(x).to(device, non_blocking=True)  # noqa: E731
    return to(ids), to(mask), to(y), to(m)


def logits_of(model, rows, pad_id, device, batch_size, use_bf16):
    model.eval()
    out = np.zeros((len(rows), len(HEADS)), dtype=np.float32)
    with torch.no_grad(), torch.autocast(device_type=device.type, dtype=torch.bfloat16, enabled=use_bf16):
        for idx in student.batches(rows, batch_size, False, None):
            ids, mask, _, _ = collate(rows, idx, pad_id, device)
            out[idx] = model(input_ids=ids, attention_mask=mask).logits.float().cpu().numpy()
    model.train()
    return out


def sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def measures(data, logits):
    """train.py's selection measures, from the teacher's logits."""
    val, vp = data["val"], sigmoid(logits["val"])
    aucs = student.auc_table(val, vp)
    jig = [i for i, r in enumerate(val) if r[3]]
    jaucs = student.auc_table([val[i] for i in jig], vp[jig]) if jig else {}
    res = {"val_auc": aucs, "val_mean_auc": float(np.mean(list(aucs.values()))) if aucs else None,
           "val_jigsaw_mean_auc": float(np.mean(list(jaucs.values()))) if jaucs else None,
           "val_dynahate_overall_auc": student.dynahate_auc(val, vp)}
    try:
        th = student.f1_thresholds(val, vp)
    except ValueError:  # a head with no labelled validation rows (tiny smoke subsets)
        th = None
    if th is not None and data["identity_val"]:
        res["identity_val_flag_rate_at_f1_thresholds"] = student.identity_flags(th, sigmoid(logits["identity_val"]))
    if th is not None and data["noun_val"]:
        res["noun_val_flag_rate_at_f1_thresholds"] = student.identity_flags(th, sigmoid(logits["noun_val"]))
    if th is not None and data["contrast_val"]:
        res["contrast_val_at_f1_thresholds"] = student.contrast_accuracy(th, data["contrast_val"], sigmoid(logits["contrast_val"]))
    if data["sexism_dev"]:
        res["edos_dev_sexism"] = student.sexism_scores(data["sexism_dev"], sigmoid(logits["sexism_dev"])[:, TOXICITY])
    return res


def main():
    a = args()
    t_start = time.time()
    random.seed(a.seed)
    np.random.seed(a.seed)
    torch.manual_seed(a.seed)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    use_bf16 = device.type == "cuda"
    if device.type == "cpu":
        torch.set_num_threads(a.threads)
    else:
        torch.backends.cuda.matmul.allow_tf32 = True
        torch.backends.cudnn.allow_tf32 = True
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    tok = AutoTokenizer.from_pretrained(a.model_dir, local_files_only=True)
    pad_id = tok.pad_token_id if tok.pad_token_id is not None else 0
    data = {n: read(a.data_dir, n, tok, a.max_len) for n in FILES}
    with open(os.path.join(a.data_dir, "rows-meta.json"), encoding="utf-8") as f:
        rows_meta = json.load(f)
    rnd = random.Random(a.seed)
    train = sample_rows(data["train"], a, rnd)
    if a.limit:
        train = train[: a.limit]
    tokens = sum(len(r[0]) for r in train)
    log(f"device {device} ({torch.cuda.get_device_name(0) if device.type == 'cuda' else 'cpu'}); {len(train)} training rows "
        f"({tokens / max(1, len(train)):.1f} tokens each) from {len(data['train'])}; "
        + ", ".join(f"{n} {len(data[n])}" for n in FILES[1:]) + f"; tokenised in {time.time() - t_start:.0f} s")

    kw = dict(num_labels=len(HEADS), problem_type="multi_label_classification",
              id2label={i: h for i, h in enumerate(HEADS)}, label2id={h: i for i, h in enumerate(HEADS)},
              dtype=torch.float32, local_files_only=True, ignore_mismatched_sizes=True)
    try:
        model = AutoModelForSequenceClassification.from_pretrained(a.model_dir, attn_implementation="sdpa", **kw)
    except (ValueError, ImportError):
        model = AutoModelForSequenceClassification.from_pretrained(a.model_dir, **kw)
    model.to(device).train()
    n_params = sum(p.numel() for p in model.parameters())
    log(f"{type(model).__name__} from {a.model_dir}: {n_params / 1e6:.1f} M parameters, attention {getattr(model.config, '_attn_implementation', '?')}")

    y = np.array([r[1] for r in train])
    m = np.array([r[2] for r in train])
    pos = ((y >= 0.5) & (m > 0)).sum(0)
    neg = ((y < 0.5) & (m > 0)).sum(0)
    pos_weight = torch.tensor(np.clip(np.sqrt(neg / np.maximum(pos, 1)), 1, 20), dtype=torch.float32, device=device)
    params = [(n, p) for n, p in model.named_parameters() if p.requires_grad]
    decay = [p for n, p in params if p.dim() >= 2 and "embeddings" not in n]
    rest = [p for n, p in params if not (p.dim() >= 2 and "embeddings" not in n)]
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": a.weight_decay}, {"params": rest, "weight_decay": 0.0}],
                            lr=a.lr, **({"fused": True} if device.type == "cuda" else {}))
    steps_per_epoch = math.ceil(len(train) / a.batch)
    total = max(1, int(steps_per_epoch * a.epochs))
    warm = max(1, int(total * a.warmup))
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min(1.0, (s + 1) / warm) * max(0.0, (total - s) / max(1, total - warm)))
    eval_every = max(1, steps_per_epoch // max(1, a.evals_per_epoch))
    stop_at = t_start + a.deadline_s - a.reserve_s if a.deadline_s > 0 else float("inf")

    history, best, best_state, step, t0, stopped = [], -1.0, None, 0, time.time(), False

    def evaluate():
        nonlocal best, best_state
        te = time.time()
        logits = {n: logits_of(model, data[n], pad_id, device, a.predict_batch, use_bf16) for n in ("val", "identity_val", "contrast_val", "noun_val", "sexism_dev")}
        res = {"step": step, "epoch": round(step / steps_per_epoch, 3), **measures(data, logits),
               "train_seconds": round(time.time() - t0), "eval_seconds": round(time.time() - te, 1)}
        history.append(res)
        log(f"step {step}/{total}: val mean AUC {res['val_mean_auc']} {res['val_auc']} dynahate {res['val_dynahate_overall_auc']} "
            f"EDOS dev {res.get('edos_dev_sexism')} identity flags {res.get('identity_val_flag_rate_at_f1_thresholds')} "
            f"noun flags {res.get('noun_val_flag_rate_at_f1_thresholds')} "
            f"contrast {(res.get('contrast_val_at_f1_thresholds') or {}).get('mean')}")
        score = res["val_mean_auc"] if res["val_mean_auc"] is not None else 0.0
        if score > best:
            best = score
            best_state = {k: v.detach().clone() for k, v in model.state_dict().items()}

    while step < total and not stopped:
        for idx in student.batches(train, a.batch, True, rnd):
            ids, mask, yb, mb = collate(train, idx, pad_id, device)
            with torch.autocast(device_type=device.type, dtype=torch.bfloat16, enabled=use_bf16):
                logits = model(input_ids=ids, attention_mask=mask).logits
            loss = F.binary_cross_entropy_with_logits(logits.float(), yb, pos_weight=pos_weight, reduction="none")
            loss = (loss * mb).sum() / mb.sum().clamp(min=1)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            sched.step()
            step += 1
            if step % 200 == 0 or step == 1:
                rate = step * a.batch / (time.time() - t0)
                log(f"step {step}/{total} loss {loss.item():.4f} ({time.time() - t0:.0f} s, {rate:.0f} rows/s)")
            if time.time() > stop_at:
                log(f"deadline: stopping at step {step} of {total}")
                stopped = True
            if step % eval_every == 0 or step == total or stopped:
                evaluate()
            if step >= total or stopped:
                break

    train_seconds = time.time() - t0
    model.load_state_dict(best_state)
    tp = time.time()
    logits = {n: logits_of(model, data[n], pad_id, device, a.predict_batch, use_bf16) for n in FILES}
    predict_seconds = time.time() - tp
    meta = {"seed": a.seed, "model_dir": os.path.basename(os.path.normpath(a.model_dir)), "heads": HEADS,
            "rows": {n: len(data[n]) for n in FILES}, "rows_meta": rows_meta}
    os.makedirs(a.out, exist_ok=True)
    npz = os.path.join(a.out, f"teacher-s{a.seed}.npz")
    np.savez_compressed(npz, meta=np.array(json.dumps(meta)), **{n: logits[n].astype(np.float16) for n in FILES})
    best_eval = max(history, key=lambda h: h["val_mean_auc"] or 0.0)
    summary = {"seed": a.seed, "model": type(model).__name__, "parameters": n_params, "cfg": vars(a),
               "device": torch.cuda.get_device_name(0) if device.type == "cuda" else "cpu",
               "training_rows": len(train), "tokens_per_row": round(tokens / max(1, len(train)), 1),
               "steps": step, "steps_planned": total, "stopped_by_deadline": stopped,
               "best": best_eval, "history": history, "train_seconds": round(train_seconds, 1),
               "predict_seconds": round(predict_seconds, 1), "total_seconds": round(time.time() - t_start, 1),
               "rows_per_second": round(step * a.batch / max(train_seconds, 1e-9), 1),
               "torch": torch.__version__, "rows": meta["rows"], "rows_meta": rows_meta}
    with open(os.path.join(a.out, f"teacher-s{a.seed}.json"), "w", encoding="utf-8") as f:
        json.dump(summary, f, indent=2)
    log(f"seed {a.seed}: best val mean AUC {best:.4f} at step {best_eval['step']}; wrote {npz} "
        f"({os.path.getsize(npz) / 1e6:.2f} MB) in {time.time() - t_start:.0f} s")


if __name__ == "__main__":
    main()
