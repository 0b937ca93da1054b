"""The Python client against a live service (started by test/python-client.test.ts, which passes it in FDS_*)."""

from __future__ import annotations

import http.server
import json
import os
import re
import ssl
import threading
import time
from pathlib import Path

import httpx
import pytest

from fraud_decision import FraudApiError, FraudClient, FraudConnectionError, WebhookSignatureError, verify_webhook

BASE_URL = os.environ["FDS_BASE_URL"]
KEY = os.environ["FDS_KEY"]


@pytest.fixture
def fds():
    with FraudClient(KEY, BASE_URL, initial_delay=0.01) as client:
        yield client


def test_a_method_for_every_operation_of_the_document():
    document = json.loads((Path(__file__).parents[2] / "openapi.json").read_text())
    ids = [op["operationId"] for item in document["paths"].values() for op in item.values() if isinstance(op, dict) and "operationId" in op]
    snake = [re.sub(r"(?<!^)(?=[A-Z])", "_", i).lower() for i in ids]
    assert len(ids) > 50
    assert [s for s in snake if not callable(getattr(FraudClient, s, None))] == []


def test_scores_reads_back_and_raises_typed_errors(fds):
    decision = fds.score_event(event="payment", amount=12_000, currency="EUR", user_id="u-py-1", device_fingerprint="own key kept")
    assert decision["action"] == "flag"
    transaction = fds.get_transaction(decision["trace_id"])
    assert transaction["decision"]["trace_id"] == decision["trace_id"]
    assert transaction["request"]["custom"] == {"device_fingerprint": "own key kept"}
    with pytest.raises(FraudApiError) as missing:
        fds.get_transaction("trc_nope")
    assert (missing.value.status, missing.value.code, missing.value.type) == (404, "resource_missing", "invalid_request_error")
    assert missing.value.trace_id.startswith("trc_")
    with pytest.raises(FraudApiError) as invalid:
        fds.score_event(event="payment", amount=-1)
    assert (invalid.value.status, invalid.value.code, invalid.value.param) == (400, "parameter_invalid", "amount")


def test_a_batch_with_one_bad_event(fds):
    batch = fds.score_batch([{"event": "login", "user_id": "u-py-b1"}, {"event": "payment", "amount": "ten"}, {"event": "login", "user_id": "u-py-b2"}])
    assert len(batch["data"]) == 3
    assert "action" in batch["data"][0]
    assert batch["data"][1]["error"]["param"] == "events.1.amount"


def test_a_retry_after_a_lost_answer_is_done_once():
    keys: list[str] = []
    lost = [False]

    class LosesTheFirstAnswer(httpx.HTTPTransport):
        def handle_request(self, request):
            keys.append(request.headers.get("idempotency-key", ""))
            response = super().handle_request(request)
            if not lost[0]:
                lost[0] = True
                response.read()
                raise httpx.ReadError("connection reset", request=request)
            return response

    with FraudClient(KEY, BASE_URL, initial_delay=0.01, transport=LosesTheFirstAnswer()) as lossy:
        decision = lossy.score_event(event="payment", amount=50, currency="EUR", user_id="u-py-idem")
        assert lossy.last_response.headers["idempotent-replayed"] == "true"
    assert len(keys) == 2 and keys[0] == keys[1] and len(keys[0]) == 36
    with FraudClient(KEY, BASE_URL) as fds:
        assert [t["trace_id"] for t in fds.list_transactions(user_id="u-py-idem")["data"]] == [decision["trace_id"]]
    with FraudClient(KEY, "http://127.0.0.1:9", max_retries=1, initial_delay=0.01) as nowhere:
        with pytest.raises(FraudConnectionError):
            nowhere.list_rules()


