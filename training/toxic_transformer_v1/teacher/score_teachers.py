"""Validation measures of one teacher file or of the mean of several (what TOX_TEACHER would distil
from), on the CPU, from the logits gpu-step.sh brought back: the same measures train_teacher.py writes
per seed (validation AUC per head and mean, Jigsaw and DynaHate AUC, EDOS dev sexism AUC, identity and
noun-form flag rates and the contrast stand-in at F1 thresholds).

  .work/venv/bin/python training/toxic_transformer_v1/teacher/score_teachers.py teacher-s1.npz [teacher-s2.npz ...]

Reads the labels from TOX_WORK_DIR (default .work/toxicity) and checks each file's row counts and text
hashes against those files first.
"""
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import train as student  # noqa: E402
from payload import read_jsonl, text_hash  # noqa: E402
from train_teacher import measures  # noqa: E402

NAMES = ["val", "identity_val", "contrast_val", "noun_val", "sexism_dev"]


def main(paths):
    data, hashes = {}, {}
    for n in NAMES:
        path = os.path.join(student.WORK, f"{n}.jsonl")
        if os.path.exists(path) or os.path.exists(path + ".gz"):
            data[n] = student.read_rows(f"{n}.jsonl")
            recs = read_jsonl(path)
            hashes[n] = text_hash(r.get("t", "") for r in recs) if all("t" in r for r in recs) else None
        else:
            data[n] = []
    logits = {n: [] for n in NAMES}
    for p in paths:
        z = np.load(p)
        meta = json.loads(str(z["meta"]))["rows_meta"]
        for n in NAMES:
            if not data[n]:
                continue
            got = meta.get(n)
            if got is None:  # the teacher was packed without this file (no texts then): not scored
                print(f"{p} has no {n} logits; {n} not scored", file=sys.stderr)
                data[n], logits[n] = [], []
                continue
            if got["rows"] != len(data[n]) or (hashes[n] and got["text_sha256"] != hashes[n]):
                raise SystemExit(f"{p}: {n} does not match {student.WORK}/{n}.jsonl")
            logits[n].append(z[n].astype(np.float32))
    mean = {n: (np.mean(v, axis=0) if v else np.zeros((0, len(student.HEADS)), np.float32)) for n, v in logits.items()}
    res = measures(data, mean)
    print(json.dumps({"files": paths, **res}, indent=2))


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
