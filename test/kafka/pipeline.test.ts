import { afterAll, describe, expect, it } from 'vitest'
import type { App } from '../../src/app/app.js'
import { auth, eventually, startTestApp } from '../support/app.js'
import { kafkaBrokersOrSkip, uniqueName } from '../support/kafka.js'
import { readDecisionStream } from '../support/stream.js'
import { KafkaEventLog } from '../../src/stream/eventlog/kafka.js'
import { MODEL_NEEDS } from '../../src/domain/features/model-needs.js'

const brokers = await kafkaBrokersOrSkip('decision pipeline on Kafka')

describe.skipIf(brokers === undefined)('decisions stream on real Kafka, two API instances', () => {
  const apps: App[] = []
  afterAll(async () => { await Promise.all(apps.map(a => a.close())) })

  it('publishes decisions of instance A, and instance B materializes them (transactions and velocity)', async () => {
    const env = { TRANSPORT: 'kafka', KAFKA_BROKERS: brokers!.join(','), TOPIC_PREFIX: `${uniqueName('t')}.`, DECISIONS_PARTITIONS: '3' }
    const a = await startTestApp(env)
    apps.push(a)
    const b = await startTestApp({ ...env })
    apps.push(b)
    expect(a.identity.originId).not.toBe(b.identity.originId)

    const traces: string[] = []
    for (let i = 0; i < 20; i++) {
      const res = await a.server.inject({ method: 'POST', url: '/v1/score', headers: auth(), payload: { event: 'payment', amount: 10, user_id: 'shared-user' } })
      expect(res.statusCode).toBe(200)
      traces.push(res.json().trace_id)
    }
    // B's API keys belong to B's own default tenant; read the record straight from B's store by A's tenant.
    const { getTransaction } = await import('../../src/stores/transactions.js')
    const scopeA = { tenant: a.identity.defaultTenant, mode: 'test' as const }
    const last = await eventually(() => getTransaction(b.state, scopeA, traces[19]!), 30000, 'B to materialize A\'s decisions')
    expect(last.decision.trace_id).toBe(traces[19])
    await eventually(() => b.materializer.processed >= 20 || undefined, 30000, 'all 20 applied')
    expect(a.materializer.processed).toBe(0)

    // Velocity on B now includes A's 20 events for the same tenant/user.
    const view = await b.velocity.view(scopeA, { event: 'payment', user_id: 'shared-user' }, Date.now(), MODEL_NEEDS)
    const features: Record<string, number> = {}
    view.features(features)
    view.release()
    expect(features.user_count_1h).toBe(20)
    expect(features.user_sum_24h).toBe(200)

    const reader = new KafkaEventLog({ brokers: brokers!, clientId: 'test-reader' })
    try {
      const stream = await readDecisionStream(reader, a.decisionsTopic, uniqueName('reader'), traces)
      expect(stream.missing).toEqual([])
      expect(stream.byTrace.size).toBe(20)
    } finally {
      await reader.close()
    }
    // Rules changed through A reach B; changes proposed on both at once each get their own version.
    const ruleA = await a.server.inject({ method: 'POST', url: '/v1/rules', headers: auth(), payload: { id: 'from_a', name: 'a', expression: 'request.amount > 1.0', action: 'flag' } })
    expect(ruleA.json().ruleset_version).toBe('rs_1')
    const onB = await eventually(async () => {
      const active = await b.controlPlane.activeRuleset(scopeA)
      return active.number >= 1 ? active : undefined
    }, 30000, 'B to see A\'s rule')
    expect(onB.ruleset.rules.map(r => r.id)).toContain('from_a')
    // B's key belongs to B's default tenant; propose on A's tenant through B's control plane directly.
    const [x, y] = await Promise.all([
      a.controlPlane.propose(scopeA, 'key_a', { type: 'rule.upserted', rule_id: 'race_a' }, rs => ({ ...rs, rules: [...rs.rules, { ...rs.rules[0]!, id: 'race_a' }] }), Date.now()),
      b.controlPlane.propose(scopeA, 'key_b', { type: 'rule.upserted', rule_id: 'race_b' }, rs => ({ ...rs, rules: [...rs.rules, { ...rs.rules[0]!, id: 'race_b' }] }), Date.now())
    ])
    expect(new Set([x.number, y.number])).toEqual(new Set([2, 3]))
    const final = await eventually(async () => {
      const active = await a.controlPlane.activeRuleset(scopeA)
      return active.number === 3 ? active : undefined
    }, 30000, 'both proposals applied')
    expect(final.ruleset.rules.map(r => r.id)).toEqual(expect.arrayContaining(['from_a', 'race_a', 'race_b']))
    expect((await b.controlPlane.activeRuleset(scopeA)).ruleset.version).toBe('rs_3')

    // A served its GET from its own store.
    const res = await a.server.inject({ method: 'GET', url: `/v1/transactions/${traces[0]}`, headers: auth() })
    expect(res.statusCode).toBe(200)
  })
})
