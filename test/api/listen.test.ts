import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { App } from '../../src/app/app.js'
import { auth, startTestApp } from '../support/app.js'

let app: App
beforeAll(async () => { app = await startTestApp({}, { listen: true }) })
afterAll(async () => { await app.close() })

describe('a real listening server', () => {
  it('scores over HTTP and serves the transaction it recorded', async () => {
    const res = await fetch(`${app.address}/v1/score`, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/json' },
      body: JSON.stringify({ event: 'payment', amount: 42, user_id: 'u-http', email: 'x@example.com' })
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^application\/json/)
    const decision = await res.json() as { trace_id: string }
    expect(res.headers.get('x-trace-id')).toBe(decision.trace_id)
    const tx = await fetch(`${app.address}/v1/transactions/${decision.trace_id}`, { headers: auth() })
    expect(tx.status).toBe(200)
    expect((await tx.json() as { decision: unknown }).decision).toEqual(decision)
  })

  it('answers a malformed body with the JSON error envelope', async () => {
    const res = await fetch(`${app.address}/v1/score`, { method: 'POST', headers: { ...auth(), 'content-type': 'application/json' }, body: '{"event":' })
    expect(res.status).toBe(400)
    const body = await res.json() as { error: { code: string, trace_id: string } }
    expect(body.error.code).toBe('invalid_json')
    expect(res.headers.get('x-trace-id')).toBe(body.error.trace_id)
  })

  it('reports transport and outbox backlog on /healthz without a key', async () => {
    const res = await fetch(`${app.address}/healthz`)
    expect(await res.json()).toMatchObject({ status: 'ok', transport: 'embedded' })
  })
})
