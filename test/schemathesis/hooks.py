"""Schemathesis hooks of run.sh: make the generated requests behave like one careful client, nothing more.

1. A fresh Idempotency-Key per request. Schemathesis draws header values from the schema, so the same short
   key ("0", "00") comes back for many different requests, and the service rightly answers the second one
   422 idempotency_key_mismatch (or replays the first answer). A real client sends a new key for a new
   request, so every key of an allowed length (1..255) is replaced by a UUID; out-of-range keys (the
   negative tests of the header) are sent as generated.
2. The run's own API key stays usable. The keys that exist when the run starts (the bootstrap key run.sh
   passes as the bearer token, and the data directory's first sandbox key) are listed in FDS_PROTECTED_KEY_IDS;
   a generated POST /v1/keys/{id}/revoke of one of them is sent for a key that does not exist instead (404),
   since revoking the run's credentials would turn every later request into a 401. Keys the run creates
   itself are revoked as generated.

And one fix of the tooling itself, not of what is sent: `ast.parse` runs under a lock. Hypothesis describes a
filter's lambda by parsing its source file, and CPython's AST constructor keeps its recursion depth in
interpreter-wide state (python/cpython#106905), so the two workers of run.sh parsing at once can fail with
"SystemError: AST constructor recursion depth mismatch", an error of the run (seen on 3.11) and not of the service.
"""
import ast
import os
import threading
import uuid

import schemathesis

_ast_parse = ast.parse
_ast_lock = threading.Lock()


def _parse_one_at_a_time(*args, **kwargs):
    with _ast_lock:
        return _ast_parse(*args, **kwargs)


ast.parse = _parse_one_at_a_time

PROTECTED_KEY_IDS = {k for k in os.environ.get("FDS_PROTECTED_KEY_IDS", "").split(",") if k}


@schemathesis.hook
def before_call(context, case, **kwargs):
    headers = case.headers or {}
    for name in list(headers):
        if name.lower() == "idempotency-key":
            value = headers[name]
            if isinstance(value, str) and 1 <= len(value) <= 255:
                headers[name] = f"st-{uuid.uuid4()}"
    if case.operation.method.upper() == "POST" and case.operation.path == "/v1/keys/{id}/revoke":
        params = case.path_parameters or {}
        if params.get("id") in PROTECTED_KEY_IDS:
            params["id"] = "key_schemathesis_protected"
