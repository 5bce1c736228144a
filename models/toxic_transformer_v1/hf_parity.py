#!/usr/bin/python3
"""Checks that a train.py checkpoint IS a Hugging Face ElectraForSequenceClassification: loads best.pt
into `transformers` (where installed, e.g. on the GPU machine) and compares logits with train.py's own
module on random inputs with padding.  Usage: python3 hf_parity.py WORK_DIR"""
import json
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import train  # noqa: E402
from transformers import ElectraConfig, ElectraForSequenceClassification  # noqa: E402

work = sys.argv[1]
cfg = json.load(open(os.path.join(work, "hf_config.json")))
summary = json.load(open(os.path.join(work, "train-summary.json")))
state = torch.load(os.path.join(work, "best.pt"), map_location="cpu")
ours = train.ElectraForSequenceClassification(cfg["vocab_size"], summary["cfg"]).eval()
ours.load_state_dict(state)
hf = ElectraForSequenceClassification(ElectraConfig(**cfg)).eval()
missing, unexpected = hf.load_state_dict(state, strict=False)
# HF keeps a position_ids buffer; anything else missing would be a real mismatch.
missing = [k for k in missing if not k.endswith("position_ids")]
ids = torch.randint(5, cfg["vocab_size"], (4, 20))
mask = torch.ones_like(ids)
mask[1, 12:] = 0
mask[3, 3:] = 0
with torch.no_grad():
    a = ours(ids, mask, torch.zeros_like(ids))
    b = hf(input_ids=ids, attention_mask=mask, token_type_ids=torch.zeros_like(ids)).logits
diff = (a - b).abs().max().item()
print(json.dumps({"missing": missing, "unexpected": list(unexpected), "max_abs_logit_diff": diff}))
sys.exit(0 if not missing and not unexpected and diff < 1e-4 else 1)
