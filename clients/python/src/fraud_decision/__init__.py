"""Python client of the fraud decision service."""

from . import models
from .client import FraudClient
from .errors import FraudApiError, FraudConnectionError, WebhookSignatureError
from .webhooks import SIGNATURE_HEADER, verify_webhook

__all__ = ["FraudClient", "FraudApiError", "FraudConnectionError", "WebhookSignatureError", "verify_webhook", "SIGNATURE_HEADER", "models"]
