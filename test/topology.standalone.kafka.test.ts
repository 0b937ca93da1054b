import { afterAll, describe, expect, it } from 'vitest'
import type { App } from '../src/app.js'
import { auth, eventually, startTestApp, tempDir } from './support/app.js'
import { startTopology, stopService, type ServiceProcess } from './support/child.js'
import { kafkaBrokersOrSkip, uniqueName } from './support/kafka.js'

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
