import { FraudConnectionError } from './errors.js'

export interface RetryOptions {
  /** Retries after the first attempt (default 2). */
  maxRetries: number
  /** The first wait when the service gives no Retry-After, doubled each time, with jitter (default 500 ms). */
  initialDelayMs: number
  /** No wait is longer (default 20 s, Retry-After included). */
  maxDelayMs: number
}

/** Answers worth another try: rate limited, or the change not confirmed in time / storage unavailable. */
const RETRYABLE = new Set([429, 503])

const sleep = (ms: number) => new Promise(resolve => setTimeout(resolve, ms))

/** How long to wait before attempt `n` (0 = the first retry): Retry-After when given, else backoff with jitter. */
export function retryDelayMs (attempt: number, retryAfter: string | null, options: RetryOptions): number {
  const asked = retryAfter === null ? NaN : Number(retryAfter)
  const wait = Number.isFinite(asked) && asked >= 0 ? asked * 1000 : options.initialDelayMs * 2 ** attempt * (0.5 + Math.random() / 2)
  return Math.min(wait, options.maxDelayMs)
}

/**
 * A fetch that sends a request again on 429, 503 and network errors, honouring Retry-After. Each attempt sends
 * the same request (headers included), so a POST keeps its Idempotency-Key and the service does it once.
 */
export function retryingFetch (send: (request: Request) => Promise<Response>, options: RetryOptions): (request: Request) => Promise<Response> {
  return async request => {
    for (let attempt = 0; ; attempt++) {
      const last = attempt >= options.maxRetries
      let response: Response
      try {
        response = await send(last ? request : request.clone())
      } catch (err) {
        if (last) throw new FraudConnectionError(`${request.method} ${new URL(request.url).pathname}: no answer after ${attempt + 1} attempts`, err)
        await sleep(retryDelayMs(attempt, null, options))
        continue
      }
      if (last || !RETRYABLE.has(response.status)) return response
      await response.body?.cancel()
      await sleep(retryDelayMs(attempt, response.headers.get('retry-after'), options))
    }
  }
}
