#!/usr/bin/python3
"""Stage-3 checkpoint selection, on validation only (model card, "Rounds 5 and 6").

For each named checkpoint (.work/toxicity/checkpoints/<name>.pt) it measures
  M1  mean ROC-AUC over the five heads on the validation split;
  M2  the frame-held-out identity false-positive rate: the 20 frames of identity-validation.json are
      split into two halves (even / odd frame index); thresholds are chosen as evaluate.ts does
      (macro-F1-optimal per head on validation, then raised until <= 4 % of the sentences and <= 5 %
      of each group's are flagged) on one half, and the flag rate (any head >= its threshold) is
      measured on the other half; both directions together cover every sentence once, so M2 has an
      overall rate and a per-group rate over 20 sentences. It estimates how the threshold constraint
      carries over to neutral frames it has not seen, which is what the shipped thresholds face;
  M3  mean validation macro-F1 over the heads at those constrained thresholds (the recall they cost),
      averaged over the two halves;
  M4  the flag rate, at the thresholds constrained on all 440 validation identity sentences (what
      evaluate.ts ships), of the validation rows that are labelled neutral on every labelled head and
      name a group (cda.ts namedGroups -> val-groups.jsonl): natural text, not written by us; overall
      (over row x group pairs) and for the worst group with >= 20 such rows;
  M4m M4 at a matched operating point: all thresholds moved up by one common logit offset until the
      neutral validation rows that name no group are flagged no more often than the reference flags
      them at its own thresholds (see `matched`); also the toxic recall there.

Rule of round 5 (--rule 5), fixed before its first candidate was measured: a checkpoint replaces the
reference (the first name) only if M1 >= M1(ref) + 0.002, M3 >= M3(ref) - 0.01, and M2 overall,
M2 worst group, M4 overall and M4 worst group are each <= the reference's; among those the highest
M1 wins. (M4 was added after seeing that the reference's M2 is 3 sentences of 440; no candidate had
been measured then.)

Rule of round 6 (default), fixed after round 5 and before any round-6 checkpoint was measured:
as round 5, with M4 overall and worst group replaced by M4m overall and worst group. Round 5 showed
that M4 compares operating points, not identity bias: a model whose validation identity sentences
no longer force its thresholds up ships lower thresholds and then flags more neutral text of every
kind, with or without a group term. Round 6 is applied to a fresh run only (new seed), never to the
round-5 checkpoints that informed it.

  /usr/bin/python3 models/toxic_transformer_v1/select_checkpoint.py [--rule 5] dequantized H-150 H-300 ...
"""
import json
import os
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from train import HEADS, WORK, ToxicityTransformer, head_aucs, load_split, predict  # noqa: E402

MAX_RATE, MAX_GROUP = 0.04, 0.05


def best_macro_f1_threshold(labels, scores, prefer=0.5):
    """Port of lib/ml/metrics.ts bestMacroF1Threshold (ties: the threshold nearest `prefer`)."""
    order = np.argsort(-scores, kind="stable")
    s, y = scores[order], labels[order]
    n_pos, n = int(y.sum()), len(y)
    n_neg = n - n_pos

    def macro(tp, fp):
        fn, tn = n_pos - tp, n_neg - fp
        f_pos = 2 * tp / max(2 * tp + fp + fn, 1)
        f_neg = 2 * tn / max(2 * tn + fn + fp, 1)
        return (f_pos + f_neg) / 2

    best_t, best_f = float(s[0]) + 1e-6, macro(0, 0)
    tp = fp = k = 0
    while k < n:
        v = s[k]
        while k < n and s[k] == v:
            tp += int(y[k])
            fp += 1 - int(y[k])
            k += 1
        nxt = s[k] if k < n else v - 1e-6
        t = float(v + nxt) / 2
        f = macro(tp, fp)
        if f > best_f or (f == best_f and abs(t - prefer) < abs(best_t - prefer)):
            best_t, best_f = t, f
    return best_t, best_f


