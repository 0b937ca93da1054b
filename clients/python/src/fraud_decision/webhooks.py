"""Checks the signature of a webhook delivery (``X-Service-Signature``)."""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import time
from collections.abc import Iterable
from typing import Any

from .errors import WebhookSignatureError

SIGNATURE_HEADER = "X-Service-Signature"
_HEX64 = re.compile(r"^[0-9a-f]{64}$")


def verify_webhook(raw_body: bytes | str, header: str | None, secret: str | Iterable[str], tolerance: int = 300, now: float | None = None) -> dict[str, Any]:
    """The event of a delivery whose signature is good, or WebhookSignatureError.

    The header is ``t=<unix s>,v1=<hex>[,v1=<hex>]`` (two v1 during a secret rotation). Good means: HMAC-SHA256
    of ``"<t>.<raw body>"`` with ``secret`` (or one of several, while a rotation overlaps) equals one v1,
    compared in constant time, and t is within ``tolerance`` seconds of now. Pass the body exactly as received.
    """
    if not header:
        raise WebhookSignatureError(f"no {SIGNATURE_HEADER} header")
    timestamp: int | None = None
    signatures: list[str] = []
    for part in header.split(","):
        key, _, value = part.strip().partition("=")
        if key == "t" and value.isdigit():
            timestamp = int(value)
        elif key == "v1" and _HEX64.match(value):
            signatures.append(value)
    if timestamp is None:
        raise WebhookSignatureError("the signature has no timestamp")
    age = abs((time.time() if now is None else now) - timestamp)
    if age > tolerance:
        raise WebhookSignatureError(f"the signature is {int(age)} s old, over the tolerance of {tolerance} s")
    body = raw_body.encode() if isinstance(raw_body, str) else raw_body
    for s in [secret] if isinstance(secret, str) else list(secret):
        expected = hmac.new(s.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()
        if any(hmac.compare_digest(expected, candidate) for candidate in signatures):
            return json.loads(body)
    raise WebhookSignatureError("no signature matches the secret")
