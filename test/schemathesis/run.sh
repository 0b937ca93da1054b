#!/usr/bin/env bash
# Bounded schemathesis run against the service's own OpenAPI document (/v1/openapi.json): every operation,
# positive and negative data, all conformance checks, a fixed seed and a fixed number of examples per
# operation, so the run is reproducible and bounded (about a minute on 2 cores, plus the install and the
# build). Exits non-zero on any failure.
#
# The service runs from the build (npm run build; node dist/src/app/main.js) on the embedded transport, in a
# temporary DATA_DIR, with a known sandbox bootstrap key. Schemathesis is installed from PyPI at a pinned
# version into test/schemathesis/.venv (gitignored).
#
# Environment (all optional):
#   SCHEMATHESIS_MAX_EXAMPLES  examples per operation and phase (default 100)
#   SCHEMATHESIS_SEED          hypothesis seed (default 20260901)
#   SCHEMATHESIS_SKIP_BUILD=1  use an existing build instead of running npm run build
#   SCHEMATHESIS_DIST          the build directory (default dist)
#   SCHEMATHESIS_REPORT_DIR    where the JUnit report and the service log go (default test/schemathesis/.report)
#   Extra arguments are passed to `schemathesis run` (e.g. --include-path-regex '^/v1/rules').
set -euo pipefail
cd "$(dirname "$0")/../.."

SCHEMATHESIS_VERSION=4.32.5
HERE=test/schemathesis
VENV=$HERE/.venv
MAX_EXAMPLES=${SCHEMATHESIS_MAX_EXAMPLES:-100}
SEED=${SCHEMATHESIS_SEED:-20260901}
DIST=${SCHEMATHESIS_DIST:-dist}
REPORT_DIR=${SCHEMATHESIS_REPORT_DIR:-$HERE/.report}
KEY=sk_test_schemathesis0000000000000001

# 1. schemathesis, pinned, in a venv under the repo (reused when it already has the pinned version).
if [ "$("$VENV/bin/schemathesis" --version 2>/dev/null || true)" != "schemathesis, version $SCHEMATHESIS_VERSION" ]; then
  rm -rf "$VENV"
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION"
fi

# 2. The service: built, on a free port, embedded transport, a fresh data directory, no gRPC listener.
if [ "${SCHEMATHESIS_SKIP_BUILD:-}" != "1" ]; then npm run build --silent; fi
DATA_DIR=$(mktemp -d "${TMPDIR:-/tmp}/fds-schemathesis-XXXXXX")
PORT=$("$VENV/bin/python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
mkdir -p "$REPORT_DIR"
LOG=$REPORT_DIR/service.log
SERVICE_PID=
stop_service () {
  if [ -n "$SERVICE_PID" ] && kill -0 "$SERVICE_PID" 2>/dev/null; then
    kill -TERM "$SERVICE_PID" 2>/dev/null || true
    for _ in $(seq 1 100); do kill -0 "$SERVICE_PID" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$SERVICE_PID" 2>/dev/null || true
  fi
  rm -rf "$DATA_DIR"
}
trap stop_service EXIT

# A generous rate limit: the run must exercise the operations, not the key's budget (429 stays documented and
# is covered by the tests). Webhook endpoints schemathesis creates point at made-up hosts: short timeouts.
env DATA_DIR="$DATA_DIR" PORT="$PORT" HOST=127.0.0.1 TRANSPORT=embedded GRPC_PORT= MTLS_PORT= METRICS_PORT= \
  BOOTSTRAP_API_KEYS="$KEY" LOG_LEVEL=warn RELAY_LINGER_MS=1 \
  RATE_LIMIT_PER_SECOND=100000 RATE_LIMIT_BURST=100000 WEBHOOK_TIMEOUT_MS=500 \
  node "$DIST/src/app/main.js" >"$LOG" 2>&1 &
SERVICE_PID=$!

BASE=http://127.0.0.1:$PORT
for i in $(seq 1 300); do
  if "$VENV/bin/python" -c "import urllib.request, sys; urllib.request.urlopen(sys.argv[1], timeout=1)" "$BASE/healthz" 2>/dev/null; then break; fi
  if ! kill -0 "$SERVICE_PID" 2>/dev/null; then echo "the service exited during start-up:" >&2; cat "$LOG" >&2; exit 1; fi
  if [ "$i" = 300 ]; then echo "the service did not answer /healthz within 30 s:" >&2; cat "$LOG" >&2; exit 1; fi
  sleep 0.1
done

# The keys that exist now are the run's credentials: hooks.py keeps generated requests from revoking them.
FDS_PROTECTED_KEY_IDS=$("$VENV/bin/python" - "$BASE" "$KEY" <<'PY'
import json, sys, urllib.request
req = urllib.request.Request(sys.argv[1] + "/v1/keys?limit=100", headers={"Authorization": "Bearer " + sys.argv[2]})
print(",".join(k["id"] for k in json.load(urllib.request.urlopen(req, timeout=5))["data"]))
PY
)
export FDS_PROTECTED_KEY_IDS
# The bearer token of schemathesis.toml ([auth.openapi.apiKey]): sent as Authorization: Bearer on every
# request, and known to schemathesis as the apiKey security scheme, so its auth checks (ignored_auth,
# missing_required_header) can leave it out or spoil it on purpose.
export FDS_SCHEMATHESIS_KEY=$KEY
# Hypothesis keeps its files (a Unicode table cache) here instead of ./.hypothesis.
export HYPOTHESIS_STORAGE_DIRECTORY=$HERE/.work/hypothesis

# 3. The run. Every check (the conformance checks, negative and positive data, auth, the stateful ones);
# phases examples, coverage, fuzzing and stateful, each bounded by --max-examples; a fixed seed; two workers
# (CI has 2 cores). --continue-on-failure: an operation's first failure does not end its examples, so one
# failing check does not hide what the others would find. About a minute here at 100 examples. `timeout`
# is a guard against a hang, not the budget: the bounded run ends well before it.
set +e
timeout --signal=INT --kill-after=30 600 \
  "$VENV/bin/schemathesis" --config-file "$HERE/schemathesis.toml" run "$BASE/v1/openapi.json" \
    --checks all \
    --mode all \
    --phases examples,coverage,fuzzing,stateful \
    --max-examples "$MAX_EXAMPLES" \
    --seed "$SEED" \
    --generation-database none \
    --workers 2 \
    --continue-on-failure \
    --request-timeout 10 \
    --no-color \
    --report junit --report-dir "$REPORT_DIR" \
    "$@"
STATUS=$?
set -e

# The run is only as good as its credentials: say so if they stopped working on the way.
if ! "$VENV/bin/python" -c "import urllib.request, sys; urllib.request.urlopen(urllib.request.Request(sys.argv[1], headers={'Authorization': 'Bearer ' + sys.argv[2]}), timeout=5)" "$BASE/v1/keys" "$KEY" 2>/dev/null; then
  echo "WARNING: the run's API key no longer works (revoked or expired during the run); later requests were 401s." >&2
fi
if [ "$STATUS" != 0 ]; then
  echo "schemathesis: failures (exit $STATUS); service log: $LOG" >&2
fi
exit "$STATUS"
