/** The error envelope of every error answer: {"error": {type, code, message, param?, trace_id}}. */
export interface ErrorBody { type: string, code: string, message: string, param?: string, trace_id: string }

/** An answer of 4xx or 5xx, after the retries it was worth; `code` says what went wrong (docs/api.md, "Errors"). */
export class FraudApiError extends Error {
  readonly status: number
  readonly type: string
  readonly code: string
  readonly param: string | undefined
  readonly traceId: string
  /** Seconds the service asked to wait (429, 503), when it did. */
  readonly retryAfter: number | undefined

  constructor (status: number, body: ErrorBody, retryAfter?: number) {
    super(body.message)
    this.name = 'FraudApiError'
    this.status = status
    this.type = body.type
    this.code = body.code
    this.param = body.param
    this.traceId = body.trace_id
    this.retryAfter = retryAfter
  }
}

/** The request never got an answer (the connection failed or timed out) after every retry. */
export class FraudConnectionError extends Error {
  constructor (message: string, override readonly cause: unknown) {
    super(message)
    this.name = 'FraudConnectionError'
  }
}
