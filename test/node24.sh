#!/usr/bin/env bash
# The unit, API and topology suites once more on Node 24 LTS, while the service runs on the machine's Node 20: the npm
# registry's `node` package carries the binary (installed once under node_modules/.node24, not saved).
set -euo pipefail
cd "$(dirname "$0")/.."
DIR=node_modules/.node24
if [ ! -x "$DIR/node_modules/.bin/node" ]; then
  npm install --no-audit --no-fund --no-save --prefix "$DIR" node@24 >/dev/null
fi
NODE24="$DIR/node_modules/.bin/node"
echo "unit and API suites on Node $("$NODE24" --version)"
exec "$NODE24" node_modules/vitest/vitest.mjs run test/unit test/api topologies