def macro_f1_at(labels, scores, t):
    p = scores >= t
    tp, fp = int((p & (labels == 1)).sum()), int((p & (labels == 0)).sum())
    fn, tn = int((~p & (labels == 1)).sum()), int((~p & (labels == 0)).sum())
    return (2 * tp / max(2 * tp + fp + fn, 1) + 2 * tn / max(2 * tn + fn + fp, 1)) / 2


def constrain(th, scores, groups):
    """Port of evaluate.ts constrainThresholds (raises `th` in place)."""
    for _ in range(2000):
        by = scores >= th[None, :]
        flagged = by.any(axis=1)
        rate = flagged.mean()
        gmax = max(flagged[groups == g].mean() for g in np.unique(groups))
        if rate <= MAX_RATE and gmax <= MAX_GROUP:
            return th
        h = int(np.argmax(by.sum(axis=0)))
        th[h] = scores[by[:, h], h].min() + 1e-4
    return th


def neutral_rows(val):
    """Validation rows with `overall` labelled and every labelled head negative."""
    return (val["m"][:, 0] > 0) & ~((val["y"] >= 0.5) & (val["m"] > 0)).any(axis=1)


def natural_group_flags(val, val_groups, flagged):
    """{group: [flagged?]} over the neutral validation rows that name the group."""
    neutral = neutral_rows(val)
    nat = {}
    for r in val_groups:
        if neutral[r["i"]]:
            for g in r["groups"]:
                nat.setdefault(g, []).append(bool(flagged[r["i"]]))
    return nat


def natural_rates(nat, min_rows=20):
    """(flag rate over all row x group pairs, worst group's rate, worst group) among groups with >= min_rows."""
    big = {g: float(np.mean(v)) for g, v in nat.items() if len(v) >= min_rows}
    worst = max(big, key=big.get)
    return float(np.mean([f for v in nat.values() for f in v])), big[worst], worst, len(big)


def matched(res, val, val_groups, target_fpr):
    """M4 at a matched operating point (round 6): every threshold is moved up by one common logit
    offset d (steps of 0.05) until the flag rate of the neutral validation rows that name NO group is
    <= target_fpr (the reference's, at its own thresholds); then the flag rate of the neutral rows
    that do name a group (overall and worst group with >= 20 rows) and the recall on toxic rows."""
    vp, th = res["_vp"], res["_th"]
    named = np.zeros(len(vp), dtype=bool)
    named[[r["i"] for r in val_groups]] = True
    neutral = neutral_rows(val)
    toxic = (val["m"][:, 0] > 0) & (val["y"][:, 0] >= 0.5)
    logit = np.log(th / (1 - th))
    for d in np.arange(0, 8.0, 0.05):
        t = 1 / (1 + np.exp(-(logit + d)))
        flagged = (vp >= t[None, :]).any(axis=1)
        if flagged[neutral & ~named].mean() <= target_fpr + 1e-9:
            break
    rate, worst, _, _ = natural_rates(natural_group_flags(val, val_groups, flagged))
    return dict(m4m_offset=round(float(d), 2), m4m=round(rate, 4),
                m4m_worst=round(worst, 4), m4m_recall=round(float(flagged[toxic].mean()), 4),
                no_group_fpr=round(float(flagged[neutral & ~named].mean()), 4))


