"""Step 2 of `npm run train:toxicity-self-harm`: refit the served model's `self_harm` output on its
own frozen features.

The classifier on top of the encoder is a float32 Gemm ([CLS] -> pooler -> tanh -> 7 logits), outside
the int8 weights. Its `self_harm` row is a logistic regression on the 384 pooled features, so it can be
refitted alone, by a convex fit, without touching the encoder or the other six rows: every other output
of the served model keeps its exact weights and scores.

Features are read from the served graph itself (models/toxic_transformer_v1/onnx, int8 weights, float32
arithmetic), with the pooler's tanh added as a second output, so they are the ones serving computes.

Training rows (all from training splits):
* the suicidal-intention tweets (selfharm_train.jsonl, prepare-patch.ts), intent 1 / 0;
* the written rows of self-harm-head.json (selfharm_head_train.jsonl, prepare-self-harm-head.ts) and of
  patch-training.json that carry a `self_harm` label (patch_train.jsonl);
* ordinary comments: a seeded sample of the toxicity training split's rows labelled not toxic, as 0;
* hard negatives: every such row that uses a word of death or self-harm (HARD_WORDS), as 0, at HARD_WEIGHT.
Selection (validation only): for each (C, weight of written rows, weight of ordinary comments) in a small
grid, the threshold evaluate.ts would set (the macro-F1 threshold on the tweets' validation split, raised
until at most 0.5 % of the toxicity validation rows labelled not toxic reach it), then the mean of three
parts at that threshold: the tweets' validation recall, the written validation intent recall, and the share
of written validation rows that only look like self-harm (figurative, safe-context, everyday; with self-harm-validation.json's sentences) left unflagged. The best fit's
row replaces the graph's, which is saved as the split int8 model again (split_external_data.py).

Usage: .work/venv/bin/python training/toxic_transformer_v1/self_harm_head.py
Env: TOX_THREADS (default 2), TOX_SELF_HARM_ORDINARY (ordinary comments sampled, default 30000).
"""
import json
import os
import re
import sys

import numpy as np
import onnx
import onnxruntime as ort
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score

from split_external_data import save_split

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
MODEL = os.path.join(ROOT, "models", "toxic_transformer_v1", "onnx", "model_quantized.onnx")
CONFIG = os.path.join(ROOT, "models", "toxic_transformer_v1", "config.json")
WORK = os.path.join(ROOT, ".work", "toxicity")
POOLED = "/model/bert/pooler/activation/Tanh_output_0"
CLASSIFIER_W, CLASSIFIER_B = "model.classifier.weight", "model.classifier.bias"
MAX_LENGTH = 128
# At most this share of ordinary validation comments may reach the threshold (evaluate.ts SELF_HARM_MAX_BENIGN_RATE).
MAX_BENIGN_RATE = 0.005
GRID_C = [0.01, 0.1, 1.0, 10.0]
GRID_WRITTEN = [1.0, 5.0, 20.0]
GRID_ORDINARY = [0.2, 1.0]
SEED = 20261207
# Hard negatives: training comments labelled not toxic that use a word of death or self-harm ("my phone
# died", "killing time", "cut the onions"), all of them, at HARD_WEIGHT.
HARD_WORDS = re.compile(r"\b(die|dying|dead|death|kill|killing|suicide|suicidal|overdose|pills?|hang|cut|jump)\b", re.I)
HARD_WEIGHT = 5.0


def read(name, keep=lambda r: True):
    with open(os.path.join(WORK, name)) as f:
        return [r for r in (json.loads(line) for line in f if line.strip()) if keep(r)]


def session_with(model, names, threads):
    """An onnxruntime session of the served graph with the inner tensors `names` added as outputs."""
    probe = onnx.ModelProto()
    probe.CopyFrom(model)
    for name in names:
        probe.graph.output.append(onnx.helper.make_tensor_value_info(name, onnx.TensorProto.FLOAT, None))
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    return ort.InferenceSession(probe.SerializeToString(), opts, providers=["CPUExecutionProvider"])


def session_with_pooled(model, threads):
    """An onnxruntime session of the served graph with the pooler's tanh added as a second output."""
    return session_with(model, [POOLED], threads)


