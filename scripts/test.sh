#!/usr/bin/env bash
# The one test command (README): installs what it needs, then runs every suite.
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1

bash scripts/setup.sh chromium ffmpeg postgresql-15

echo "== typecheck"
npx tsc --noEmit

echo "== layers: no import cycle between folders of lib/"
npm run --silent check:cycles

echo "== lint and format check (Biome)"
npm run lint

echo "== dead code (knip)"
npm run knip

echo "== unit and integration tests (with the schema.ts/migrations and docs/openapi.json checks; docs/testing.md)"
npx vitest run

echo "== sexism_lasso_v1: the committed artifact reproduces metrics.json (a few seconds; needs EDOS)"
if [ -f "${VIGIL_DATA_DIR:-../shared/data}/text/edos_labelled_aggregated.csv" ]; then
  npx tsx models/sexism_lasso_v1/evaluate.ts --reproduce
else
  echo "skipped: EDOS not found (set VIGIL_DATA_DIR)"
fi

echo "== production build"
npm run build

echo "== HTTP contract tests (against the production server)"
npx vitest run --config tests/contract/vitest.config.ts

echo "== browser tests (Playwright in Debian's Chromium)"
npx playwright test -c tests/e2e/playwright.config.ts

echo "== database tests against a real PostgreSQL 15"
bash scripts/test-postgres.sh
