import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { App } from '../../src/app/app.js'
import { auth, eventually, startTestApp } from '../support/app.js'
import { readDecisionStream } from '../support/stream.js'

let app: App
beforeAll(async () => { app = await startTestApp({ RELAY_LINGER_MS: '1' }) })
afterAll(async () => { await app.close() })

describe('the outbox relay, on the embedded log', () => {
  // A batch's entries are numbered as its events are decided and written when the whole batch commits; single
  // requests served between its events commit first, with later numbers, and are published first. The relay
  // used to read on from the last number it published and left the batch in the outbox until a restart.
  it("publishes a batch's decisions that were written after later-numbered single requests had been published", async () => {
    const events = Array.from({ length: 500 }, (_, i) => ({ event: 'payment', amount: 5, user_id: `late-batch-${i}` }))
    const batch = app.server.inject({ method: 'POST', url: '/v1/score/batch', headers: auth(), payload: { events } })
    const singles: string[] = []
    for (let i = 0; i < 20; i++) {
      await new Promise(resolve => setTimeout(resolve, 10))
      const single = await app.server.inject({ method: 'POST', url: '/v1/score', headers: auth(), payload: { event: 'login', user_id: `late-single-${i}` } })
      expect(single.statusCode).toBe(200)
      singles.push(single.json().trace_id)
    }
    const res = await batch
    expect(res.statusCode).toBe(200)
    const traces = [...singles, ...res.json().data.map((d: { trace_id: string }) => d.trace_id)]
    expect(traces.length).toBe(520)
    const stream = await readDecisionStream(app.log, app.decisionsTopic, 'late-batch-reader', traces)
    expect(stream.missing).toEqual([])
    await eventually(async () => (await app.outbox.read(1000, 0)).length === 0 || undefined, 10000, 'the outbox empty')
  })
})
