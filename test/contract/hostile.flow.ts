import net from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { App } from '../../src/app/app.js'
import { auth, eventually, healthOf } from '../support/app.js'

const deepText = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth)

/** Hostile inputs of every kind the API has been sent, each with the status it must get (never a 5xx). */
export const HOSTILE: Array<{ what: string, url: string, body: string, contentType?: string, status: number }> = [
  { what: 'custom key nested 50 deep', url: '/v1/score', body: `{"event":"payment","x":${deepText(50)}}`, status: 400 },
  { what: 'metadata nested 3,000 deep', url: '/v1/score', body: `{"event":"payment","metadata":${deepText(3000)}}`, status: 400 },
  { what: 'geo nested 6 deep', url: '/v1/score', body: `{"event":"payment","geo":{"p":${deepText(6)}}}`, status: 400 },
  { what: '1e309 in a custom key', url: '/v1/score', body: '{"event":"payment","x":1e309}', status: 400 },
  { what: '1e309 in geo', url: '/v1/score', body: '{"event":"payment","geo":{"lat":1e309}}', status: 400 },
  { what: '1e309 in account_created', url: '/v1/score', body: '{"event":"payment","account_created":1e309}', status: 400 },
  { what: 'NUL in user_id', url: '/v1/score', body: '{"event":"payment","user_id":"u\\u0000x"}', status: 400 },
  { what: 'NUL in a key', url: '/v1/score', body: '{"event":"payment","k\\u0000":1}', status: 400 },
  { what: 'lone surrogate', url: '/v1/score', body: '{"event":"payment","note":"\\udc00"}', status: 400 },
  { what: '__proto__', url: '/v1/score', body: '{"event":"payment","__proto__":{"admin":true}}', status: 400 },
  { what: 'constructor.prototype', url: '/v1/score', body: '{"event":"payment","constructor":{"prototype":{"x":1}}}', status: 400 },
  { what: 'a 70 KB body', url: '/v1/score', body: JSON.stringify({ event: 'payment', blob: 'x'.repeat(70_000) }), status: 413 },
  { what: 'text/plain', url: '/v1/score', body: '{"event":"payment"}', contentType: 'text/plain', status: 415 },
  { what: 'form encoded', url: '/v1/score', body: 'event=payment', contentType: 'application/x-www-form-urlencoded', status: 415 },
  { what: 'not JSON', url: '/v1/score', body: '{"event":', status: 400 },
  { what: '501-event batch', url: '/v1/score/batch', body: JSON.stringify({ events: Array.from({ length: 501 }, () => ({ event: 'login' })) }), status: 400 },
  { what: 'batch with one event 3,000 deep', url: '/v1/score/batch', body: `{"events":[{"event":"login"},{"event":"login","x":${deepText(3000)}}]}`, status: 400 },
  { what: 'batch event of 200 KB', url: '/v1/score/batch', body: JSON.stringify({ events: [{ event: 'login', blob: Array.from({ length: 25 }, () => 'y'.repeat(8000)) }] }), status: 200 },
  { what: 'rule of 3,990 !', url: '/v1/rules', body: JSON.stringify({ id: 'hostile', name: 'h', expression: '!'.repeat(3990) + 'true', action: 'flag' }), status: 400 }
]

/**
 * Every hostile input above, then proof that the pipeline still flows: a flagged decision still opens its
 * case. On one transport; `start` gives a listening app (a real socket is needed for oversized headers).
 */
export function hostileSuite (transport: string, start: () => Promise<App>): void {
  describe(`hostile input, then the stream still flows: ${transport}`, () => {
    let app: App
    beforeAll(async () => { app = await start() })
    afterAll(async () => { await app?.close() })

    it('answers every hostile input with the error envelope, never a 5xx', async () => {
      for (const h of HOSTILE) {
        const res = await app.server.inject({ method: 'POST', url: h.url, headers: { ...auth(), 'content-type': h.contentType ?? 'application/json' }, payload: h.body })
        expect(res.statusCode, h.what).toBe(h.status)
        if (h.status !== 200) expect(res.json().error, h.what).toMatchObject({ type: 'invalid_request_error', trace_id: res.headers['x-trace-id'] })
        else expect(res.json().data[0].error.code, h.what).toBe('event_too_large')
      }
      const port = Number(new URL(app.address!).port)
      const response = await new Promise<string>((resolve, reject) => {
        const socket = net.connect(port, '127.0.0.1', () => socket.end(`POST /v1/score HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(100_000)}\r\n\r\n`))
        let out = ''
        socket.on('data', d => { out += d.toString() })
        socket.on('close', () => resolve(out))
        socket.on('error', reject)
      })
      expect(response).toMatch(/^HTTP\/1\.1 431 /)
      expect(response).toContain('"code":"headers_too_large"')
    })

    it('still opens a case for a flagged decision afterwards, and nothing was dead-lettered', async () => {
      const flagged = (await app.server.inject({ method: 'POST', url: '/v1/score', headers: auth(), payload: { event: 'payment', amount: 25_000, user_id: `after-hostile-${transport}`, note: 'ユーザー 😀 café' } })).json()
      expect(flagged.action).toBe('flag')
      const opened = await eventually(async () => (await app.server.inject({ method: 'GET', url: `/v1/cases?trace_id=${flagged.trace_id}`, headers: auth() })).json().data[0], 45000, 'case for the flag')
      expect(opened.trace_id).toBe(flagged.trace_id)
      const health = await healthOf(app)
      expect(health).toMatchObject({ status: 'ok', dead_lettered: {} })
    })
  })
}
