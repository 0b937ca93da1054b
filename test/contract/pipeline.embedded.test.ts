import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { App } from '../../src/app/app.js'
import { auth, eventually, startTestApp } from '../support/app.js'
import { readDecisionStream } from '../support/stream.js'

let app: App
beforeAll(async () => { app = await startTestApp() })
afterAll(async () => { await app.close() })

describe('decisions stream on the embedded log', () => {
  it('publishes every returned decision to the decisions topic with its inputs and versions', async () => {
    const traces: string[] = []
    await Promise.all(Array.from({ length: 60 }, async (_, i) => {
      const res = await app.server.inject({ method: 'POST', url: '/v1/score', headers: auth(), payload: { event: 'payment', amount: i, user_id: `u${i % 7}` } })
      traces.push(res.json().trace_id)
    }))
    await eventually(() => app.relay.pending === 0 || undefined, 10000, 'outbox drained')
    const stream = await readDecisionStream(app.log, app.decisionsTopic, 'test-reader', traces)
    expect(stream.missing).toEqual([])
    expect(stream.raw).toBe(60)
    const one = stream.byTrace.get(traces[0]!)!
    expect(one.origin_id).toBe(app.identity.originId)
    expect(one.ruleset_version).toBe('rs_default_1')
    expect(one.request.event).toBe('payment')
    // The instance's own materializer skips its own decisions (already applied on the request path).
    expect(app.materializer.processed).toBe(0)
  })
})
