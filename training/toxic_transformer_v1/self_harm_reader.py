"""Step 3 of `npm run train:toxicity-self-harm-reader`: the `self_harm` signal read from a lower layer.

The served model's own `self_harm` output reads the pooled [CLS] of the last layer, which fine-tuning
on the toxicity corpora has shaped for toxicity: on the written validation intent rows it reaches its
threshold for none. A lower layer's token states still carry a sentence's general meaning. This fits a
logistic regression on the mean of layer k's token states (L2-normalised) and adds those states to the
served graph as a second output, `self_harm_states` (an Identity of the layer's output): the weights and
the `logits` output are unchanged, bit for bit (checked here), so no second encoder run is needed. The
runtime (lib/moderation/toxicity/self-harm-reader.ts) pools each window's states over its tokens, in
float64, and its logit replaces the graph's `self_harm` logit.

Training rows (training splits only):
* the suicidal-intention tweets (selfharm_train.jsonl, prepare-patch.ts), intent 1 / 0;
* the written rows of self-harm-head.json (selfharm_head_train.jsonl, prepare-self-harm-head.ts) and the
  rows of patch-training.json that carry a `self_harm` label (patch_train.jsonl), at a written weight;
* ORDINARY_TRAIN ordinary training comments (a seeded sample of train.jsonl), as 0, leaving out those
  that tell someone to kill themselves or speak of suicide (ENCOURAGEMENT): nobody labelled them;
* hard negatives: every training comment labelled not toxic that uses a word of death or self-harm
  (self_harm_head.py HARD_WORDS: "my phone died", "killing time"), as 0, at HARD_WEIGHT.
Selection (validation only): for each layer k, C and written weight, the threshold with the highest mean
of the written validation intent recall and the tweets' validation recall, among thresholds that flag
none of self-harm-validation.json's figurative sentences, no written validation row that is not
self-harm, and at most MAX_ORDINARY_RATE of ORDINARY_VAL ordinary validation comments.

Usage: .work/venv/bin/python training/toxic_transformer_v1/self_harm_reader.py
Env: TOX_THREADS (default 2).
"""
import hashlib
import json
import os
import re
import sys

import numpy as np
import onnx
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score

from self_harm_head import CONFIG, HARD_WEIGHT, HARD_WORDS, MAX_LENGTH, MODEL, WORK, padded_batches, read, session_with
from split_external_data import save_split

FOLDER = os.path.dirname(CONFIG)
STACK = os.path.join(FOLDER, "lexical-stack.json")
METRICS = os.path.join(FOLDER, "metrics.json")
OUTPUT = "self_harm_states"
LAYERS = [2, 3, 4, 5, 6]
GRID_C = [1.0, 10.0]
GRID_WRITTEN = [5.0, 20.0]
THRESHOLDS = [round(0.5 + 0.005 * i, 3) for i in range(100)]
ORDINARY_TRAIN = 4000
ORDINARY_VAL = 2500
MAX_ORDINARY_RATE = 0.005
SEED = 7
ENCOURAGEMENT = re.compile(r"kill\s*(your|ur|yo)\s*self|\bkys\b|suicid|end (it all|my life)|want to die|hang (your|my)self", re.I)


def layer_output(k):
    """The name of layer k's output (1-based) in the exported graph: its last LayerNorm's result."""
    return f"/model/bert/encoder/layer.{k - 1}/output/LayerNorm/Add_1_output_0"


def pooled(states, length):
    """What the runtime computes for one window: the float64 mean of its token states, L2-normalised."""
    m = states[:length].astype(np.float64).mean(axis=0)
    return m / np.linalg.norm(m)


def features(session, rows, names, batch=64):
    """{output name: [n, 384]} pooled states of token-id rows."""
    out = {n: np.zeros((len(rows), 384)) for n in names}
    for idx, feed, tokens in padded_batches(rows, batch):
        for n, states in zip(names, session.run(names, feed)):
            for j, i in enumerate(idx):
                out[n][i] = pooled(states[j], int(tokens[j]))
    return out


