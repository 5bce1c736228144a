"""What travels to the GPU machine for the teacher, and how it is rebuilt there.

The GPU machine reaches no registry and takes at most 64 MiB of working tree per call, so the
teacher's pretrained weights and the prepared rows travel packed (pack_for_device.sh):

  weights-pack SRC_DIR DST_DIR     fp32 safetensors -> int8 per output row + fp32 row scales (every
                                   float matrix of 64k entries or more), fp16 for the rest; unused
                                   tensors (the MPNet pooler, position_ids) are left out. Copies the
                                   config and tokenizer files.
  weights-unpack SRC_DIR DST_DIR   the reverse: a standard fp32 Hugging Face folder (model.safetensors)
  weights-check ORIG_DIR DEQ_DIR   mean-pooled sentence embeddings of both on a few sentences
                                   (cosine per sentence), to show the int8 copy is the same encoder
  rows WORK_DIR DST_DIR [--limit-train N --limit-val N]
                                   the text, labels, masks, corpus and Jigsaw flag of every row of
                                   train/val/identity_val/contrast_val/noun_val/sexism_dev (.jsonl, as
                                   prepare.ts wrote them), without the MiniLM token ids; and
                                   rows-meta.json with each file's row count and text hash, which the
                                   student checks before it reads the teacher's logits
  text-hash FILE                   the hash of a .jsonl file's texts (the "t" fields, in order)

Needs numpy and safetensors (torch and transformers only for weights-check).
"""
import argparse
import gzip
import hashlib
import json
import os
import shutil
import sys

import numpy as np

FILES = ["train", "val", "identity_val", "contrast_val", "noun_val", "sexism_dev"]
TOKENIZER_FILES = ["config.json", "tokenizer.json", "tokenizer_config.json", "special_tokens_map.json", "vocab.txt"]
# Tensors a sequence classifier built on this encoder never reads.
DROP = ("pooler.", "embeddings.position_ids")
QUANT_MIN = 65536
SCALE = ".__int8_row_scale"


def weights_pack(src, dst):
    from safetensors.numpy import load_file, save_file

    os.makedirs(dst, exist_ok=True)
    w = load_file(os.path.join(src, "model.safetensors"))
    out, n_int8, n_half = {}, 0, 0
    for k, v in w.items():
        if k.startswith(DROP) or k.endswith(DROP):
            continue
        if v.dtype.kind == "f" and v.ndim == 2 and v.size >= QUANT_MIN:
            a = v.astype(np.float32)
            scale = np.maximum(np.abs(a).max(axis=1), 1e-12) / 127.0
            out[k] = np.clip(np.rint(a / scale[:, None]), -127, 127).astype(np.int8)
            out[k + SCALE] = scale.astype(np.float32)
            n_int8 += v.size
        elif v.dtype.kind == "f":
            out[k] = v.astype(np.float16)
            n_half += v.size
        else:
            out[k] = v
    save_file(out, os.path.join(dst, "weights-int8.safetensors"))
    for f in TOKENIZER_FILES:
        if os.path.exists(os.path.join(src, f)):
            shutil.copy(os.path.join(src, f), os.path.join(dst, f))
    print(f"weights-pack: {n_int8 / 1e6:.1f} M int8 + {n_half / 1e6:.2f} M fp16 parameters -> "
          f"{os.path.getsize(os.path.join(dst, 'weights-int8.safetensors')) / 1e6:.1f} MB")


def weights_unpack(src, dst):
    from safetensors.numpy import load_file, save_file

    os.makedirs(dst, exist_ok=True)
    w = load_file(os.path.join(src, "weights-int8.safetensors"))
    out = {}
    for k, v in w.items():
        if k.endswith(SCALE):
            continue
        if v.dtype == np.int8:
            out[k] = v.astype(np.float32) * w[k + SCALE][:, None]
        elif v.dtype.kind == "f":
            out[k] = v.astype(np.float32)
        else:
            out[k] = v
    save_file(out, os.path.join(dst, "model.safetensors"), metadata={"format": "pt"})
    for f in TOKENIZER_FILES:
        if os.path.exists(os.path.join(src, f)):
            shutil.copy(os.path.join(src, f), os.path.join(dst, f))
    print(f"weights-unpack: {sum(v.size for v in out.values()) / 1e6:.1f} M parameters -> {dst}")