def test_rules_rollout_cases_disposition_and_every_page(fds):
    rule = fds.save_rule(id="py_big_payout", name="Big payout", expression='request.event == "payout" && request.amount > 5000.0', action="flag")
    assert (rule["object"], rule["mode"]) == ("rule", "enforce")
    with pytest.raises(FraudApiError) as refused:
        fds.start_rollout(pack="py_pack", rule_ids=["py_big_payout"], percentage=25)
    assert (refused.value.status, refused.value.code) == (409, "rollout_demotes_enforced")
    rollout = fds.start_rollout(pack="py_pack", rule_ids=["py_big_payout"], percentage=25, demote_enforced=True)
    assert (rollout["status"], rollout["mode"]) == ("running", "shadow")
    assert fds.stop_rollout("py_pack")["stopped"]["reason"] == "stop_requested"
    assert fds.promote_rollout("py_pack")["stopped"]["reason"] == "promoted"
    assert fds.get_rule("py_big_payout")["mode"] == "enforce"
    ids = [r["id"] for r in fds.list_all(fds.list_rules, limit=2)]
    assert ids == sorted(ids) and "py_big_payout" in ids and len(ids) > 2
    decision = fds.score_event(event="payment", amount=15, currency="EUR", user_id="u-py-case")
    opened = fds.create_case(trace_id=decision["trace_id"], reason="from the Python client test")
    assert opened["status"] == "open"
    closed = fds.dispose_case(opened["id"], outcome="fraud", analyst="ana@example.com")
    assert (closed["status"], closed["outcome"]) == ("closed", "fraud")


def test_creates_a_key_and_uses_it(fds):
    key = fds.create_api_key(name="score only", scopes=["score:write"])
    assert key["secret"].startswith("sk_test_")
    with FraudClient(key["secret"], BASE_URL) as scoped:
        assert scoped.score_event(event="login", user_id="u-py-key")["action"]
        with pytest.raises(FraudApiError) as refused:
            scoped.list_rules()
        assert (refused.value.status, refused.value.code) == (403, "insufficient_scope")


def test_a_429_and_waiting_as_retry_after_says():
    limited = os.environ["FDS_LIMITED_URL"]
    with FraudClient(KEY, limited, max_retries=0) as once:
        once.list_rules()
        with pytest.raises(FraudApiError) as refused:
            once.list_rules()
        assert (refused.value.status, refused.value.code) == (429, "rate_limited")
        assert refused.value.retry_after >= 1
    with FraudClient(KEY, limited, max_retries=3) as patient:
        assert patient.list_rules()["object"] == "list"


class _Receiver(http.server.BaseHTTPRequestHandler):
    received: list[tuple[bytes, str]] = []

    def do_POST(self):  # noqa: N802 (http.server's name)
        body = self.rfile.read(int(self.headers["content-length"]))
        _Receiver.received.append((body, self.headers.get("x-service-signature", "")))
        self.send_response(200)
        self.end_headers()

    def log_message(self, *_):
        pass


def _https_receiver():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Receiver)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(os.environ["FDS_RECEIVER_CERT"], os.environ["FDS_RECEIVER_KEY"])
    server.socket = context.wrap_socket(server.socket, server_side=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def _delivery(after: int, timeout: float = 20.0):
    deadline = time.time() + timeout
    while time.time() < deadline:
        for body, signature in _Receiver.received[after:]:
            if json.loads(body)["type"] == "case.created":
                return body, signature
        time.sleep(0.05)
    raise AssertionError("no case.created delivery")


def test_verifies_webhooks_from_a_real_https_receiver_during_a_rotation(fds):
    server = _https_receiver()
    try:
        url = f"https://localhost:{server.server_address[1]}/hooks"
        endpoint = fds.create_webhook_endpoint(url=url, events=["case.created"])
        fds.score_event(event="payment", amount=20_000, currency="EUR", user_id="u-py-hook")
        body, signature = _delivery(0)
        assert verify_webhook(body, signature, endpoint["secret"])["type"] == "case.created"
        for bad in [lambda: verify_webhook(body, signature, "whsec_wrong"),
                    lambda: verify_webhook(body.replace(b"case.created", b"case.closed"), signature, endpoint["secret"]),
                    lambda: verify_webhook(body, signature, endpoint["secret"], now=time.time() + 3600),
                    lambda: verify_webhook(body, None, endpoint["secret"])]:
            with pytest.raises(WebhookSignatureError):
                bad()
        rotated = fds.rotate_webhook_secret(endpoint["id"])
        before = len(_Receiver.received)
        fds.score_event(event="payment", amount=20_000, currency="EUR", user_id="u-py-hook-2")
        body, signature = _delivery(before)
        event = json.loads(body)
        assert verify_webhook(body, signature, rotated["secret"])["id"] == event["id"]
        assert verify_webhook(body, signature, endpoint["secret"])["id"] == event["id"]
        assert verify_webhook(body, signature, ["whsec_other", rotated["secret"]])["id"] == event["id"]
    finally:
        server.shutdown()