def sample(rows, n, rng):
    rows = [r for r in rows if not ENCOURAGEMENT.search(r["t"])]
    return [rows[i] for i in sorted(rng.choice(len(rows), min(n, len(rows)), replace=False))]


def with_states_output(model, k):
    """The served graph with layer k's states as the output `self_harm_states` (weights untouched)."""
    out = onnx.ModelProto()
    out.CopyFrom(model)
    out.graph.node.append(onnx.helper.make_node("Identity", [layer_output(k)], [OUTPUT], name="self_harm_states_identity"))
    out.graph.output.append(onnx.helper.make_tensor_value_info(OUTPUT, onnx.TensorProto.FLOAT, ["batch_size", "sequence_length", 384]))
    return out


def main():
    threads = int(os.environ.get("TOX_THREADS", "2"))
    model = onnx.load(MODEL)
    if any(o.name == OUTPUT for o in model.graph.output):
        sys.exit(f"{MODEL} already has the output {OUTPUT}: restore the folder before fitting again")
    labels = json.load(open(CONFIG))["id2label"]
    k_label = [int(i) for i, name in labels.items() if name == "self_harm"][0]
    has_label = lambda r: len(r["m"]) > k_label and r["m"][k_label] == 1
    rng = np.random.default_rng(SEED)
    sets = {
        "tweets_train": read("selfharm_train.jsonl"),
        "written_train": read("selfharm_head_train.jsonl") + read("patch_train.jsonl", has_label),
        "ordinary_train": sample(read("train.jsonl"), ORDINARY_TRAIN, rng),
        "hard_train": read("train.jsonl", lambda r: r["m"][0] == 1 and r["y"][0] < 0.5 and HARD_WORDS.search(r["t"]) is not None),
        "tweets_val": read("selfharm_val.jsonl"),
        "written_val": read("selfharm_head_val.jsonl") + read("patch_val.jsonl", has_label),
        "figurative_val": read("selfharm_figurative_val.jsonl"),
        "ordinary_val": sample(read("val.jsonl"), ORDINARY_VAL, rng),
    }
    names = [layer_output(k) for k in LAYERS]
    session = session_with(model, names, threads)
    X, Y = {}, {}
    for name, rows in sets.items():
        X[name] = features(session, rows, names)
        Y[name] = np.array([0 if name.startswith(("ordinary", "hard")) else int(r["y"][k_label] >= 0.5) for r in rows])
        print(f"{name}: {len(rows)} rows, {int(Y[name].sum())} self-harm", flush=True)

    def measure(p, t):
        yt, yw = Y["tweets_val"], Y["written_val"]
        return {
            "threshold": t,
            "tweets_val_auc": round(float(roc_auc_score(yt, p["tweets_val"])), 4),
            "tweets_val_recall": round(float((p["tweets_val"][yt == 1] >= t).mean()), 4),
            "tweets_val_fpr": round(float((p["tweets_val"][yt == 0] >= t).mean()), 4),
            "written_val_intent_recall": round(float((p["written_val"][yw == 1] >= t).mean()), 4),
            "written_val_other_flagged": int((p["written_val"][yw == 0] >= t).sum()),
            "figurative_val_flagged": int((p["figurative_val"] >= t).sum()),
            "ordinary_val_flag_rate": round(float((p["ordinary_val"] >= t).mean()), 4),
        }

    report = {"rows": {n: len(v) for n, v in sets.items()}, "grid": []}
    best = None
    for k in LAYERS:
        n = layer_output(k)
        parts = ("tweets_train", "written_train", "ordinary_train", "hard_train")
        Xtr = np.concatenate([X[s][n] for s in parts])
        Ytr = np.concatenate([Y[s] for s in parts])
        for c in GRID_C:
            for ww in GRID_WRITTEN:
                sw = np.concatenate(
                    [np.ones(len(Y["tweets_train"])), np.full(len(Y["written_train"]), ww), np.ones(len(Y["ordinary_train"])), np.full(len(Y["hard_train"]), HARD_WEIGHT)]
                )
                fit = LogisticRegression(C=c, max_iter=5000, tol=1e-6).fit(Xtr, Ytr, sample_weight=sw)
                p = {s: fit.predict_proba(X[s][n])[:, 1] for s in ("tweets_val", "written_val", "figurative_val", "ordinary_val")}
                ok = [
                    m
                    for m in (measure(p, t) for t in THRESHOLDS)
                    if m["figurative_val_flagged"] == 0 and m["written_val_other_flagged"] == 0 and m["ordinary_val_flag_rate"] <= MAX_ORDINARY_RATE
                ]
                if not ok:
                    continue
                # The highest objective; on a tie, the highest threshold.
                m = max(ok, key=lambda m: ((m["written_val_intent_recall"] + m["tweets_val_recall"]) / 2, m["threshold"]))
                m = {"layer": k, "C": c, "written_weight": ww, **m, "objective": round((m["written_val_intent_recall"] + m["tweets_val_recall"]) / 2, 4)}
                report["grid"].append(m)
                print(m, flush=True)
                if best is None or (m["objective"], m["threshold"]) > (best[0]["objective"], best[0]["threshold"]):
                    best = (m, fit)
    if best is None:
        sys.exit("no fit meets the validation constraints: the folder is left as it was")
    chosen, fit = best
    report["chosen"] = chosen
    print("chosen:", chosen, flush=True)

    before = onnx.load(MODEL)
    served = with_states_output(model, chosen["layer"])
    artifact, files = save_split(served, MODEL)
    # The added output must leave the logits as they were: the lexical stack and every threshold read them.
    check = sets["ordinary_val"][:200] + sets["written_val"]
    old = session_with(before, [], threads)
    new = session_with(onnx.load(MODEL), [], threads)
    for r in check:
        ids = np.array([r["ids"][:MAX_LENGTH]], np.int64)
        feed = {"input_ids": ids, "attention_mask": np.ones_like(ids), "token_type_ids": np.zeros_like(ids)}
        if not np.array_equal(old.run(["logits"], feed)[0], new.run(["logits"], feed)[0]):
            sys.exit("the graph with self_harm_states gives other logits: not saved as served")

    config = json.load(open(CONFIG))
    previous = config["vigil"]["artifact"]
    config["vigil"]["artifact"] = artifact
    config["vigil"]["self_harm_threshold"] = chosen["threshold"]
    config["vigil"]["self_harm_reader"] = {
        "output": OUTPUT,
        "layer": chosen["layer"],
        "pooling": "mean of the window's token states, L2-normalised",
        "weights": [float(np.float32(w)) for w in fit.coef_[0]],
        "bias": float(np.float32(fit.intercept_[0])),
    }
    with open(CONFIG, "w") as f:
        json.dump(config, f, indent=2, ensure_ascii=False)
        f.write("\n")
    # Same logits, so the stack fitted on the previous artifact's logits holds for this one.
    stack = open(STACK).read()
    with open(STACK, "w") as f:
        f.write(stack.replace(f'"encoder_artifact":"{previous}"', f'"encoder_artifact":"{artifact}"', 1))
    metrics = json.load(open(METRICS))
    metrics["self_harm_reader"] = {
        "generated_by": "npm run train:toxicity-self-harm-reader (training/toxic_transformer_v1/self_harm_reader.py)",
        "rows": report["rows"],
        "chosen": chosen,
        "weights_sha256": hashlib.sha256(np.asarray(config["vigil"]["self_harm_reader"]["weights"]).tobytes()).hexdigest()[:12],
    }
    with open(METRICS, "w") as f:
        json.dump(metrics, f, indent=1, ensure_ascii=False)
        f.write("\n")
    with open(os.path.join(WORK, "self-harm-reader.json"), "w") as f:
        json.dump(report, f, indent=1)
    print(f"wrote {MODEL} (artifact {artifact}, was {previous}; {', '.join(f'{n} {b} B' for n, b in files)}), config.json, metrics.json")


if __name__ == "__main__":
    sys.exit(main())
