#!/usr/bin/env bash
# npm run train:toxicity-self-harm: refit the served model's `self_harm` output on its own frozen
# features (self_harm_head.py), after train:toxicity-patch and before train:toxicity-stack. Every other
# output keeps its weights. Tried, not served (docs/decisions/214): it catches more plain-words intent
# but flags a figurative phrase the served output does not. About 15 minutes on an idle 2-core AVX2 EPYC: prepare (only when its
# outputs are missing) -> written rows (TS) -> features and the fit (Python, ~7 min) -> thresholds and
# metrics -> long-text windows. Then run npm run train:toxicity-stack: the graph's artifact id changed,
# so the lexical stack is refitted to it (its n-gram fits come from the cache).
# Env: VIGIL_DATA_DIR, VIGIL_PYTHON, TOX_THREADS, TOX_SELF_HARM_ORDINARY.
set -euo pipefail
cd "$(dirname "$0")/../.."
export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-PASSIVE}
export TOX_THREADS=${TOX_THREADS:-2}
started=$(date +%s)

echo "== 0/5 Python environment (.work/venv)"
# shellcheck source=python-env.sh
source training/toxic_transformer_v1/python-env.sh
echo "== 1/5 prepare: corpora -> splits -> token ids (.work/toxicity), unless already there"
if [ ! -f .work/toxicity/val.jsonl ]; then npx tsx training/toxic_transformer_v1/prepare.ts ${VIGIL_DATA_DIR:+--data "$VIGIL_DATA_DIR"}; fi
if [ ! -f .work/toxicity/selfharm_val.jsonl ]; then npx tsx training/toxic_transformer_v1/prepare-patch.ts ${VIGIL_DATA_DIR:+--data "$VIGIL_DATA_DIR"}; fi
echo "== 2/5 written self-harm rows (self-harm-head.json)"
npx tsx training/toxic_transformer_v1/prepare-self-harm-head.ts
echo "== 3/5 refit the self_harm output on the served graph's pooled features (log: .work/toxicity/self-harm-head.log)"
"$PY" training/toxic_transformer_v1/self_harm_head.py 2>&1 | tee .work/toxicity/self-harm-head.log
STEP=4 TOTAL=5 SKIP_QUANTIZE=1
export TOX_SELF_HARM_LOOKALIKE_GUARD=1
# shellcheck source=finish.sh
source training/toxic_transformer_v1/finish.sh
echo "train:toxicity-self-harm done in $(($(date +%s) - started)) s; next: npm run train:toxicity-stack"
