#!/usr/bin/env bash
# npm run train:toxicity-student: distil the served toxic_transformer_v1 (the teacher) into a 3-layer
# student on the CPU (student.py), then serve it as any toxic_transformer_v1 run is served (finish.sh)
# and refit its lexical stack. The teacher is read from git (TOX_STUDENT_TEACHER_COMMIT, default HEAD),
# so a rerun distils the same teacher even after the student has replaced it in models/.
# prepare (TS) -> patch rows (TS) -> student.py (Python/torch; checkpoints and resumes) -> int8 weights ->
# thresholds and metrics -> long-text windows -> lexical stack.
# Env: VIGIL_DATA_DIR, VIGIL_PYTHON, TOX_THREADS, TOX_STUDENT_TEACHER_COMMIT and student.py's TOX_STUDENT_* settings.
set -euo pipefail
cd "$(dirname "$0")/../.."
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1
export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-PASSIVE}
export TOX_THREADS=${TOX_THREADS:-2}
TEACHER_COMMIT=${TOX_STUDENT_TEACHER_COMMIT:-HEAD}
TEACHER=.work/toxicity/teacher-model
started=$(date +%s)

echo "== 0/7 Python environment (.work/venv) and the teacher (commit $TEACHER_COMMIT -> $TEACHER)"
# shellcheck source=python-env.sh
source training/toxic_transformer_v1/python-env.sh
mkdir -p "$TEACHER/onnx"
git show "$TEACHER_COMMIT:models/toxic_transformer_v1/config.json" > "$TEACHER/config.json"
for f in $(git ls-tree --name-only "$TEACHER_COMMIT" models/toxic_transformer_v1/onnx/ | xargs -n1 basename); do
  git show "$TEACHER_COMMIT:models/toxic_transformer_v1/onnx/$f" > "$TEACHER/onnx/$f"
done

echo "== 1/7 prepare: corpora -> splits -> token ids (.work/toxicity)"
npx tsx training/toxic_transformer_v1/prepare.ts ${VIGIL_DATA_DIR:+--data "$VIGIL_DATA_DIR"}
echo "== 2/7 patch rows: written contrast rows, self-harm tweets, counterfactual identity pairs"
npx tsx training/toxic_transformer_v1/prepare-patch.ts ${VIGIL_DATA_DIR:+--data "$VIGIL_DATA_DIR"}
echo "== 3/7 distil the teacher into the student + export .work/toxicity/model.onnx (log: .work/toxicity/student.log)"
TOX_STUDENT_TEACHER="$TEACHER" "$PY" training/toxic_transformer_v1/student.py 2>&1 | grep --line-buffered -v 'Warning' | tee .work/toxicity/student.log
STEP=4 TOTAL=7
# shellcheck source=finish.sh
source training/toxic_transformer_v1/finish.sh
echo "== 7/7 lexical stack on the student's logits"
npx tsx training/toxic_transformer_v1/train-stack.ts
echo "train:toxicity-student done in $(($(date +%s) - started)) s"
