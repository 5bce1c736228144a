#!/usr/bin/env bash
# The one test command (README): installs what it needs, then runs every suite.
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1

bash scripts/setup.sh chromium ffmpeg postgresql-15

echo "== typecheck"
npx tsc --noEmit

echo "== layers: imports go down, no import cycle between folders or files"
npm run --silent check:cycles

echo "== lint and format check (Biome)"
npm run lint

echo "== dead code (knip)"
npm run knip

echo "== unit and integration tests (with the schema.ts/migrations and docs/openapi.json checks; docs/testing.md)"
npx vitest run

# The other supported Node line (docs/decisions/189-supported-node-versions.md): the unit tier again
# under Node 22, from the registry's `node` package (the unit tier's time, ~80 s on 2 cores; the tiers above ran on this machine's node).
echo "== unit tests on Node 22"
if [ "$(node -p 'process.versions.node.split(".")[0]')" = 22 ]; then
  echo "skipped: this machine's node is already $(node --version)"
else
  node22=(npx -y -p node@22 node node_modules/vitest/vitest.mjs run --project unit)
  echo "+ ${node22[*]}"
  "${node22[@]}"
fi

echo "== sexism_lasso_v1: the committed artifact reproduces metrics.json (a few seconds; needs EDOS)"
if [ -f "${VIGIL_DATA_DIR:-../shared/data}/text/edos_labelled_aggregated.csv" ]; then
  npm run --silent eval:sexism -- --reproduce
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