def classifier(graph):
    """The float32 classifier's weight [7, 384] and bias [7], as copies."""
    get = lambda name: onnx.numpy_helper.to_array(next(t for t in graph.initializer if t.name == name)).copy()
    return get(CLASSIFIER_W), get(CLASSIFIER_B)


def save_classifier(model, w, b):
    """Puts a new classifier into the served graph and saves it as the split int8 model; (artifact, files)."""
    for t in model.graph.initializer:
        if t.name == CLASSIFIER_W:
            t.CopyFrom(onnx.numpy_helper.from_array(w, CLASSIFIER_W))
        elif t.name == CLASSIFIER_B:
            t.CopyFrom(onnx.numpy_helper.from_array(b, CLASSIFIER_B))
    return save_split(model, MODEL)


def padded_batches(rows, batch=64):
    """Token-id rows in runs of `batch`, sorted by length to pad little: (row indices, feed, tokens per row)."""
    order = sorted(range(len(rows)), key=lambda i: len(rows[i]["ids"]))
    for s in range(0, len(order), batch):
        idx = order[s : s + batch]
        t = max(min(len(rows[i]["ids"]), MAX_LENGTH) for i in idx)
        ids = np.zeros((len(idx), t), np.int64)
        mask = np.zeros_like(ids)
        for k, i in enumerate(idx):
            x = rows[i]["ids"][:MAX_LENGTH]
            ids[k, : len(x)] = x
            mask[k, : len(x)] = 1
        yield idx, {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}, mask.sum(axis=1)


def features(session, rows, batch=64):
    """Pooled features [n, 384] of token-id rows, in row order (batched by length to pad little)."""
    out = np.zeros((len(rows), 384), np.float32)
    for idx, feed, _ in padded_batches(rows, batch):
        out[idx] = session.run([POOLED], feed)[0]
    return out


def macro_f1_threshold(y, s):
    """The threshold (a score value) with the best macro-F1 of y against s >= threshold."""
    order = np.argsort(-s, kind="stable")
    ys, ss = y[order], s[order]
    pos, n = ys.sum(), len(ys)
    tp = np.cumsum(ys)
    fp = np.cumsum(1 - ys)
    fn, tn = pos - tp, (n - pos) - fp
    f1p = 2 * tp / np.maximum(1, 2 * tp + fp + fn)
    f1n = 2 * tn / np.maximum(1, 2 * tn + fn + fp)
    macro = (f1p + f1n) / 2
    # Only cut between distinct scores.
    last = np.r_[ss[1:] != ss[:-1], True]
    k = int(np.argmax(np.where(last, macro, -1)))
    return float(ss[k])


