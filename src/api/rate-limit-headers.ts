import type { FastifyReply } from 'fastify'
import type { RateDecision } from '../services/rate-limit.js'

/**
 * The X-RateLimit-* headers of a response (docs/access.md#rate-limits): the sustained rate, whole tokens left,
 * the unix time (s) the bucket is full again; Retry-After (s) when the request was refused.
 */
export function reportRateLimit (reply: FastifyReply, limit: RateDecision): void {
  void reply.header('x-ratelimit-limit', limit.rate)
  void reply.header('x-ratelimit-remaining', limit.remaining)
  void reply.header('x-ratelimit-reset', Math.ceil(limit.resetMs / 1000))
  if (!limit.allowed) void reply.header('retry-after', Math.max(1, Math.ceil(limit.retryAfterMs / 1000)))
}
