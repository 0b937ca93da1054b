import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { App } from '../../src/app/app.js'
import { LogUnavailable, type ConsumedRecord, type EventLog } from '../../src/stream/eventlog/event-log.js'
import { auth, eventually, healthOf } from '../support/app.js'

/**
 * No record can block the pipeline, for one transport: a record no consumer can decode and an outbox entry
 * the relay cannot decode are dead-lettered with their reason and counted, the stream moves on (a flagged
 * decision still opens its case), /healthz says degraded while the relay cannot publish, and large entries
 * are published in byte-capped batches.
 */
export function poisonSuite (transport: string, start: () => Promise<App>): void {
  describe(`poison records: ${transport}`, () => {
    let app: App
    const deadLetters: ConsumedRecord[] = []
    const published = new Set<string>()
    const closers: Array<() => Promise<void>> = []
    const follow = async (log: EventLog, topic: string, into: (r: ConsumedRecord) => void) => {
      const sub = await log.subscribe({ group: `test-${topic}-${Date.now()}`, topics: [topic], onBatch: async rs => { for (const r of rs) into(r) } })
      closers.push(() => sub.close())
    }
    beforeAll(async () => {
      app = await start()
      await follow(app.log, app.topics.deadLetters, r => deadLetters.push(r))
      await follow(app.log, app.topics.decisions, r => { if (r.headers.trace_id !== undefined) published.add(r.headers.trace_id) })
    })
    afterAll(async () => {
      for (const close of closers) await close()
      await app?.close()
    })
    const score = async (payload: object) => (await app.server.inject({ method: 'POST', url: '/v1/score', headers: auth(), payload })).json()
    const health = async () => await healthOf(app)

    it('dead-letters a decisions record no consumer can decode; a flagged decision after it still opens its case', async () => {
      await app.log.append(app.topics.decisions, [{ key: 'garbage', value: Buffer.from([0xff, 0xff, 0xff, 0xff]), headers: { trace_id: 'trc_garbage' } }])
      const flagged = await score({ event: 'payment', amount: 25_000, user_id: `poison-${transport}` })
      expect(flagged.action).toBe('flag')
      const opened = await eventually(async () => (await app.server.inject({ method: 'GET', url: `/v1/cases?trace_id=${flagged.trace_id}`, headers: auth() })).json().data[0], 45000, 'case opened after the poison record')
      expect(opened.trace_id).toBe(flagged.trace_id)
      // Every consumer of the topic dead-letters it on its own schedule: waited for until the two named are among them
      // (the first three letters could come from other groups).
      const fromGroup = (mine: ConsumedRecord[], named: (group: string) => boolean) => mine.some(r => named(r.headers.consumer_group ?? ''))
      const letters = await eventually(() => {
        const mine = deadLetters.filter(r => r.headers.source_topic === app.topics.decisions && r.key === 'garbage')
        return fromGroup(mine, g => g.startsWith('materializer-')) && fromGroup(mine, g => g.includes('case-opener')) ? mine : undefined
      }, 45000, 'dead letters from the materializer and the case opener')
      for (const r of letters) {
        expect(r.headers.reason).toBeTruthy()
        expect(r.value).toEqual(Buffer.from([0xff, 0xff, 0xff, 0xff]))
      }
      // Counted where the consumer runs: with topologies in a worker thread, its count reaches /healthz a message later.
      const deadLettered = async () => Object.values((await health()).dead_lettered as Record<string, number>).reduce((a, b) => a + b, 0)
      await eventually(async () => await deadLettered() >= letters.length || undefined, 5000, 'every dead letter counted on /healthz')
      expect(await deadLettered()).toBeGreaterThanOrEqual(letters.length)
    })

    it('dead-letters an outbox entry the relay cannot decode, after bounded retries, and publishes the decisions after it', async () => {
      const seq = app.outbox.nextSeq()
      await app.state.committer.commit(app.outbox.appendOps(seq, Buffer.from([0xff, 0xff, 0xff])))
      app.relay.notify()
      const after = await score({ event: 'login', user_id: `after-poison-${transport}` })
      await eventually(() => published.has(after.trace_id), 30000, 'the decision after the poison entry on the stream')
      const letter = await eventually(() => deadLetters.find(r => r.headers.source === 'outbox' && r.headers.seq === String(seq)), 30000, 'the outbox dead letter')
      expect(letter.headers.reason).toBeTruthy()
      expect((await health()).dead_lettered['outbox-relay']).toBeGreaterThanOrEqual(1)
      expect((await app.outbox.read(10, seq - 1)).find(e => e.seq === seq)).toBeUndefined()
    })

    it('reports degraded on /healthz while the relay cannot publish, and ok once it can; nothing is lost', async () => {
      const append = app.log.append.bind(app.log)
      app.log.append = async (topic, records) => {
        if (topic === app.topics.decisions) throw new LogUnavailable(topic, new Error('broker unreachable (simulated outage)'))
        return append(topic, records)
      }
      const during = await score({ event: 'login', user_id: `outage-${transport}` })
      const degraded = await eventually(async () => { const h = await health(); return h.status === 'degraded' ? h : undefined }, 20000, 'degraded health')
      expect(degraded.failing.map((f: { component: string }) => f.component)).toContain('outbox-relay')
      expect(published.has(during.trace_id)).toBe(false)
      app.log.append = append
      await eventually(() => published.has(during.trace_id), 30000, 'the decision made during the outage on the stream')
      await eventually(async () => (await health()).status === 'ok', 20000, 'ok health')
    })

    it('publishes 120 entries of 60 KB in byte-capped batches (one append would exceed the broker limit)', async () => {
      const blob = 'x'.repeat(7_000)
      const big = { event: 'payment', user_id: `big-${transport}`, ...Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`blob_${i}`, blob])) }
      expect(Buffer.byteLength(JSON.stringify(big))).toBeGreaterThan(55_000)
      const traces = (await Promise.all(Array.from({ length: 120 }, () => score(big)))).map(d => d.trace_id as string)
      expect(traces.every(t => typeof t === 'string')).toBe(true)
      await eventually(() => traces.every(t => published.has(t)), 60000, 'every large decision on the stream')
      expect((await health()).dead_lettered['outbox-relay'] ?? 0).toBeLessThanOrEqual(1)
    })
  })
}
