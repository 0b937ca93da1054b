import { afterAll, describe, expect, it } from 'vitest'
import type { App } from '../src/app.js'
import { auth, eventually, startTestApp, tempDir } from './support/app.js'
import { startTopology, stopService, type ServiceProcess } from './support/child.js'
import { kafkaBrokersOrSkip, uniqueName } from './support/kafka.js'
import { Receiver } from './support/receiver.js'
import { webhookEnv } from './webhooks.flow.js'

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
