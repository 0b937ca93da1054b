import { afterAll, describe, expect, it } from 'vitest'
import type { App } from '../src/app.js'
import { auth, eventually, startTestApp } from './support/app.js'
import { kafkaBrokersOrSkip, uniqueName } from './support/kafka.js'
import { readDecisionStream } from './support/stream.js'
import { KafkaEventLog } from '../src/eventlog/kafka.js'

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
    const { getTransaction } = await import('../src/state/transactions.js')
    const scopeA = { tenant: a.identity.defaultTenant, mode: 'test' as const }
    const last = await eventually(() => getTransaction(b.state, scopeA, traces[19]!), 30000, 'B to materialize A\'s decisions')
    expect(last.decision.trace_id).toBe(traces[19])
    await eventually(() => b.materializer.applied >= 20 || undefined, 30000, 'all 20 applied')
    expect(a.materializer.applied).toBe(0)

    // Velocity on B now includes A's 20 events for the same tenant/user.
    const view = await b.velocity.view(scopeA, { event: 'payment', user_id: 'shared-user' }, Date.now())
    const features: Record<string, number> = {}
    view.features(features)
    view.release()
    expect(features.user_count_1h).toBe(20)
    expect(features.user_amount_24h).toBe(200)

    const reader = new KafkaEventLog({ brokers: brokers!, clientId: 'test-reader' })
    try {
      const stream = await readDecisionStream(reader, a.decisionsTopic, uniqueName('reader'), traces)
      expect(stream.missing).toEqual([])
      expect(stream.byTrace.size).toBe(20)
    } finally {
      await reader.close()
    }
    // A served its GET from its own store.
    const res = await a.server.inject({ method: 'GET', url: `/v1/transactions/${traces[0]}`, headers: auth() })
    expect(res.statusCode).toBe(200)
  })
})
