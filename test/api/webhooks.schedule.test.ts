import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { App } from '../../src/app/app.js'
import { MAX_ATTEMPTS, RETRY_DELAYS_MS } from '../../src/domain/webhooks/backoff.js'
import { dueEntries } from '../../topologies/webhook-delivery/retry-store.js'
import { auth, eventually, startTestApp } from '../support/app.js'
import { Receiver } from '../support/receiver.js'
import type { Delivery } from '../../src/domain/records/webhook-deliveries.js'

/** The retry schedule shrunk 200 times: waits of at least 120, 240, 480, 1,200, 2,400, 4,800 ms ... */
const SCALE = 0.005
const DELIVERIES = 60
/** How long the dispatcher runs against the failing receiver (about 7 attempts per delivery). */
const WINDOW_MS = 9000

/** The shortest wait the schedule allows after `attemptsMade` failed attempts: the base delay with -20 % jitter. */
const minimumGap = (attemptsMade: number) => Math.round(RETRY_DELAYS_MS[attemptsMade - 1]! * 0.8 * SCALE)
/** A delivery's latest published state: the one with the most attempts. */
const latestOf = (versions: Delivery[]) => versions.reduce((a, b) => b.attempts.length > a.attempts.length ? b : a)

/**
 * The dispatcher must never attempt a delivery before the `next_attempt_ms` its latest attempt recorded, even
 * with many deliveries in flight while it scans the due index. Every published state of every delivery is
 * collected from `webhook-deliveries`, so each attempt is checked against the state right before it.
 */
describe('webhook retry schedule under concurrency', () => {
  let receiver: Receiver
  let app: App
  const states = new Map<string, Delivery[]>()
  let collected = 0
  let closeCollector: (() => Promise<void>) | undefined
  let stopTopologies: (() => Promise<void>) | undefined

  beforeAll(async () => {
    receiver = await Receiver.start()
    // Always fails, answering after 0-49 ms so that attempts end at every point of the dispatcher's 50 ms tick.
    let answered = 0
    receiver.respond = () => ({ status: 500, delayMs: (answered++ * 17) % 50 })
    // Topologies started here, so the test can stop the dispatcher (waiting for attempts in flight) before counting.
    app = await startTestApp({ ...receiver.env, WEBHOOK_BACKOFF_SCALE: String(SCALE) }, { topologies: false })
    const collector = await app.log.subscribe({
      group: 'schedule-test-collector',
      topics: [app.topics.webhookDeliveries],
      fromBeginning: true,
      onBatch: async records => {
        for (const r of records) {
          const d = JSON.parse(r.value.toString()) as Delivery
          states.set(d.id, [...(states.get(d.id) ?? []), d])
          collected++
        }
      }
    })
    closeCollector = () => collector.close()
    stopTopologies = await app.startTopologies()
  })

  afterAll(async () => {
    await closeCollector?.()
    await stopTopologies?.()
    await app?.close()
    await receiver?.down()
  })

  it('never attempts a delivery before its next attempt time, nor more often than the schedule allows', async () => {
    const res = await app.server.inject({ method: 'POST', url: '/v1/webhooks', headers: auth(), payload: { url: receiver.url, events: ['rule.triggered'], description: 'always failing' } })
    expect(res.statusCode).toBe(200)
    const scored = await Promise.all(Array.from({ length: DELIVERIES }, (_, i) =>
      app.server.inject({ method: 'POST', url: '/v1/score', headers: auth(), payload: { event: 'payment', amount: 20_000, user_id: `u-schedule-${i}` } })))
    expect(scored.every(r => r.statusCode === 200)).toBe(true)
    await eventually(() => states.size >= DELIVERIES || undefined, 30000, `${DELIVERIES} deliveries attempted`)
    await new Promise(resolve => setTimeout(resolve, WINDOW_MS))
    await stopTopologies!()
    stopTopologies = undefined
    const published = (await app.log.endOffsets(app.topics.webhookDeliveries)).reduce((a, b) => a + b, 0)
    await eventually(() => collected >= published || undefined, 10000, 'every published delivery state collected')

    let gaps = 0
    const early: string[] = []
    for (const [id, versions] of states) {
      // The state each attempt recorded, by attempts made (a state re-published after a crash repeats one).
      const byAttempts = new Map<number, Delivery>()
      for (const v of versions) byAttempts.set(v.attempts.length, v)
      const latest = latestOf(versions)
      expect(latest.attempts.length).toBeLessThanOrEqual(MAX_ATTEMPTS)
      for (let n = 1; n < latest.attempts.length; n++) {
        const before = byAttempts.get(n)
        expect(before, `${id}: the state after attempt ${n} was published`).toBeDefined()
        const at = latest.attempts[n]!.at_ms
        const gap = at - latest.attempts[n - 1]!.at_ms
        gaps++
        if (gap < minimumGap(n) || before!.next_attempt_ms === null || at < before!.next_attempt_ms) {
          early.push(`${id} attempt ${n + 1}: ${gap} ms after attempt ${n} (schedule minimum ${minimumGap(n)} ms, due at +${before!.next_attempt_ms === null ? 'never' : before!.next_attempt_ms - latest.attempts[n - 1]!.at_ms} ms)`)
        }
      }
    }
    // The receiver got no more requests per event than the attempts the service recorded (all recorded now).
    const requests = new Map<string, number>()
    for (const r of receiver.requests) requests.set(r.event.id, (requests.get(r.event.id) ?? 0) + 1)
    const latestStates = [...states.values()].map(latestOf)
    const recorded = new Map(latestStates.map(d => [d.event_id, d.attempts.length]))
    for (const [event, count] of requests) expect(count, `requests for ${event}`).toBeLessThanOrEqual(recorded.get(event) ?? 0)

    console.log(`webhook schedule: ${states.size} deliveries, ${gaps} gaps between attempts, ${early.length} shorter than the schedule allows`)
    expect(gaps).toBeGreaterThanOrEqual(DELIVERIES * 2)
    expect(early).toEqual([])

    // The due index holds exactly the next attempt of every pending delivery: no stale entry left behind.
    const index = await dueEntries(app.state, 999_999_999_999_998, 10_000)
    expect(index.map(e => `${e.id}@${e.dueMs}`).sort()).toEqual(latestStates.filter(d => d.status === 'pending').map(d => `${d.id}@${d.next_attempt_ms}`).sort())
  }, 60000)
})
