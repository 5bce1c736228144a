#!/usr/bin/python3
"""Step 2 of `npm run train:toxicity`: train toxic_transformer_v1 and export it to ONNX.

The model is an ELECTRA-architecture encoder (Hugging Face `ElectraForSequenceClassification`, written
out here in plain torch with the same parameter names, so the checkpoint also loads into
`transformers`): 100-d word embeddings initialised from GloVe and projected to the model width,
post-LN transformer layers, a [CLS] classification head with five sigmoid outputs. Word rows that came
from GloVe learn at `glove_lr_scale` times the learning rate (0 freezes them), so words the training
data never shows keep the meaning GloVe gave them.

Reads what prepare.ts wrote (.work/toxicity: *.jsonl token ids from the serving tokenizer,
glove_init.f32). Loss: binary cross-entropy per head, masked per corpus (a corpus trains only the heads
it labels), with pos_weight = clip(sqrt(neg/pos), 1, 20) and threat positives repeated. Selects the
epoch with the best validation mean ROC-AUC, writes best.pt, model.onnx (fp32) and train-summary.json.

Runs on CPU (Debian python3-torch 1.13, 2 threads: the committed recipe) and on CUDA when present
(torch 2.x; used for wider searches). Environment: TOX_DIM, TOX_LAYERS, TOX_HEADS, TOX_EPOCHS, TOX_LR,
TOX_BATCH, TOX_GLOVE_LR_SCALE, TOX_SEED, TOX_THREADS, TOX_MAX_LEN, TOX_WORK_DIR, TOX_TAG.
  /usr/bin/python3 models/toxic_transformer_v1/train.py
"""
import json
import math
import os
import random
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
WORK = os.environ.get("TOX_WORK_DIR", os.path.join(ROOT, ".work", "toxicity"))
HEADS = ["overall", "insult", "threat", "identity_attack", "profanity"]
EMB = 100

CFG = dict(
    hidden=int(os.environ.get("TOX_DIM", 128)),
    layers=int(os.environ.get("TOX_LAYERS", 4)),
    heads=int(os.environ.get("TOX_HEADS", 4)),
    ff_mult=4,
    max_len=int(os.environ.get("TOX_MAX_LEN", 128)),
    dropout=float(os.environ.get("TOX_DROPOUT", 0.2)),
    batch_size=int(os.environ.get("TOX_BATCH", 64)),
    lr=float(os.environ.get("TOX_LR", 5e-4)),
    weight_decay=0.01,
    warmup_frac=0.06,
    epochs=int(os.environ.get("TOX_EPOCHS", 4)),
    glove_lr_scale=float(os.environ.get("TOX_GLOVE_LR_SCALE", 0.1)),
    threat_repeat=3,
    identity_repeat=int(os.environ.get("TOX_IDENTITY_REPEAT", 10)),
    seed=int(os.environ.get("TOX_SEED", 1234)),
)
TAG = os.environ.get("TOX_TAG", "run")


def log(*a):
    print(time.strftime("%H:%M:%S"), *a, flush=True)


# ---------------------------------------------------------------- model (HF ELECTRA parameter names)


class Embeddings(nn.Module):
    def __init__(self, vocab, max_len):
        super().__init__()
        self.word_embeddings = nn.Embedding(vocab, EMB, padding_idx=0)
        self.position_embeddings = nn.Embedding(max_len, EMB)
        self.token_type_embeddings = nn.Embedding(2, EMB)
        self.LayerNorm = nn.LayerNorm(EMB, eps=1e-12)

    def forward(self, ids, token_type_ids):
        pos = torch.arange(ids.shape[1], device=ids.device).unsqueeze(0)
        x = self.word_embeddings(ids) + self.position_embeddings(pos) + self.token_type_embeddings(token_type_ids)
        return self.LayerNorm(x)


