#!/usr/bin/env bash
# Install what Vigil needs on a fresh Debian machine: npm dependencies from the lockfile, jemalloc,
# and the Debian packages the test suites use. Safe to re-run; it only installs what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

# libjemalloc2 always: `npm start` preloads jemalloc when it is installed (lower RSS under load,
# docs/decisions/115-face-memory-and-allocator.md); the arguments are what the caller needs on top.
apt_packages=(libjemalloc2 "$@")
missing=()
for pkg in "${apt_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing Debian packages: ${missing[*]}"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# Install from the lockfile when node_modules is missing or older than it. Not `npm ci`: the
# lockfile does not list next's macOS/Windows SWC builds (the registry mirror it was made from lacks them),
# and `npm ci` rejects it as out of sync; `npm install` keeps every locked version and skips them.
# onnxruntime-node's postinstall would download CUDA libraries (it fails offline, and the CPU
# binary ships inside the package). Three guards, each enough on its own: package.json's
# `allowScripts` denial (npm 11), `.npmrc`'s onnxruntime-node-install=skip (read by the package's
# installer under any npm) and this variable (docs/decisions/100-install-scripts.md).
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: npm install (from package-lock.json)"
  ONNXRUNTIME_NODE_INSTALL=skip npm install --no-audit --no-fund
fi
