"""The client: one method per operation of the API (its operationId in snake_case), typed by models.py (a
request body's fields as keyword arguments, its answer as the TypedDict of its schema)."""

from __future__ import annotations

import random
import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any, TypeVar
from urllib.parse import quote

import httpx
from typing_extensions import Unpack

from . import models as m
from .errors import FraudApiError, FraudConnectionError

T = TypeVar("T")
RETRYABLE = {429, 503}


def _p(value: str) -> str:
    return quote(value, safe="")


class FraudClient:
    """A client of the service, over httpx.

    Every POST carries an ``Idempotency-Key`` (a UUID, or the one given), so a retried POST is done once.
    429, 503 and network errors are retried ``max_retries`` times, waiting as ``Retry-After`` says or with
    backoff and jitter. An error answer raises FraudApiError (``status``, ``code``, ``param``, ``trace_id``);
    no answer raises FraudConnectionError.
    """

    def __init__(self, api_key: str, base_url: str = "http://localhost:3000", *, max_retries: int = 2, initial_delay: float = 0.5,
                 max_delay: float = 20.0, timeout: float = 10.0, transport: httpx.BaseTransport | None = None) -> None:
        self.max_retries = max_retries
        self.initial_delay = initial_delay
        self.max_delay = max_delay
        self._http = httpx.Client(base_url=base_url, timeout=timeout, transport=transport, headers={"Authorization": f"Bearer {api_key}"})

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> FraudClient:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    # The transport: one request, retried.

    def _delay(self, attempt: int, retry_after: str | None) -> float:
        try:
            asked = float(retry_after) if retry_after is not None else None
        except ValueError:
            asked = None
        wait = asked if asked is not None and asked >= 0 else self.initial_delay * 2 ** attempt * (0.5 + random.random() / 2)
        return min(wait, self.max_delay)

    def request(self, method: str, path: str, *, params: dict[str, Any] | None = None, json: Any = None, idempotency_key: str | None = None) -> Any:
        """Sends one request (retried as the class says) and returns its JSON body."""
        headers = {}
        if method == "POST":
            headers["Idempotency-Key"] = idempotency_key or str(uuid.uuid4())
        query = None if params is None else {k: v for k, v in params.items() if v is not None}
        for attempt in range(self.max_retries + 1):
            last = attempt == self.max_retries
            try:
                response = self._http.request(method, path, params=query, json=json, headers=headers)
            except httpx.TransportError as err:
                if last:
                    raise FraudConnectionError(f"{method} {path}: no answer after {attempt + 1} attempts") from err
                time.sleep(self._delay(attempt, None))
                continue
            if response.status_code in RETRYABLE and not last:
                time.sleep(self._delay(attempt, response.headers.get("retry-after")))
                continue
            self.last_response = response
            if response.is_success:
                return response.json()
            try:
                error = response.json()["error"]
            except (ValueError, KeyError, TypeError):
                error = {"message": f"HTTP {response.status_code}", "trace_id": response.headers.get("x-trace-id", "")}
            retry_after = response.headers.get("retry-after")
            raise FraudApiError(response.status_code, error, float(retry_after) if retry_after else None)
        raise AssertionError("unreachable")

    def list_all(self, list_method: Callable[..., Any], **params: Any) -> Iterator[Any]:
        """Every item of a list, page after page: ``for c in fds.list_all(fds.list_cases, status="open")``."""
        after = None
        while True:
            page = list_method(**params, **({} if after is None else {"starting_after": after}))
            yield from page["data"]
            if not page["has_more"] or not page["data"]:
                return
            last = page["data"][-1]
            after = last.get("id", last.get("alias"))

    # Scoring and transactions

    def score_event(self, *, idempotency_key: str | None = None, **event: Unpack[m.ScoreRequest]) -> m.Decision:
        return self.request("POST", "/v1/score", json=event, idempotency_key=idempotency_key)

    def score_batch(self, events: list[dict[str, Any]], *, idempotency_key: str | None = None) -> m.BatchResult:
        return self.request("POST", "/v1/score/batch", json={"events": events}, idempotency_key=idempotency_key)

    def list_transactions(self, **query: Any) -> m.TransactionList:
        return self.request("GET", "/v1/transactions", params=query)

    def get_transaction(self, trace_id: str) -> m.Transaction:
        return self.request("GET", f"/v1/transactions/{_p(trace_id)}")

    # Rules, rollouts, lists, risk settings

    def save_rule(self, **rule: Unpack[m.RuleInput]) -> m.Rule:
        return self.request("POST", "/v1/rules", json=rule)

    def list_rules(self, **query: Any) -> m.RuleList:
        return self.request("GET", "/v1/rules", params=query)

    def get_rule(self, rule_id: str) -> m.Rule:
        return self.request("GET", f"/v1/rules/{_p(rule_id)}")

    def start_rollout(self, **rollout: Unpack[m.RolloutInput]) -> m.Rollout:
        return self.request("POST", "/v1/rules/rollout", json=rollout)

    def list_rollouts(self, **query: Any) -> m.RolloutList:
        return self.request("GET", "/v1/rules/rollout", params=query)

    def get_rollout(self, pack: str) -> m.Rollout:
        return self.request("GET", f"/v1/rules/rollout/{_p(pack)}")

    def stop_rollout(self, pack: str) -> m.Rollout:
        return self.request("POST", f"/v1/rules/rollout/{_p(pack)}/stop")

    def promote_rollout(self, pack: str) -> m.Rollout:
        return self.request("POST", f"/v1/rules/rollout/{_p(pack)}/promote")

    def backtest_rule(self, rule_id: str, **body: Any) -> m.Backtest:
        return self.request("POST", f"/v1/rules/{_p(rule_id)}/backtest", json=body)

    def validate_rule(self, expression: str) -> m.ExpressionCheck:
        return self.request("POST", "/v1/rules/validate", json={"expression": expression})

    def list_rule_hits(self, **query: Any) -> m.RuleHits:
        return self.request("GET", "/v1/rules/hits", params=query)

    def list_lists(self, **query: Any) -> m.ValueListList:
        return self.request("GET", "/v1/lists", params=query)

    def create_list(self, **value_list: Unpack[m.ValueListInput]) -> m.ValueList:
        return self.request("POST", "/v1/lists", json=value_list)

    def get_list(self, alias: str) -> m.ValueList:
        return self.request("GET", f"/v1/lists/{_p(alias)}")

    def delete_list(self, alias: str) -> m.Deleted:
        return self.request("DELETE", f"/v1/lists/{_p(alias)}")

    def add_list_item(self, alias: str, value: str) -> m.ValueList:
        return self.request("POST", f"/v1/lists/{_p(alias)}/items", json={"value": value})

    def delete_list_item(self, alias: str, value: str) -> m.ValueList:
        return self.request("DELETE", f"/v1/lists/{_p(alias)}/items/{_p(value)}")

    def get_risk_settings(self) -> m.RiskSettings:
        return self.request("GET", "/v1/risk_settings")

    def update_risk_settings(self, **settings: Any) -> m.RiskSettings:
        return self.request("POST", "/v1/risk_settings", json=settings)

    def get_overview(self, **query: Any) -> m.Overview:
        return self.request("GET", "/v1/overview", params=query)

    # Cases and overrides

    def create_case(self, **case: Any) -> m.Case:
        return self.request("POST", "/v1/cases", json=case)

    def list_cases(self, **query: Any) -> m.CaseList:
        return self.request("GET", "/v1/cases", params=query)

    def get_case(self, case_id: str) -> m.Case:
        return self.request("GET", f"/v1/cases/{_p(case_id)}")

    def assign_case(self, case_id: str, assignee: str) -> m.Case:
        return self.request("POST", f"/v1/cases/{_p(case_id)}/assign", json={"assignee": assignee})

    def dispose_case(self, case_id: str, **disposition: Unpack[m.Disposition]) -> m.Case:
        return self.request("POST", f"/v1/cases/{_p(case_id)}/disposition", json=disposition)

    def add_case_note(self, case_id: str, body: str) -> m.Case:
        return self.request("POST", f"/v1/cases/{_p(case_id)}/notes", json={"body": body})

    def dispose_cases(self, **dispositions: Unpack[m.BulkDispositionInput]) -> m.BulkDisposition:
        return self.request("POST", "/v1/cases/dispositions", json=dispositions)

    def get_case_summary(self, **query: Any) -> m.CaseSummary:
        return self.request("GET", "/v1/cases/summary", params=query)

    def create_override(self, **override: Unpack[m.OverrideInput]) -> m.Override:
        return self.request("POST", "/v1/overrides", json=override)

    def list_overrides(self, **query: Any) -> m.OverrideList:
        return self.request("GET", "/v1/overrides", params=query)

    def get_override(self, override_id: str) -> m.Override:
        return self.request("GET", f"/v1/overrides/{_p(override_id)}")

    def delete_override(self, override_id: str) -> m.Deleted:
        return self.request("DELETE", f"/v1/overrides/{_p(override_id)}")

    def report_signal(self, **signal: Any) -> m.Signal:
        return self.request("POST", "/v1/signals", json=signal)

    # Webhooks

    def create_webhook_endpoint(self, **endpoint: Unpack[m.WebhookEndpointInput]) -> m.WebhookEndpoint:
        return self.request("POST", "/v1/webhooks", json=endpoint)

    def list_webhook_endpoints(self, **query: Any) -> m.WebhookEndpointList:
        return self.request("GET", "/v1/webhooks", params=query)

    def get_webhook_endpoint(self, endpoint_id: str) -> m.WebhookEndpoint:
        return self.request("GET", f"/v1/webhooks/{_p(endpoint_id)}")

    def update_webhook_endpoint(self, endpoint_id: str, **changes: Any) -> m.WebhookEndpoint:
        return self.request("POST", f"/v1/webhooks/{_p(endpoint_id)}", json=changes)

    def delete_webhook_endpoint(self, endpoint_id: str) -> m.Deleted:
        return self.request("DELETE", f"/v1/webhooks/{_p(endpoint_id)}")

    def rotate_webhook_secret(self, endpoint_id: str) -> m.WebhookEndpoint:
        return self.request("POST", f"/v1/webhooks/{_p(endpoint_id)}/rotate_secret")

    def list_webhook_deliveries(self, endpoint_id: str, **query: Any) -> m.WebhookDeliveryList:
        return self.request("GET", f"/v1/webhooks/{_p(endpoint_id)}/deliveries", params=query)

    def get_webhook_delivery(self, endpoint_id: str, delivery_id: str) -> m.WebhookDelivery:
        return self.request("GET", f"/v1/webhooks/{_p(endpoint_id)}/deliveries/{_p(delivery_id)}")

    def replay_webhook_delivery(self, endpoint_id: str, delivery_id: str) -> m.WebhookDelivery:
        return self.request("POST", f"/v1/webhooks/{_p(endpoint_id)}/deliveries/{_p(delivery_id)}/replay")

    def replay_webhook_deliveries(self, endpoint_id: str, **replay: Unpack[m.WebhookDeliveriesReplayInput]) -> m.WebhookDeliveryList:
        return self.request("POST", f"/v1/webhooks/{_p(endpoint_id)}/deliveries/replay", json=replay)

    # Keys, audit, mutual TLS, dashboard users, health

    def create_api_key(self, **key: Unpack[m.ApiKeyInput]) -> m.ApiKey:
        return self.request("POST", "/v1/keys", json=key)

    def list_api_keys(self, **query: Any) -> m.ApiKeyList:
        return self.request("GET", "/v1/keys", params=query)

    def get_api_key(self, key_id: str) -> m.ApiKey:
        return self.request("GET", f"/v1/keys/{_p(key_id)}")

    def rotate_api_key(self, key_id: str) -> m.ApiKey:
        return self.request("POST", f"/v1/keys/{_p(key_id)}/rotate")

    def revoke_api_key(self, key_id: str) -> m.ApiKey:
        return self.request("POST", f"/v1/keys/{_p(key_id)}/revoke")

    def list_audit_entries(self, **query: Any) -> m.AuditEntryList:
        return self.request("GET", "/v1/audit", params=query)

    def set_client_ca(self, certificate: str) -> m.ClientCa:
        return self.request("POST", "/v1/mtls/client_ca", json={"certificate": certificate})

    def get_client_ca(self) -> m.ClientCa:
        return self.request("GET", "/v1/mtls/client_ca")

    def create_dashboard_user(self, **user: Any) -> m.DashboardUser:
        return self.request("POST", "/v1/dashboard_users", json=user)

    def list_dashboard_users(self, **query: Any) -> m.DashboardUserList:
        return self.request("GET", "/v1/dashboard_users", params=query)

    def get_dashboard_user(self, user_id: str) -> m.DashboardUser:
        return self.request("GET", f"/v1/dashboard_users/{_p(user_id)}")

    def update_dashboard_user(self, user_id: str, **changes: Any) -> m.DashboardUser:
        return self.request("POST", f"/v1/dashboard_users/{_p(user_id)}", json=changes)

    def get_health(self) -> m.Health:
        return self.request("GET", "/healthz")

    def get_readiness(self) -> m.Readiness:
        return self.request("GET", "/readyz")
