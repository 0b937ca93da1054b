"""Errors the client raises."""

from __future__ import annotations


class FraudApiError(Exception):
    """An answer of 4xx or 5xx, after the retries it was worth; ``code`` says what went wrong (docs/api.md, "Errors")."""

    def __init__(self, status: int, error: dict, retry_after: float | None = None) -> None:
        super().__init__(error.get("message", f"HTTP {status}"))
        self.status = status
        self.type: str = error.get("type", "api_error")
        self.code: str = error.get("code", f"http_{status}")
        self.message: str = error.get("message", f"HTTP {status}")
        self.param: str | None = error.get("param")
        self.trace_id: str = error.get("trace_id", "")
        self.retry_after = retry_after


class FraudConnectionError(Exception):
    """The request never got an answer (the connection failed or timed out) after every retry."""


class WebhookSignatureError(Exception):
    """A webhook delivery whose signature does not check out: refuse it."""
