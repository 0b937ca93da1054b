import { afterAll, describe, expect, it } from 'vitest'
import type { App } from '../../src/app/app.js'
import { auth, eventually, startTestApp, tempDir } from '../support/app.js'
import { startTopology, stopService, type ServiceProcess } from '../support/child.js'
import { kafkaBrokersOrSkip, uniqueName } from '../support/kafka.js'
import { Receiver } from '../support/receiver.js'
import { webhookEnv } from '../contract/webhooks.flow.js'
import { type ServiceEvent, parseEvent } from '../../src/domain/records/events.js'

const brokers = await kafkaBrokersOrSkip('standalone topology on Kafka')

describe.skipIf(brokers === undefined)('case-opener running alone on real Kafka', () => {
  let api: App | undefined
  let topology: ServiceProcess | undefined
  afterAll(async () => {
    if (topology !== undefined) await stopService(topology)
    await api?.close()
  })

  it('opens and dispositions cases for an API that runs no topology, across a SIGKILL of the topology process', async () => {
    const env = { TRANSPORT: 'kafka', KAFKA_BROKERS: brokers!.join(','), TOPIC_PREFIX: `${uniqueName('s')}.`, DEFAULT_TENANT_ID: 'ten_standalone' }
    api = await startTestApp({ ...env, TOPOLOGIES: 'none' })
    const topologyEnv = { ...env, DATA_DIR: tempDir('fds-topology-'), LOG_LEVEL: 'info' }
    topology = await startTopology('case-opener', topologyEnv)
    const call = (method: 'GET' | 'POST', url: string, payload?: object) => api!.server.inject({ method, url, headers: auth(), ...(payload === undefined ? {} : { payload }) })

    const flagged = (await call('POST', '/v1/score', { event: 'payout', amount: 50_000, user_id: 'u-alone' })).json()
    expect(flagged.action).toBe('flag')
    const opened = await eventually(async () => (await call('GET', `/v1/cases?trace_id=${flagged.trace_id}`)).json().data[0], 60000, 'case opened by the topology process')
    expect(opened).toMatchObject({ status: 'open', opened_by: 'rule' })
    expect((await call('POST', `/v1/cases/${opened.id}/assign`, { assignee: 'ana' })).json().status).toBe('in_review')

    await stopService(topology, 'SIGKILL')
    topology = await startTopology('case-opener', topologyEnv)
    const closed = await call('POST', `/v1/cases/${opened.id}/disposition`, { outcome: 'safe', analyst: 'ana' })
    expect(closed.json()).toMatchObject({ status: 'closed', outcome: 'safe', assignee: 'ana' })
    expect(closed.json().history.map((h: { type: string }) => h.type)).toEqual(['opened', 'assigned', 'dispositioned'])
  })
})

describe.skipIf(brokers === undefined)('webhook-delivery running alone on real Kafka', () => {
  let api: App | undefined
  let delivery: ServiceProcess | undefined
  let receiver: Receiver | undefined
  afterAll(async () => {
    if (delivery !== undefined) await stopService(delivery)
    await api?.close()
    await receiver?.down()
  })

  it('delivers every event pending at a SIGKILL of the delivery process once it is back', async () => {
    receiver = await Receiver.start()
    const env = { TRANSPORT: 'kafka', KAFKA_BROKERS: brokers!.join(','), TOPIC_PREFIX: `${uniqueName('d')}.`, DEFAULT_TENANT_ID: 'ten_standalone_hooks', ...webhookEnv(receiver) }
    api = await startTestApp({ ...env, TOPOLOGIES: 'rule-triggered' })
    const deliveryEnv = { ...env, DATA_DIR: tempDir('fds-delivery-'), LOG_LEVEL: 'info' }
    delivery = await startTopology('webhook-delivery', deliveryEnv)
    const call = (method: 'GET' | 'POST', url: string, payload?: object) => api!.server.inject({ method, url, headers: auth(), ...(payload === undefined ? {} : { payload }) })

    const endpoint = (await call('POST', '/v1/webhooks', { url: receiver.url, events: ['rule.triggered'] })).json()
    await receiver.down()
    const traces: string[] = []
    for (let i = 0; i < 4; i++) traces.push((await call('POST', '/v1/score', { event: 'payment', amount: 20_000, user_id: `u-kill-${i}` })).json().trace_id)
    await eventually(async () => {
      const pending = (await call('GET', `/v1/webhooks/${endpoint.id}/deliveries?status=pending`)).json().data as Array<{ attempts_count: number }>
      return pending.length === 4 && pending.every(d => d.attempts_count >= 2) ? true : undefined
    }, 60000, 'deliveries retrying')
    await stopService(delivery, 'SIGKILL')
    await receiver.up()
    delivery = await startTopology('webhook-delivery', deliveryEnv)
    await eventually(() => traces.every(t => receiver!.accepted(r => r.event.data.trace_id === t).size === 1) || undefined, 60000, 'all delivered after the restart')
    const succeeded = await eventually(async () => {
      const list = (await call('GET', `/v1/webhooks/${endpoint.id}/deliveries?status=succeeded`)).json().data as Array<{ attempts: Array<{ error: string | null }> }>
      return list.length === 4 ? list : undefined
    }, 30000, 'succeeded deliveries listed on the API instance')
    expect(succeeded.every(d => d.attempts.length >= 2 && d.attempts[0]!.error !== null && d.attempts[d.attempts.length - 1]!.error === null)).toBe(true)
  })
})

