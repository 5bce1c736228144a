#!/usr/bin/env bash
# npm run train:toxicity-refit: refit the served classifier's five API rows (overall, insult, threat,
# identity_attack, profanity) on the encoder's frozen features (classifier_refit.py); the encoder and the
# sexism and self_harm rows keep their weights. Then thresholds, long-text windows and, as its own step,
# npm run train:toxicity-stack (the artifact id changes). Features are cached per artifact under
# .work/toxicity/refit-cache, so a second run only fits. About 15 minutes on an idle 2-core AVX2 EPYC for
# the features, seconds per fit, then evaluate.ts and the long-text windows (~7 minutes).
# Env: VIGIL_DATA_DIR, VIGIL_PYTHON, TOX_THREADS, TOX_REFIT_REPLAY, TOX_REFIT_PAIRS.
set -euo pipefail
cd "$(dirname "$0")/../.."
export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-PASSIVE}
export TOX_THREADS=${TOX_THREADS:-2}
started=$(date +%s)

echo "== 0/4 Python environment (.work/venv)"
# shellcheck source=python-env.sh
source training/toxic_transformer_v1/python-env.sh
echo "== 1/4 prepare: corpora -> splits -> token ids (.work/toxicity), unless already there; validation contrast sentences"
if [ ! -f .work/toxicity/val.jsonl ]; then npx tsx training/toxic_transformer_v1/prepare.ts ${VIGIL_DATA_DIR:+--data "$VIGIL_DATA_DIR"}; fi
if [ ! -f .work/toxicity/pairs.jsonl ]; then npx tsx training/toxic_transformer_v1/prepare-patch.ts ${VIGIL_DATA_DIR:+--data "$VIGIL_DATA_DIR"}; fi
npx tsx training/toxic_transformer_v1/write-contrast-validation.ts
echo "== 2/4 refit the five API rows on the served graph's pooled features (log: .work/toxicity/classifier-refit.log)"
"$PY" training/toxic_transformer_v1/classifier_refit.py 2>&1 | tee .work/toxicity/classifier-refit.log
STEP=3 TOTAL=4 SKIP_QUANTIZE=1
# shellcheck source=finish.sh
source training/toxic_transformer_v1/finish.sh
echo "train:toxicity-refit done in $(($(date +%s) - started)) s; next: npm run train:toxicity-stack"
