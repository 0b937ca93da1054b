import { afterAll, describe, expect, it } from 'vitest'
import type { App } from '../../src/app/app.js'
import { asyncScorer } from './async-scorer.js'
import { startTopology, type RunningTopology, type TopologyContext } from '../../src/stream/topology.js'
import type { CommitHook, WriteOp } from '../../src/stores/rocks.js'
import { type ServiceEvent, parseEvent } from '../../src/domain/records/events.js'
import { auth, eventually, startTestApp } from '../../test/support/app.js'
import { LINK_GRAPH } from './graph-store.js'
import { scan } from '../../src/stores/rocks.js'
import { decodeLinks } from '../../src/stores/velocity/links.js'
import { linkAnalysis, type LinkGraph, type LinkKind } from '../../src/domain/link-analysis.js'

describe('async-scorer on the embedded log: graph nodes kept between batches', () => {
  let api: App | undefined
  let scorer: RunningTopology | undefined
  afterAll(async () => {
    await scorer?.stop()
    await api?.close()
  })

  it('forgets what a batch that was not written changed: a dead-lettered decision leaves no link behind', async () => {
    // One partition: the three decisions reach the scorer as one batch.
    api = await startTestApp({ TOPOLOGIES: 'none', DECISIONS_PARTITIONS: '1' })
    const traces: string[] = []
    for (const user of ['cache-a', 'cache-b', 'cache-c']) {
      const res = await api.server.inject({ method: 'POST', url: '/v1/score', headers: auth(), payload: { event: 'signup', user_id: user, device_id: 'dev-cache' } })
      traces.push(res.json().trace_id as string)
    }
    await eventually(async () => (await api!.log.endOffsets(api!.topics.decisions))[0] === 3 || undefined, 10000, 'the decisions on the log')
    const events: ServiceEvent[] = []
    const sub = await api.log.subscribe({ group: 'cache-events', topics: [api.topics.events], onBatch: async rs => { for (const r of rs) events.push(parseEvent(r.value)) } })
    // Every write of the graph node of user b fails: the batch of three fails, then b alone until dead-lettered.
    const failing: CommitHook = {
      beforeWrite: (ops: readonly WriteOp[]) => ops.some(op => op.type === 'put' && op.key[0] === 'G'.charCodeAt(0) && op.key.includes('cache-b')) ? [{ type: 'put', key: null, value: Buffer.alloc(0) } as unknown as WriteOp] : [],
      afterWrite: () => {}
    }
    api.state.committer.hooks.push(failing)
    try {
      const ctx: TopologyContext = { ...api.runtime, config: api.config, codec: api.codec, topics: api.topics, control: api.controlPlane, cases: api.cases, webhooks: api.webhooks, audit: api.audit, clock: api.clock, models: api.modelRegistry }
      scorer = await startTopology(asyncScorer, ctx)
      await eventually(() => api!.health.report().dead_lettered['processor:async-scorer'] === 1 || events.some(e => e.type === 'score.async' && e.data.trace_id === traces[2]) || undefined, 20000, 'b dead-lettered and c analysed')
      await eventually(() => events.some(e => e.type === 'score.async' && e.data.trace_id === traces[2]) || undefined, 20000, 'the check of c')
      const checks = events.filter(e => e.type === 'score.async')
      // a saw nobody before it; b never reached the graph; c is linked to a alone.
      expect(checks.map(e => e.data.trace_id)).toEqual([traces[2]])
      expect(checks[0]!.data).toMatchObject({ linked_users: 1, cluster_size: 2, shared: { device: 1 } })
    } finally {
      api.state.committer.hooks.splice(api.state.committer.hooks.indexOf(failing), 1)
      await sub.close()
    }
  })
})

