import type { FastifyInstance } from 'fastify'
import type { Core } from '../../services/core.js'
import { newId } from '../../domain/ids.js'
import { invalidListItem } from '../../domain/rules/lists.js'
import { signalResource } from '../../domain/signals.js'
import { ApiError } from '../../services/errors.js'
import { publishChange } from '../../services/publish-change.js'
import { signalRecord, signalSubject, type SignalChange } from '../../domain/records/signals.js'
interface SignalBody { type: 'sim_swap' | 'ip_reputation', user_id?: string, confidence?: number, ip?: string, score?: number | null, observed_at?: number }

const missing = (param: string) => new ApiError('parameter_missing', `Missing required parameter: '${param}'.`, param)

/** RFC 3986 IPv4address and IPv6address (what Node's isIP takes, zone ids aside), built from RFC 3986's grammar. */
const IPV4 = '(?:(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])'
const IPV6 = (() => {
  const h16 = '[0-9A-Fa-f]{1,4}'
  const ls32 = `(?:${h16}:${h16}|${IPV4})`
  /** [ *n( h16 ":" ) h16 ] before the "::" */
  const head = (n: number) => `(?:(?:${h16}:){0,${n}}${h16})?`
  /** n( h16 ":" ) */
  const tail = (n: number) => `(?:${h16}:){${n}}`
  return `(?:${[
    `${tail(6)}${ls32}`,
    `::${tail(5)}${ls32}`,
    ...[0, 1, 2, 3].map(n => `${head(n)}::${tail(4 - n)}${ls32}`),
    `${head(4)}::${ls32}`,
    `${head(5)}::${h16}`,
    `${head(6)}::`
  ].join('|')})`
})()

/**
 * An IP reputation entry as invalidListItem({item_type: 'ip'}) takes it: an IPv4 or IPv6 address, or a CIDR
 * range (a prefix length of 1 to 3 digits, at most 32 or 128).
 */
const ipOrRangeSchema = {
  type: 'string',
  minLength: 1,
  maxLength: 64,
  anyOf: [
    { format: 'ipv4' },
    { format: 'ipv6' },
    { pattern: `^${IPV4}/(?:0{0,2}[0-9]|0?[12][0-9]|0?3[0-2])$` },
    { pattern: `^${IPV6}/(?:0{0,2}[0-9]|0?[1-9][0-9]|1[01][0-9]|12[0-8])$` }
  ]
} as const

/**
 * POST /v1/signals: report a signal change: a SIM swap for a user (`confidence` 0..1, 0 clears it) or an
 * entry of the tenant's IP reputation list (`ip` address or CIDR, `score` 0..1 = ip_reputation_v3, null
 * removes it). Published on the `signals` topic (feeds may write there directly), applied on every instance
 * (the next score sees it) and announced as a `signal.updated` event.
 */
export function signalRoutes (app: FastifyInstance, core: Pick<Core, 'audit' | 'clock' | 'log' | 'signals' | 'topics'>): void {
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
          ip: ipOrRangeSchema,
          score: { type: ['number', 'null'], minimum: 0, maximum: 1 },
          observed_at: { type: 'integer', minimum: 0 }
        },
        // What each type needs: sim_swap a user and a confidence, ip_reputation an address (or range) and a score.
        allOf: [
          { if: { properties: { type: { const: 'sim_swap' } } }, then: { required: ['user_id', 'confidence'] } },
          { if: { properties: { type: { const: 'ip_reputation' } } }, then: { required: ['ip', 'score'] } }
        ]
      }
    }
  }, async request => {
    const p = request.caller
    const b = request.body
    const base = { change_id: newId('sig'), tenant_id: p.tenant, mode: p.mode, at_ms: b.observed_at === undefined ? core.clock() : b.observed_at * 1000, source: p.actor }
    let change: SignalChange
    if (b.type === 'sim_swap') {
      if (b.user_id === undefined) throw missing('user_id')
      if (b.confidence === undefined) throw missing('confidence')
      change = { ...base, type: 'sim_swap', user_id: b.user_id, confidence: b.confidence }
    } else {
      if (b.ip === undefined) throw missing('ip')
      if (b.score === undefined) throw missing('score')
      const invalid = invalidListItem({ item_type: 'ip' }, b.ip)
      if (invalid !== undefined) throw new ApiError('parameter_invalid', `'ip' ${invalid}.`, 'ip')
      change = { ...base, type: 'ip_reputation', ip: b.ip, score: b.score }
    }
    await publishChange(core.log, core.topics.signals, core.signals, change.change_id, signalRecord(change))
    await core.audit.record({ tenant_id: p.tenant, mode: p.mode, actor: p.actor, action: 'signal.reported', object_type: 'signal', object_id: signalSubject(change), trace_id: request.id, data: signalResource(change) })
    return signalResource(change)
  })
}
