import type { FastifyInstance } from 'fastify'
import type { Core } from '../../app.js'
import { newId } from '../../ids.js'
import { invalidListItem } from '../../rules/lists.js'
import { signalKey, signalResource, signalSubject, type SignalChange } from '../../signals/types.js'
import { ApiError } from '../errors.js'
import { publishChange } from '../publish.js'

interface SignalBody { type: 'sim_swap' | 'ip_reputation', user_id?: string, confidence?: number, ip?: string, score?: number | null, observed_at?: number }

const missing = (param: string) => new ApiError(400, 'invalid_request_error', 'parameter_missing', `Missing required parameter: '${param}'.`, param)

/**
 * POST /v1/signals: report a signal change: a SIM swap for a user (`confidence` 0..1, 0 clears it) or an
 * entry of the tenant's IP reputation list (`ip` address or CIDR, `score` 0..1 = ip_reputation_v3, null
 * removes it). Published on the `signals` topic (feeds may write there directly), applied on every instance
 * (the next score sees it) and announced as a `signal.updated` event.
 */
export function signalRoutes (app: FastifyInstance, core: Core): void {
  app.post<{ Body: SignalBody }>('/v1/signals', {
    config: { scope: 'signals:write' },
    schema: {
      body: {
        type: 'object',
        additionalProperties: false,
        required: ['type'],
        properties: {
          type: { type: 'string', enum: ['sim_swap', 'ip_reputation'] },
          user_id: { type: 'string', minLength: 1, maxLength: 256 },
          confidence: { type: 'number', minimum: 0, maximum: 1 },
          ip: { type: 'string', minLength: 1, maxLength: 64 },
          score: { type: ['number', 'null'], minimum: 0, maximum: 1 },
          observed_at: { type: 'integer', minimum: 0 }
        }
      }
    }
  }, async request => {
    const p = request.principal!
    const b = request.body
    const base = { change_id: newId('sig'), tenant_id: p.tenant, mode: p.mode, at_ms: b.observed_at === undefined ? core.clock() : b.observed_at * 1000, source: p.key.id }
    let change: SignalChange
    if (b.type === 'sim_swap') {
      if (b.user_id === undefined) throw missing('user_id')
      if (b.confidence === undefined) throw missing('confidence')
      change = { ...base, type: 'sim_swap', user_id: b.user_id, confidence: b.confidence }
    } else {
      if (b.ip === undefined) throw missing('ip')
      if (b.score === undefined) throw missing('score')
      const invalid = invalidListItem({ item_type: 'ip' }, b.ip)
      if (invalid !== undefined) throw new ApiError(400, 'invalid_request_error', 'parameter_invalid', `'ip' ${invalid}.`, 'ip')
      change = { ...base, type: 'ip_reputation', ip: b.ip, score: b.score }
    }
    await publishChange(core.log, core.topics.signals, core.signals, change.change_id, { key: signalKey(change), value: Buffer.from(JSON.stringify(change)), headers: { tenant_id: p.tenant } })
    await core.audit.record({ tenant_id: p.tenant, mode: p.mode, actor: p.key.id, action: 'signal.reported', object_type: 'signal', object_id: signalSubject(change), trace_id: request.id, data: signalResource(change) })
    return signalResource(change)
  })
}