describe('async-scorer graph nodes', () => {
  let api: App | undefined
  afterAll(async () => { await api?.close() })

  it('keep the 256 most recent links of an identifier', async () => {
    api = await startTestApp({ DECISIONS_PARTITIONS: '1' })
    const now = Math.floor(Date.now() / 1000)
    // 260 users on one device, the first the oldest: the first four fall out of the device's node.
    const events = Array.from({ length: 260 }, (_, i) => ({ event: 'login', user_id: `many-${i}`, device_id: 'dev-many', event_time: now - 3600 + i }))
    const res = await api.server.inject({ method: 'POST', url: '/v1/score/batch', headers: auth(), payload: { events } })
    expect(res.statusCode).toBe(200)
    const deviceLinks = async (): Promise<Map<string, number> | undefined> => {
      for await (const [key, value] of scan(api!.state.db, ...LINK_GRAPH.range())) {
        if (key.toString().endsWith('\u0000i\u0000device\u0000dev-many')) return decodeLinks(value)
      }
      return undefined
    }
    const links = await eventually(async () => { const l = await deviceLinks(); return l?.has('many-259') === true ? l : undefined }, 20000, 'the last link')
    expect(links.size).toBe(256)
    expect([...links.keys()].sort()).toEqual(Array.from({ length: 256 }, (_, i) => `many-${i + 4}`).sort())
  })
})

describe('async-scorer reads', () => {
  let api: App | undefined
  afterAll(async () => { await api?.close() })

  it('reach every node the check needs two hops out: each report equals the check over the whole graph before it', async () => {
    api = await startTestApp({ DECISIONS_PARTITIONS: '1' })
    const events: ServiceEvent[] = []
    const sub = await api.log.subscribe({ group: 'reads-events', topics: [api.topics.events], onBatch: async rs => { for (const r of rs) events.push(parseEvent(r.value)) } })
    try {
      // 24 users over few devices, cards, emails and IPs: rings reached only through a linked user's other identifiers.
      const now = Math.floor(Date.now() / 1000)
      const requests = Array.from({ length: 80 }, (_, i) => ({
        event: 'login', user_id: `hop-u${(i * 7) % 24}`, device_id: `hop-d${(i * 5) % 9}`, email: `hop-e${(i * 3) % 11}@example.com`,
        card_fingerprint: `hop-c${(i * 11) % 13}`, ip: `10.9.0.${i % 4}`, event_time: now - 3600 + i
      }))
      const res = await api.server.inject({ method: 'POST', url: '/v1/score/batch', headers: auth(), payload: { events: requests } })
      expect(res.statusCode).toBe(200)
      const traces = (res.json().data as Array<{ trace_id: string }>).map(d => d.trace_id)
      // The whole graph before each request, as the check defines it, and what the check finds there.
      const users = new Map<string, Set<string>>()
      const identifiers = new Map<string, Array<[LinkKind, string]>>()
      const graph: LinkGraph = {
        usersOf: (kind, value) => [...users.get(`${kind}:${value}`) ?? []],
        identifiersOf: user => identifiers.get(user) ?? []
      }
      const expected = new Map<string, object>()
      requests.forEach((request, i) => {
        // The API keeps fields it does not define as custom ones, where the card's fingerprint is read.
        const report = linkAnalysis({ ...request, custom: { card_fingerprint: request.card_fingerprint } }, {}, graph)!
        if (report.linked_users > 0) expected.set(traces[i]!, { linked_users: report.linked_users, cluster_size: report.cluster_size, shared: report.shared })
        for (const [kind, value] of [['device', request.device_id], ['email', request.email], ['card', request.card_fingerprint], ['ip', request.ip]] as Array<[LinkKind, string]>) {
          const members = users.get(`${kind}:${value}`) ?? new Set()
          users.set(`${kind}:${value}`, members.add(request.user_id))
          const own = identifiers.get(request.user_id) ?? []
          if (!own.some(([k, v]) => k === kind && v === value)) identifiers.set(request.user_id, [...own, [kind, value]])
        }
      })
      expect([...expected.values()].some(r => (r as { cluster_size: number }).cluster_size > 5)).toBe(true)
      const checks = await eventually(() => { const c = events.filter(e => e.type === 'score.async'); return c.length >= expected.size ? c : undefined }, 20000, 'every check')
      expect(new Map(checks.map(e => [e.data.trace_id as string, { linked_users: e.data.linked_users, cluster_size: e.data.cluster_size, shared: e.data.shared }]))).toEqual(expected)
    } finally {
      await sub.close()
    }
  })
})