def main():
    threads = int(os.environ.get("TOX_THREADS", "2"))
    n_ordinary = int(os.environ.get("TOX_SELF_HARM_ORDINARY", "30000"))
    model = onnx.load(MODEL)
    graph = model.graph
    session = session_with_pooled(model, threads)

    labels = json.load(open(CONFIG))["id2label"]
    k = [int(i) for i, name in labels.items() if name == "self_harm"][0]
    benign = lambda r: r["m"][0] == 1 and r["y"][0] < 0.5
    has_label = lambda r: len(r["m"]) > k and r["m"][k] == 1
    rng = np.random.default_rng(SEED)
    ordinary_all = read("train.jsonl", benign)
    ordinary = [ordinary_all[i] for i in sorted(rng.choice(len(ordinary_all), min(n_ordinary, len(ordinary_all)), replace=False))]
    sets = {
        "tweets_train": read("selfharm_train.jsonl"),
        "written_train": read("selfharm_head_train.jsonl") + read("patch_train.jsonl", has_label),
        "ordinary_train": ordinary,
        "hard_train": read("train.jsonl", lambda r: benign(r) and HARD_WORDS.search(r["t"]) is not None),
        "tweets_val": read("selfharm_val.jsonl"),
        "written_val": read("selfharm_head_val.jsonl") + read("patch_val.jsonl", has_label) + read("selfharm_figurative_val.jsonl"),
        "ordinary_val": read("val.jsonl", benign),
    }
    X, Y = {}, {}
    for name, rows in sets.items():
        X[name] = features(session, rows)
        Y[name] = np.array([0 if name.startswith(("ordinary", "hard")) else int(r["y"][k] >= 0.5) for r in rows])
        print(f"{name}: {len(rows)} rows, {int(Y[name].sum())} self-harm", flush=True)

    # Written validation rows that look like self-harm but are not: figurative, safe-context and everyday rows.
    LOOKALIKE = np.array([r["c"] in ("self_harm_head", "patch_figurative", "self_harm_validation") and r["y"][k] < 0.5 for r in sets["written_val"]])
    w_old, b_old = classifier(graph)

    def evaluate(w, b):
        score = {n: 1 / (1 + np.exp(-(X[n] @ w + b))) for n in ("tweets_val", "written_val", "ordinary_val")}
        f1 = macro_f1_threshold(Y["tweets_val"], score["tweets_val"])
        guard = float(np.sort(score["ordinary_val"])[min(len(score["ordinary_val"]) - 1, int((1 - MAX_BENIGN_RATE) * len(score["ordinary_val"])))])
        t = max(f1, guard + 1e-4)
        yt, st = Y["tweets_val"], score["tweets_val"]
        yw, sw = Y["written_val"], score["written_val"]
        recall = float(((st >= t) & (yt == 1)).sum() / max(1, yt.sum()))
        written = float(((sw >= t) == (yw == 1)).mean())
        intent = float(((sw >= t) & (yw == 1)).sum() / max(1, yw.sum()))
        kept = float(((sw < t) & LOOKALIKE).sum() / max(1, LOOKALIKE.sum()))
        return {
            "threshold": round(t, 4),
            "tweets_val_auc": round(float(roc_auc_score(yt, st)), 4),
            "tweets_val_recall": round(recall, 4),
            "tweets_val_fpr": round(float(((st >= t) & (yt == 0)).sum() / max(1, (yt == 0).sum())), 4),
            "written_val_accuracy": round(written, 4),
            "written_val_intent_recall": round(intent, 4),
            "written_val_lookalikes_unflagged": round(kept, 4),
            "objective": round((recall + intent + kept) / 3, 4),
        }

    report = {"served": evaluate(w_old[k], b_old[k]), "grid": []}
    print("served row:", report["served"], flush=True)
    Xtr = np.concatenate([X["tweets_train"], X["written_train"], X["ordinary_train"], X["hard_train"]])
    Ytr = np.concatenate([Y["tweets_train"], Y["written_train"], Y["ordinary_train"], Y["hard_train"]])
    best = None
    for c in GRID_C:
        for ww in GRID_WRITTEN:
            for wo in GRID_ORDINARY:
                sw = np.concatenate(
                    [
                        np.ones(len(X["tweets_train"])),
                        np.full(len(X["written_train"]), ww),
                        np.full(len(X["ordinary_train"]), wo),
                        np.full(len(X["hard_train"]), HARD_WEIGHT),
                    ]
                )
                fit = LogisticRegression(C=c, max_iter=2000, tol=1e-6).fit(Xtr, Ytr, sample_weight=sw)
                m = evaluate(fit.coef_[0], fit.intercept_[0])
                report["grid"].append({"C": c, "written_weight": ww, "ordinary_weight": wo, **m})
                print({"C": c, "written_weight": ww, "ordinary_weight": wo, **m}, flush=True)
                if best is None or m["objective"] > best[0]["objective"]:
                    best = (m, fit, {"C": c, "written_weight": ww, "ordinary_weight": wo})
    m, fit, chosen = best
    report["chosen"] = {**chosen, **m}
    print("chosen:", report["chosen"], flush=True)

    w_new, b_new = w_old.copy(), b_old.copy()
    w_new[k] = fit.coef_[0].astype(np.float32)
    b_new[k] = np.float32(fit.intercept_[0])
    artifact, files = save_classifier(model, w_new, b_new)
    report["artifact"] = artifact
    report["rows"] = {n: int(len(v)) for n, v in Y.items()}
    with open(os.path.join(WORK, "self-harm-head.json"), "w") as f:
        json.dump(report, f, indent=1)
    print(f"wrote {MODEL} (artifact {artifact}; {', '.join(f'{n} {b} B' for n, b in files)}) and {WORK}/self-harm-head.json")


if __name__ == "__main__":
    sys.exit(main())
