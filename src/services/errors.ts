/** The error envelope (docs/api.md, Conventions): {"error": {type, code, message, param?, trace_id}}. */
export type ErrorType = 'invalid_request_error' | 'authentication_error' | 'permission_error' | 'rate_limit_error' | 'api_error'

const invalid = (status: number) => ({ status, type: 'invalid_request_error' }) as const

/**
 * Every error code the API answers, defined once with its HTTP status and type (as fastify's lib/errors.js
 * defines its own). The message is the call site's: it says what exactly was wrong.
 */
export const ERRORS = {
  parameter_missing: invalid(400),
  parameter_invalid: invalid(400),
  parameter_unknown: invalid(400),
  invalid_json: invalid(400),
  invalid_url: invalid(400),
  expression_too_costly: invalid(400),
  evaluation_timeout: invalid(400),
  malformed_request: invalid(400),
  batch_too_large: invalid(400),
  quota_exceeded: invalid(400),
  missing_key: { status: 401, type: 'authentication_error' },
  invalid_key: { status: 401, type: 'authentication_error' },
  key_expired: { status: 401, type: 'authentication_error' },
  key_revoked: { status: 401, type: 'authentication_error' },
  client_certificate_required: { status: 401, type: 'authentication_error' },
  client_certificate_invalid: { status: 401, type: 'authentication_error' },
  invalid_credentials: { status: 401, type: 'authentication_error' },
  session_required: { status: 401, type: 'authentication_error' },
  invalid_setup_token: { status: 401, type: 'authentication_error' },
  insufficient_scope: { status: 403, type: 'permission_error' },
  live_key_required: { status: 403, type: 'permission_error' },
  mtls_not_configured: { status: 403, type: 'permission_error' },
  csrf_failed: { status: 403, type: 'permission_error' },
  tenant_suspended: { status: 403, type: 'permission_error' },
  operator_required: { status: 403, type: 'permission_error' },
  resource_missing: invalid(404),
  method_not_allowed: invalid(405),
  request_timeout: invalid(408),
  conflict: invalid(409),
  resource_exists: invalid(409),
  resource_in_use: invalid(409),
  /** POST /v1/rules/rollout naming rules that decide now, without demote_enforced: true (docs/rules.md). */
  rollout_demotes_enforced: invalid(409),
  key_not_rotatable: invalid(409),
  endpoint_disabled: invalid(409),
  event_not_subscribed: invalid(409),
  case_closed: invalid(409),
  invalid_transition: invalid(409),
  case_note_limit: invalid(409),
  case_history_full: invalid(409),
  delivery_not_replayable: invalid(409),
  idempotency_key_in_use: invalid(409),
  body_too_large: invalid(413),
  event_too_large: invalid(413),
  url_too_long: invalid(414),
  unsupported_media_type: invalid(415),
  idempotency_key_mismatch: invalid(422),
  headers_too_large: invalid(431),
  rate_limited: { status: 429, type: 'rate_limit_error' },
  login_throttled: { status: 429, type: 'rate_limit_error' },
  internal_error: { status: 500, type: 'api_error' },
  not_confirmed: { status: 503, type: 'api_error' },
  storage_unavailable: { status: 503, type: 'api_error' },
  rules_worker_busy: { status: 503, type: 'api_error' },
  cell_unavailable: { status: 503, type: 'api_error' },
  /** Any other 4xx fastify itself raises, with fastify's status. */
  invalid_request: invalid(400)
} as const satisfies Record<string, { status: number, type: ErrorType }>

export type ErrorCode = keyof typeof ERRORS

export class ApiError extends Error {
  readonly statusCode: number
  readonly type: ErrorType

  /** `status` only for invalid_request, which carries the status fastify gave; `retryAfterS` sets Retry-After. */
  constructor (readonly code: ErrorCode, message: string, readonly param?: string, status?: number, readonly retryAfterS?: number) {
    super(message)
    this.statusCode = status ?? ERRORS[code].status
    this.type = ERRORS[code].type
  }
}

export const notFound = (what: string, id: string) =>
  new ApiError('resource_missing', `No such ${what}: '${id}'`, 'id')