def measure(model, val, idv, val_groups):
    vp, ip = predict(model, val), predict(model, idv)
    aucs = head_aucs(vp, val)
    labelled = [(val["m"][:, h] > 0, (val["y"][:, h] >= 0.5).astype(np.int64)) for h in range(len(HEADS))]
    f1_th = np.array([best_macro_f1_threshold(y[sel], vp[sel, h])[0] for h, (sel, y) in enumerate(labelled)])
    groups = np.array([c.split(":", 1)[1] for c in idv["c"]])
    frame = np.zeros(len(groups), dtype=np.int64)
    for g in np.unique(groups):
        frame[groups == g] = np.arange((groups == g).sum())
    held_flag = np.zeros(len(groups), dtype=bool)
    m3 = []
    for half in (0, 1):
        fit = frame % 2 == half
        th = constrain(f1_th.copy(), ip[fit], groups[fit])
        held_flag[~fit] = (ip[~fit] >= th[None, :]).any(axis=1)
        m3.append(np.mean([macro_f1_at(y[sel], vp[sel, h], th[h]) for h, (sel, y) in enumerate(labelled)]))
    per_group = {g: float(held_flag[groups == g].mean()) for g in np.unique(groups)}
    # M4: neutral validation rows that name a group (cda.ts namedGroups), at the full constrained thresholds.
    th = constrain(f1_th.copy(), ip, groups)
    flagged = (vp >= th[None, :]).any(axis=1)
    m4, m4_worst, m4_worst_group, m4_groups = natural_rates(natural_group_flags(val, val_groups, flagged))
    return dict(
        m1=round(float(np.mean([v["roc_auc"] for v in aucs.values()])), 4),
        val={k: round(v["roc_auc"], 4) for k, v in aucs.items()},
        m2=round(float(held_flag.mean()), 4),
        m2_worst=round(max(per_group.values()), 4),
        m2_worst_groups=sorted(g for g, v in per_group.items() if v == max(per_group.values())),
        m3=round(float(np.mean(m3)), 4),
        flag_at_05=round(float((ip >= 0.5).any(axis=1).mean()), 4),
        m4=round(m4, 4),
        m4_worst=round(m4_worst, 4),
        m4_worst_group=m4_worst_group,
        m4_groups=m4_groups,
        _vp=vp,
        _th=th,
    )


def select(names, summary_path=None, rule=6):
    """Measure checkpoints `names` (the first is the reference) and apply the rule; returns the winner."""
    val, idv = load_split("val"), load_split("identity_val")
    with open(os.path.join(WORK, "val-groups.jsonl"), encoding="utf-8") as f:
        val_groups = [json.loads(line) for line in f if line.strip()]
    results = {}
    for name in names:
        state = torch.load(os.path.join(WORK, "checkpoints", f"{name}.pt"))
        model = ToxicityTransformer(state["model"]["tok.weight"].shape[0], state["cfg"])
        model.load_state_dict(state["model"])
        results[name] = measure(model, val, idv, val_groups)
        if name == names[0]:
            target = matched(results[name], val, val_groups, 1.0)["no_group_fpr"]
        results[name].update(matched(results[name], val, val_groups, target))
        print(name, json.dumps({k: v for k, v in results[name].items() if not k.startswith("_")}), flush=True)
    ref = results[names[0]]

    def eligible(r):
        common = (r["m1"] >= ref["m1"] + 0.002 and r["m2"] <= ref["m2"] and r["m2_worst"] <= ref["m2_worst"]
                  and r["m3"] >= ref["m3"] - 0.01)
        if rule == 5:  # round 5: natural-text flags at each model's own thresholds
            return common and r["m4"] <= ref["m4"] and r["m4_worst"] <= ref["m4_worst"]
        return common and r["m4m"] <= ref["m4m"] and r["m4m_worst"] <= ref["m4m_worst"]  # round 6: matched

    ok = [n for n in names[1:] if eligible(results[n])]
    winner = max(ok, key=lambda n: results[n]["m1"]) if ok else names[0]
    print(f"rule {rule}: eligible: {ok}; selected: {winner}")
    public = {n: {k: v for k, v in r.items() if not k.startswith("_")} for n, r in results.items()}
    with open(summary_path or os.path.join(WORK, "select-summary.json"), "w") as f:
        json.dump(dict(rule=rule, reference=names[0], results=public, eligible=ok, selected=winner), f, indent=2)
    return winner


def main():
    torch.set_num_threads(int(os.environ.get("TOX_THREADS", 2)))
    args = sys.argv[1:]
    rule = 6
    if "--rule" in args:
        rule = int(args[args.index("--rule") + 1])
        del args[args.index("--rule") : args.index("--rule") + 2]
    select(args, rule=rule)


if __name__ == "__main__":
    main()
