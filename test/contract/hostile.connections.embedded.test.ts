import net from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { App } from '../../src/app/app.js'
import { TEST_KEY, startTestApp } from '../support/app.js'

/**
 * Connections nobody authenticates: thousands held idle, headers and bodies sent slowly. The listener's bounds
 * (HTTP_MAX_CONNECTIONS, the idle, header and request timeouts) are transport-independent, so this runs on the
 * embedded log only.
 */
const MAX = 300
const HELD = 1500

let app: App
let port: number
const sockets: net.Socket[] = []

beforeAll(async () => {
  app = await startTestApp({ HTTP_MAX_CONNECTIONS: String(MAX), HTTP_IDLE_TIMEOUT_MS: '1500', HTTP_HEADERS_TIMEOUT_MS: '1000', HTTP_REQUEST_TIMEOUT_MS: '2000' }, { listen: true })
  port = Number(new URL(app.address!).port)
})
afterAll(async () => {
  for (const s of sockets) s.destroy()
  await app?.close()
})

const connect = () => new Promise<net.Socket>((resolve, reject) => {
  const socket = net.connect(port, '127.0.0.1', () => resolve(socket))
  socket.on('error', () => {})
  socket.once('error', reject)
})

/** Writes `parts` one by one, `gapMs` apart, and resolves with what the server answered when it closed. */
function trickle (parts: string[], gapMs: number): Promise<{ answer: string, afterMs: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now()
    const socket = net.connect(port, '127.0.0.1')
    let answer = ''
    let i = 0
    const timer = setInterval(() => { if (i < parts.length && !socket.destroyed) socket.write(parts[i++]!) }, gapMs)
    socket.on('data', d => { answer += d.toString() })
    socket.on('close', () => { clearInterval(timer); resolve({ answer, afterMs: Date.now() - started }) })
    socket.on('error', err => { if ((err as NodeJS.ErrnoException).code !== 'ECONNRESET') reject(err) })
  })
}

const score = async () => {
  const res = await fetch(`http://127.0.0.1:${port}/v1/score`, {
    method: 'POST', headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json', connection: 'close' }, body: JSON.stringify({ event: 'login', user_id: 'u-conn' })
  })
  return { status: res.status, body: await res.json() as { action?: string } }
}

describe('connection bounds', () => {
  it(`holds ${HELD} idle connections (bound ${MAX}) and a new client still scores`, async () => {
    for (let i = 0; i < HELD; i++) sockets.push(await connect())
    // Half of them began a request and stopped mid-headers: they are idle too.
    for (const s of sockets.slice(0, HELD / 2)) s.write('POST /v1/score HTTP/1.1\r\nHost: x\r\n')
    const res = await score()
    expect(res.status).toBe(200)
    expect(res.body.action).toBeDefined()
    // The listener never held more than its bound: most of the idle connections were closed to make room.
    await new Promise(resolve => setTimeout(resolve, 200))
    const open = sockets.filter(s => !s.destroyed && s.readyState === 'open').length
    expect(open).toBeLessThanOrEqual(MAX)
  })

  it('closes a connection that sends no request within the idle timeout', async () => {
    const { answer, afterMs } = await trickle([], 50)
    // Closed silently by the idle timeout, or answered 408 by the header timeout, whichever Node meets first.
    if (answer !== '') expect(answer).toMatch(/^HTTP\/1\.1 408 /)
    expect(afterMs).toBeGreaterThanOrEqual(1000)
    expect(afterMs).toBeLessThan(10_000)
  })

  it('answers 408 request_timeout to headers sent too slowly', async () => {
    const parts = ['POST /v1/score HTTP/1.1\r\n', 'Host: x\r\n', 'X-A: 1\r\n', 'X-B: 1\r\n', 'X-C: 1\r\n', 'X-D: 1\r\n', 'X-E: 1\r\n', 'X-F: 1\r\n', '\r\n']
    const { answer } = await trickle(parts, 400)
    expect(answer).toMatch(/^HTTP\/1\.1 408 /)
    expect(answer).toContain('"code":"request_timeout"')
  })

  it('answers 408 request_timeout to a body sent too slowly', async () => {
    const body = JSON.stringify({ event: 'login', user_id: 'slow-body' })
    const head = `POST /v1/score HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_KEY}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`
    const { answer } = await trickle([head, ...body.split('')], 200)
    expect(answer).toMatch(/^HTTP\/1\.1 408 /)
    expect(answer).toContain('"code":"request_timeout"')
  })
})