class SelfAttention(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.h = h
        self.query = nn.Linear(d, d)
        self.key = nn.Linear(d, d)
        self.value = nn.Linear(d, d)

    def forward(self, x, bias):
        b, t, d = x.shape
        hd = d // self.h

        def split(y):
            return y.view(b, t, self.h, hd).transpose(1, 2)

        q, k, v = split(self.query(x)), split(self.key(x)), split(self.value(x))
        att = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(hd) + bias
        ctx = torch.matmul(F.softmax(att, dim=-1), v)
        return ctx.transpose(1, 2).reshape(b, t, d)


class DenseNorm(nn.Module):
    """HF's *SelfOutput / *Output: dense, dropout, residual, LayerNorm."""

    def __init__(self, d_in, d, dropout):
        super().__init__()
        self.dense = nn.Linear(d_in, d)
        self.LayerNorm = nn.LayerNorm(d, eps=1e-12)
        self.drop = nn.Dropout(dropout)

    def forward(self, x, residual):
        return self.LayerNorm(self.drop(self.dense(x)) + residual)


class Attention(nn.Module):
    def __init__(self, d, h, dropout):
        super().__init__()
        setattr(self, "self", SelfAttention(d, h))
        self.output = DenseNorm(d, d, dropout)

    def forward(self, x, bias):
        return self.output(getattr(self, "self")(x, bias), x)


class Intermediate(nn.Module):
    def __init__(self, d, ff):
        super().__init__()
        self.dense = nn.Linear(d, ff)

    def forward(self, x):
        return F.gelu(self.dense(x))


class Layer(nn.Module):
    def __init__(self, d, h, ff, dropout):
        super().__init__()
        self.attention = Attention(d, h, dropout)
        self.intermediate = Intermediate(d, ff)
        self.output = DenseNorm(ff, d, dropout)

    def forward(self, x, bias):
        a = self.attention(x, bias)
        return self.output(self.intermediate(a), a)


class Encoder(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.layer = nn.ModuleList(
            [Layer(cfg["hidden"], cfg["heads"], cfg["hidden"] * cfg["ff_mult"], cfg["dropout"]) for _ in range(cfg["layers"])]
        )


class Electra(nn.Module):
    def __init__(self, vocab, cfg):
        super().__init__()
        self.embeddings = Embeddings(vocab, cfg["max_len"])
        self.embeddings_project = nn.Linear(EMB, cfg["hidden"])
        self.encoder = Encoder(cfg)


class ClassificationHead(nn.Module):
    def __init__(self, d, n, dropout):
        super().__init__()
        self.dense = nn.Linear(d, d)
        self.out_proj = nn.Linear(d, n)
        self.drop = nn.Dropout(dropout)

    def forward(self, x):
        x = self.drop(x[:, 0, :])
        x = self.drop(F.gelu(self.dense(x)))
        return self.out_proj(x)


class ElectraForSequenceClassification(nn.Module):
    def __init__(self, vocab, cfg):
        super().__init__()
        self.electra = Electra(vocab, cfg)
        self.classifier = ClassificationHead(cfg["hidden"], len(HEADS), cfg["dropout"])
        self.emb_drop = nn.Dropout(cfg["dropout"])

    def forward(self, input_ids, attention_mask, token_type_ids):
        x = self.emb_drop(self.electra.embeddings(input_ids, token_type_ids))
        x = self.electra.embeddings_project(x)
        bias = (1.0 - attention_mask[:, None, None, :].to(x.dtype)) * -1e9
        for layer in self.electra.encoder.layer:
            x = layer(x, bias)
        return self.classifier(x)


def hf_config(vocab, cfg):
    """config.json body (evaluate.ts adds the Vigil block with thresholds)."""
    return {
        "architectures": ["ElectraForSequenceClassification"],
        "model_type": "electra",
        "vocab_size": vocab,
        "embedding_size": EMB,
        "hidden_size": cfg["hidden"],
        "num_hidden_layers": cfg["layers"],
        "num_attention_heads": cfg["heads"],
        "intermediate_size": cfg["hidden"] * cfg["ff_mult"],
        "hidden_act": "gelu",
        "hidden_dropout_prob": cfg["dropout"],
        "attention_probs_dropout_prob": 0.0,
        "max_position_embeddings": cfg["max_len"],
        "type_vocab_size": 2,
        "initializer_range": 0.02,
        "layer_norm_eps": 1e-12,
        "pad_token_id": 0,
        "position_embedding_type": "absolute",
        "summary_type": "first",
        "classifier_dropout": None,
        "problem_type": "multi_label_classification",
        "id2label": {str(i): h for i, h in enumerate(HEADS)},
        "label2id": {h: i for i, h in enumerate(HEADS)},
    }


# ---------------------------------------------------------------- data


def read_rows(name):
    rows = []
    with open(os.path.join(WORK, name), encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            rows.append((r["ids"][: CFG["max_len"]], r["y"], r["m"], r.get("j", 0), r.get("c", "")))
    return rows


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
    to = lambda a: torch.from_numpy(a).to(device)
    return to(ids), to(mask), to(y), to(m)


def predict(model, rows, device, batch_size=256):
    model.eval()
    out = np.zeros((len(rows), len(HEADS)), dtype=np.float32)
    with torch.no_grad():
        for idx in batches(rows, batch_size, False, None):
            ids, mask, _, _ = collate(rows, idx, device)
            out[idx] = torch.sigmoid(model(ids, mask, torch.zeros_like(ids)).float()).cpu().numpy()
    model.train()
    return out


def auc_table(rows, probs):
    from sklearn.metrics import roc_auc_score

    y = np.array([r[1] for r in rows])
    m = np.array([r[2] for r in rows])
    res = {}
    for h, name in enumerate(HEADS):
        sel = m[:, h] > 0
        lab = y[sel, h] >= 0.5
        if lab.sum() >= 5 and (~lab).sum() >= 5:
            res[name] = float(roc_auc_score(lab, probs[sel, h]))
    return res


# ---------------------------------------------------------------- training


def main():
    random.seed(CFG["seed"])
    np.random.seed(CFG["seed"])
    torch.manual_seed(CFG["seed"])
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if device.type == "cpu":
        torch.set_num_threads(int(os.environ.get("TOX_THREADS", 2)))
    train = read_rows("train.jsonl")
    val = read_rows("val.jsonl")
    limit = int(os.environ.get("TOX_LIMIT", 0))  # smoke runs only
    if limit:
        train, val = train[:limit], val[: limit // 4]
    init = np.fromfile(os.path.join(WORK, "glove_init.f32"), dtype=np.float32).reshape(-1, EMB)
    vocab = init.shape[0]
    log(f"{TAG}: device {device}, {len(train)} train / {len(val)} val rows, vocab {vocab}, cfg {CFG}")

    model = ElectraForSequenceClassification(vocab, CFG)
    for mod in model.modules():
        if isinstance(mod, (nn.Linear, nn.Embedding)):
            nn.init.normal_(mod.weight, std=0.02)
            if isinstance(mod, nn.Linear) and mod.bias is not None:
                nn.init.zeros_(mod.bias)
    has_glove = ~np.isnan(init[:, 0])
    # GloVe rows as given; others drawn with GloVe's own spread so no row starts as an outlier.
    std = float(np.nanstd(init[has_glove]))
    if os.environ.get("TOX_NO_GLOVE") == "1":  # ablation: the same model with random word vectors
        has_glove[:] = False
    gen = np.random.default_rng(CFG["seed"])
    table = np.where(has_glove[:, None], init, gen.normal(0, std, init.shape)).astype(np.float32)
    table[0] = 0
    model.electra.embeddings.word_embeddings.weight.data.copy_(torch.from_numpy(table))
    model.to(device)
    scale = torch.where(torch.from_numpy(has_glove), CFG["glove_lr_scale"], 1.0).float().to(device)[:, None]
    model.electra.embeddings.word_embeddings.weight.register_hook(lambda g: g * scale)
    log(f"{sum(p.numel() for p in model.parameters()) / 1e6:.2f} M parameters; {int(has_glove.sum())} GloVe rows")

    y = np.array([r[1] for r in train])
    m = np.array([r[2] for r in train])
    pos = ((y >= 0.5) & (m > 0)).sum(0)
    neg = ((y < 0.5) & (m > 0)).sum(0)
    pos_weight = torch.tensor(np.clip(np.sqrt(neg / np.maximum(pos, 1)), 1, 20), dtype=torch.float32, device=device)
    log("pos_weight", dict(zip(HEADS, [round(float(x), 2) for x in pos_weight])))
    threat = [i for i, r in enumerate(train) if r[2][2] > 0 and r[1][2] >= 0.5]
    train = train + [train[i] for i in threat] * (CFG["threat_repeat"] - 1)
    # The template identity rows (neutral, counter-speech, hateful) are few next to the corpora.
    identity = [r for r in train if r[4].startswith("identity_")]
    train = train + identity * (CFG["identity_repeat"] - 1)

    decay = [p for n, p in model.named_parameters() if p.dim() >= 2 and "embeddings" not in n]
    rest = [p for n, p in model.named_parameters() if not (p.dim() >= 2 and "embeddings" not in n)]
    opt = torch.optim.AdamW(
        [{"params": decay, "weight_decay": CFG["weight_decay"]}, {"params": rest, "weight_decay": 0.0}], lr=CFG["lr"]
    )
    rnd = random.Random(CFG["seed"])
    steps_per_epoch = math.ceil(len(train) / CFG["batch_size"])
    total = steps_per_epoch * CFG["epochs"]
    warm = max(1, int(total * CFG["warmup_frac"]))
    sched = torch.optim.lr_scheduler.LambdaLR(
        opt, lambda s: min(1.0, (s + 1) / warm) * max(0.05, 0.5 * (1 + math.cos(math.pi * min(1.0, s / total))))
    )
    best, history, step, t0 = -1.0, [], 0, time.time()
    model.train()
    for epoch in range(CFG["epochs"]):
        for idx in batches(train, CFG["batch_size"], True, rnd):
            ids, mask, yb, mb = collate(train, idx, device)
            logits = model(ids, mask, torch.zeros_like(ids))
            loss = F.binary_cross_entropy_with_logits(logits, yb, pos_weight=pos_weight, reduction="none")
            loss = (loss * mb).sum() / mb.sum().clamp(min=1)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            sched.step()
            step += 1
            if step % 500 == 0:
                log(f"epoch {epoch} step {step}/{total} loss {loss.item():.4f} ({time.time() - t0:.0f} s)")
        aucs = auc_table(val, predict(model, val, device))
        jig = [r for r in val if r[3]]
        jaucs = auc_table(jig, predict(model, jig, device))
        mean = float(np.mean(list(aucs.values())))
        history.append({"epoch": epoch + 1, "step": step, "val_auc": aucs, "val_mean_auc": mean,
                        "val_jigsaw_mean_auc": float(np.mean(list(jaucs.values()))), "seconds": round(time.time() - t0)})
        log(f"epoch {epoch + 1}: val mean AUC {mean:.4f} jigsaw {history[-1]['val_jigsaw_mean_auc']:.4f} {aucs}")
        if mean > best:
            best = mean
            torch.save(model.state_dict(), os.path.join(WORK, "best.pt"))
    model.load_state_dict(torch.load(os.path.join(WORK, "best.pt"), map_location=device))
    identity_check = identity_flags(model, val, device)
    log(f"identity validation flag rate at F1 thresholds: {identity_check}")
    model.to("cpu").eval()
    export_onnx(model, os.path.join(WORK, "model.onnx"), vocab)
    with open(os.path.join(WORK, "hf_config.json"), "w", encoding="utf-8") as f:
        json.dump(hf_config(vocab, CFG), f, indent=2)
    with open(os.path.join(WORK, "train-summary.json"), "w", encoding="utf-8") as f:
        json.dump({"tag": TAG, "cfg": CFG, "device": device.type, "best_val_mean_auc": best, "history": history,
                   "identity_val_flag_rate_at_f1_thresholds": identity_check,
                   "torch": torch.__version__}, f, indent=2)
    log(f"{TAG}: best validation mean AUC {best:.4f}")


def identity_flags(model, val, device):
    """Share of the validation identity sentences some head flags at its validation-F1-optimal threshold
    (a selection signal for comparing runs; evaluate.ts sets the served thresholds)."""
    from sklearn.metrics import f1_score

    probs = predict(model, val, device)
    ident = read_rows("identity_val.jsonl")
    iprobs = predict(model, ident, device)
    flagged = np.zeros(len(ident), dtype=bool)
    for h in range(len(HEADS)):
        sel = np.array([r[2][h] > 0 for r in val])
        lab = np.array([r[1][h] >= 0.5 for r in val])[sel]
        p = probs[sel, h]
        cands = np.quantile(p, np.linspace(0.05, 0.995, 120))
        best_t = max(cands, key=lambda t: f1_score(lab, p >= t, average="macro"))
        flagged |= iprobs[:, h] >= best_t
    return round(float(flagged.mean()), 4)


def export_onnx(model, path, vocab):
    ids = torch.randint(5, vocab, (2, 16), dtype=torch.int64)
    mask = torch.ones(2, 16, dtype=torch.int64)
    mask[1, 10:] = 0
    kwargs = dict(
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
    )
    try:  # torch >= 2.5 defaults to the dynamo exporter; the TorchScript one gives the same graph on 1.13
        torch.onnx.export(model, (ids, mask, torch.zeros_like(ids)), path, dynamo=False, **kwargs)
    except TypeError:
        torch.onnx.export(model, (ids, mask, torch.zeros_like(ids)), path, **kwargs)
    import onnx

    onnx.checker.check_model(onnx.load(path))
    log(f"exported {path} ({os.path.getsize(path) / 1e6:.2f} MB)")


if __name__ == "__main__":
    main()