describe.skipIf(brokers === undefined)('feedback, async-scorer and signal-updater running alone on real Kafka', () => {
  let api: App | undefined
  const processes: ServiceProcess[] = []
  afterAll(async () => {
    for (const p of processes) await stopService(p)
    await api?.close()
  })

  it('publishes a model the API scores with, and score.async / signal.updated events, from topology processes', async () => {
    const env = { TRANSPORT: 'kafka', KAFKA_BROKERS: brokers!.join(','), TOPIC_PREFIX: `${uniqueName('m')}.`, DEFAULT_TENANT_ID: 'ten_adaptive', MODEL_PUBLISH_INTERVAL_MS: '200', LABEL_MATURITY_DAYS: '1' }
    // The first decisions happen 3 days back by the service's clock too: labels mature by when it recorded them.
    let clockOffsetMs = -3 * 86_400_000
    api = await startTestApp({ ...env, TOPOLOGIES: 'none' }, { clock: () => Date.now() + clockOffsetMs })
    for (const name of ['feedback', 'async-scorer', 'signal-updater', 'case-opener']) processes.push(await startTopology(name, { ...env, DATA_DIR: tempDir('fds-topology-'), LOG_LEVEL: 'info' }))
    const events: ServiceEvent[] = []
    const sub = await api.log.subscribe({ group: uniqueName('events'), topics: [api.topics.events], onBatch: async rs => { for (const r of rs) events.push(parseEvent(r.value)) } })
    const call = (method: 'GET' | 'POST', url: string, payload?: object) => api!.server.inject({ method, url, headers: auth(), ...(payload === undefined ? {} : { payload }) })
    const now = Math.floor(Date.now() / 1000)
    try {
      // a rollout that the feedback process's guard stops: every payment hits it
      expect((await call('POST', '/v1/rules', { id: 'every_payment', name: 'Every payment', expression: 'request.event == "payment"', action: 'flag', mode: 'shadow' })).statusCode).toBe(200)
      expect((await call('POST', '/v1/rules/rollout', { pack: 'loud', rule_ids: ['every_payment'], percentage: 100, stop_conditions: { max_hit_rate: 0.5, min_decisions: 3 } })).statusCode).toBe(200)
      const first = (await call('POST', '/v1/score', { event: 'payment', amount: 80, user_id: 'k-1', device_id: 'k-dev', event_time: now - 3 * 86400 })).json()
      const second = (await call('POST', '/v1/score', { event: 'payment', amount: 80, user_id: 'k-2', device_id: 'k-dev', event_time: now - 3 * 86400 })).json()
      const c = await eventually(async () => (await call('POST', '/v1/cases', { trace_id: first.trace_id, reason: 'chargeback' })).json().id, 30000, 'case opened')
      expect((await call('POST', `/v1/cases/${c}/disposition`, { outcome: 'fraud', analyst: 'ana' })).statusCode).toBe(200)
      clockOffsetMs = 0
      await call('POST', '/v1/score', { event: 'payment', amount: 5, user_id: 'k-3', event_time: now })
      const model = await eventually(async () => {
        const s = (await call('GET', '/v1/risk_settings')).json()
        return s.model.trained_labels >= 2 ? s.model : undefined
      }, 60000, 'a model version from the feedback process')
      const stopped = await eventually(async () => {
        const r = (await call('GET', '/v1/rules/rollout/loud')).json()
        return r.status === 'stopped' ? r : undefined
      }, 60000, 'the rollout stopped by the feedback process')
      expect(stopped.stopped).toMatchObject({ reason: 'hit_rate', decisions: 3, hits: 3 })
      const later = (await call('POST', '/v1/score', { event: 'payment', amount: 80, user_id: 'k-4' })).json()
      expect(later.shadow?.rules ?? []).not.toContain('every_payment')
      expect((await call('GET', `/v1/transactions/${later.trace_id}`)).json().evaluation.model_version).toBe(model.version)

      const deferred = await eventually(() => events.find(e => e.type === 'score.async' && e.data.trace_id === second.trace_id), 60000, 'score.async')
      expect(deferred.data).toMatchObject({ linked_users: 1, shared: { device: 1 } })
      const signal = (await call('POST', '/v1/signals', { type: 'sim_swap', user_id: 'k-4', confidence: 0.7 })).json()
      await eventually(() => events.find(e => e.type === 'signal.updated' && e.data.signal_id === signal.id), 60000, 'signal.updated')
    } finally {
      await sub.close()
    }
  })
})
