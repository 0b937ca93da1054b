import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { App } from '../../src/app/app.js'
import { ruleTriggeredEvents, ruleTriggeredId } from './rule-triggered.js'
import { auth, eventually, startTestApp } from '../../test/support/app.js'
import { type ServiceEvent, parseEvent } from '../../src/domain/records/events.js'

describe('rule-triggered topology', () => {
  it('derives one event per enforce and shadow hit with ids stable across replays', () => {
    const base = { trace_id: 'trc_1', tenant_id: 'ten_1', livemode: false, created_ms: 1_795_000_000_000, ruleset_version: 'rs_4' }
    const events = ruleTriggeredEvents({ ...base, decision: { action: 'flag', rules: ['r_a'], shadow: { action: 'reject', rules: ['r_b'] } } } as never)
    expect(events).toEqual([
      { id: ruleTriggeredId('trc_1', 'r_a', 'enforce'), type: 'rule.triggered', created: 1_795_000_000, livemode: false, data: { trace_id: 'trc_1', rule_id: 'r_a', mode: 'enforce', action: 'flag', ruleset_version: 'rs_4' } },
      { id: ruleTriggeredId('trc_1', 'r_b', 'shadow'), type: 'rule.triggered', created: 1_795_000_000, livemode: false, data: { trace_id: 'trc_1', rule_id: 'r_b', mode: 'shadow', action: 'reject', ruleset_version: 'rs_4' } }
    ])
    expect(ruleTriggeredId('trc_1', 'r_a', 'enforce')).toMatch(/^evt_[0-9a-f]{24}$/)
    expect(ruleTriggeredId('trc_1', 'r_a', 'enforce')).not.toBe(ruleTriggeredId('trc_1', 'r_a', 'shadow'))
    expect(ruleTriggeredEvents({ ...base, decision: { action: 'approve', rules: [] } } as never)).toEqual([])
  })

  let app: App
  beforeAll(async () => { app = await startTestApp() })
  afterAll(async () => { await app.close() })

  it('publishes rule.triggered on the events topic for a decision that hit rules', async () => {
    const post = (url: string, payload: object) => app.server.inject({ method: 'POST', url, headers: auth(), payload })
    await post('/v1/rules', { id: 'big_payout', name: 'big', expression: 'request.amount > 100.0', action: 'flag' })
    await post('/v1/rules', { id: 'payout_shadow', name: 'shadow', expression: 'request.event == "payout"', action: 'reject', mode: 'shadow' })
    const decision = (await post('/v1/score', { event: 'payout', amount: 500, user_id: 'u-evt' })).json()
    const seen: ServiceEvent[] = []
    const sub = await app.log.subscribe({ group: 'test-events', topics: [app.topics.events], onBatch: async records => { for (const r of records) seen.push(parseEvent(r.value)) } })
    try {
      const mine = await eventually(() => {
        const hits = seen.filter(e => e.type === 'rule.triggered' && e.data.trace_id === decision.trace_id)
        return hits.length >= 2 ? hits : undefined
      }, 10000, 'rule.triggered events')
      expect(mine.map(e => [e.type, e.data.rule_id, e.data.mode]).sort()).toEqual([['rule.triggered', 'big_payout', 'enforce'], ['rule.triggered', 'payout_shadow', 'shadow']])
      expect(mine.every(e => e.livemode === false)).toBe(true)
    } finally {
      await sub.close()
    }
  })
})
