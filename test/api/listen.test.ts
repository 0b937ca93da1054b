import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { App } from '../../src/app/app.js'
import { auth, operatorAuth, startTestApp } from '../support/app.js'

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

  it('shows only its status on /healthz without the operator credential, and the whole report with it', async () => {
    const anyone = await (await fetch(`${app.address}/healthz`)).json()
    expect(anyone).toEqual({ status: 'ok' })
    const tenant = await (await fetch(`${app.address}/healthz`, { headers: auth() })).json()
    expect(tenant).toEqual({ status: 'ok' })
    const operator = await (await fetch(`${app.address}/healthz`, { headers: operatorAuth() })).json()
    expect(operator).toMatchObject({ status: 'ok', transport: 'embedded', outbox_pending: expect.any(Number), lag: expect.any(Object) })
  })
})