def weights_check(orig, deq):
    import torch
    from transformers import AutoModel, AutoTokenizer

    texts = [
        "The printer jammed again this morning.",
        "You are an absolute idiot and everyone knows it.",
        "Immigrants opened most of the shops on this street.",
        "I will find where you live.",
        "what a lovely day for a walk by the river",
        "Stack the kindling by the stove before it rains.",
    ]
    tok = AutoTokenizer.from_pretrained(orig, local_files_only=True)
    batch = tok(texts, padding=True, return_tensors="pt")
    embs = []
    for d in (orig, deq):
        model = AutoModel.from_pretrained(d, local_files_only=True, dtype=torch.float32).eval()
        with torch.no_grad():
            h = model(**batch).last_hidden_state
        m = batch["attention_mask"].unsqueeze(-1).float()
        embs.append(torch.nn.functional.normalize((h * m).sum(1) / m.sum(1), dim=-1))
    cos = (embs[0] * embs[1]).sum(-1)
    sim = embs[0] @ embs[0].T
    sim_q = embs[1] @ embs[1].T
    print(f"weights-check: cosine(fp32, int8) per sentence min {cos.min():.5f} mean {cos.mean():.5f}; "
          f"largest change in a pairwise similarity {float((sim - sim_q).abs().max()):.5f}")


def text_hash(texts):
    h = hashlib.sha256()
    for t in texts:
        h.update(t.encode("utf-8"))
        h.update(b"\n")
    return h.hexdigest()


def read_jsonl(path):
    if not os.path.exists(path) and os.path.exists(path + ".gz"):
        path += ".gz"
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def rows(work, dst, limit_train=0, limit_val=0):
    os.makedirs(dst, exist_ok=True)
    meta = {}
    for name in FILES:
        path = os.path.join(work, f"{name}.jsonl")
        if not (os.path.exists(path) or os.path.exists(path + ".gz")):
            print(f"rows: {name}.jsonl missing, skipped")
            continue
        rs = read_jsonl(path)
        limit = limit_train if name == "train" else limit_val
        if limit:
            rs = rs[:limit]
        if any("t" not in r for r in rs):
            print(f"rows: {name}.jsonl has rows without text (prepare.ts before texts were written), skipped")
            continue
        with open(os.path.join(dst, f"{name}.jsonl"), "w", encoding="utf-8") as f:
            for r in rs:
                f.write(json.dumps({"t": r["t"], "y": r["y"], "m": r["m"], "c": r.get("c", ""), "j": r.get("j", 0)},
                                   ensure_ascii=False) + "\n")
        meta[name] = {"rows": len(rs), "text_sha256": text_hash(r["t"] for r in rs)}
        print(f"rows: {name} {len(rs)}")
    with open(os.path.join(dst, "rows-meta.json"), "w", encoding="utf-8") as f:
        json.dump(meta, f, indent=2)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    for c in ("weights-pack", "weights-unpack", "weights-check"):
        s = sub.add_parser(c)
        s.add_argument("src")
        s.add_argument("dst")
    s = sub.add_parser("rows")
    s.add_argument("work")
    s.add_argument("dst")
    s.add_argument("--limit-train", type=int, default=0)
    s.add_argument("--limit-val", type=int, default=0)
    s = sub.add_parser("text-hash")
    s.add_argument("file")
    a = p.parse_args()
    if a.cmd == "weights-pack":
        weights_pack(a.src, a.dst)
    elif a.cmd == "weights-unpack":
        weights_unpack(a.src, a.dst)
    elif a.cmd == "weights-check":
        weights_check(a.src, a.dst)
    elif a.cmd == "rows":
        rows(a.work, a.dst, a.limit_train, a.limit_val)
    elif a.cmd == "text-hash":
        print(text_hash(r["t"] for r in read_jsonl(a.file)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
