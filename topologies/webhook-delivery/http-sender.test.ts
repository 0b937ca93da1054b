import { readFileSync } from 'node:fs'
import net from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { egressPolicy } from '../../src/domain/webhooks/egress-policy.js'
import { DELIVERY_ERRORS } from '../../src/domain/webhooks/delivery-errors.js'
import { egressLookup, type Resolve } from './egress-lookup.js'
import { httpSender } from './http-sender.js'
import { Receiver } from '../../test/support/receiver.js'

/** A name server that answers every name with `addresses` (a public-looking name rebinding to internal ones). */
const resolvingTo = (...addresses: string[]): Resolve => (_hostname, _options, callback) =>
  callback(null, addresses.map(address => ({ address, family: net.isIP(address) })))

/** A plain TCP server on loopback that counts connections; `onSocket` decides what it does with each. */
async function tcpServer (onSocket: (socket: net.Socket) => void): Promise<{ port: number, connections: () => number, close: () => Promise<void> }> {
  let connections = 0
  const sockets = new Set<net.Socket>()
  const server = net.createServer(socket => { connections++; sockets.add(socket); onSocket(socket) })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  return {
    port: (server.address() as net.AddressInfo).port,
    connections: () => connections,
    close: async () => { for (const s of sockets) s.destroy(); await new Promise(resolve => server.close(resolve)) }
  }
}

const body = '{"id":"evt_1","type":"case.created","created":1,"livemode":false,"data":{}}'

describe('webhook sender: every connection goes only where the egress policy allows', () => {
  let receiver: Receiver
  let other: Receiver
  let ca: string
  beforeAll(async () => {
    receiver = await Receiver.start()
    other = await Receiver.start()
    ca = readFileSync(receiver.caFile, 'utf8')
  })
  afterAll(async () => { await Promise.all([receiver?.down(), other?.down()]) })

  it('refuses a name that resolves to loopback at connect time (DNS rebinding): no connection reaches the listening server', async () => {
    const before = receiver.connections
    const send = httpSender({ timeoutMs: 2000, extraCa: ca, policy: egressPolicy([]), resolve: resolvingTo('127.0.0.1') })
    const result = await send(`https://hooks.example.com:${receiver.port}/hooks`, body, {})
    expect(result).toMatchObject({ status_code: null, error: DELIVERY_ERRORS.refused })
    expect(result.detail).toMatch(/EGRESS_REFUSED: hooks\.example\.com resolves to no address the egress policy allows: a loopback address \(127\.0\.0\.1\)/)
    // Mapped and NAT64-free forms of loopback, and several internal answers at once: all refused.
    for (const answer of [['::ffff:127.0.0.1'], ['10.0.0.1', '127.0.0.1', '169.254.169.254'], ['::1']]) {
      const r = await httpSender({ timeoutMs: 2000, extraCa: ca, policy: egressPolicy([]), resolve: resolvingTo(...answer) })(`https://hooks.example.com:${receiver.port}/hooks`, body, {})
      expect(r.error, answer.join()).toBe(DELIVERY_ERRORS.refused)
    }
    expect(receiver.connections - before).toBe(0)
    expect(receiver.requests).toHaveLength(0)
  })

  it('refuses address literals before connecting, in every form the URL may carry', async () => {
    const before = receiver.connections
    const send = httpSender({ timeoutMs: 2000, extraCa: ca, policy: egressPolicy([]) })
    for (const host of ['127.0.0.1', '[::ffff:127.0.0.1]', '[::ffff:7f00:1]', '2130706433', '127.1', '0x7f000001']) {
      const r = await send(`https://${host}:${receiver.port}/hooks`, body, {})
      expect(r, host).toMatchObject({ status_code: null, error: DELIVERY_ERRORS.refused })
    }
    expect(receiver.connections - before).toBe(0)
  })

  it('connects only to the allowed addresses of a mixed answer', async () => {
    const lookup = egressLookup(egressPolicy(['127.0.0.1']), resolvingTo('10.0.0.1', '8.8.8.8', '127.0.0.1', '169.254.169.254'))
    const all = await new Promise(resolve => lookup('hooks.example.com', { all: true }, (err, addresses) => resolve(err ?? addresses)))
    expect(all).toEqual([{ address: '8.8.8.8', family: 4 }, { address: '127.0.0.1', family: 4 }])
    const one = await new Promise(resolve => lookup('hooks.example.com', {}, (err, address, family) => resolve(err ?? [address, family])))
    expect(one).toEqual(['8.8.8.8', 4])
    // Through a real socket: the name answers 10.0.0.1 and 127.0.0.1; only 127.0.0.1 is allowed, and delivered to.
    const before = receiver.requests.length
    const send = httpSender({ timeoutMs: 2000, extraCa: ca, policy: egressPolicy(['127.0.0.1']), resolve: resolvingTo('10.0.0.1', '127.0.0.1') })
    expect(await send(`https://localhost:${receiver.port}/hooks`, body, {})).toMatchObject({ status_code: 200, error: null })
    expect(receiver.requests.length - before).toBe(1)
  })

  it('delivers to an allow-listed name', async () => {
    const send = httpSender({ timeoutMs: 2000, extraCa: ca, policy: egressPolicy(['localhost']) })
    expect(await send(receiver.url, body, {})).toMatchObject({ status_code: 200, error: null })
  })

  it('does not follow a redirect, even to an allowed destination', async () => {
    receiver.respond = () => ({ status: 307, headers: { location: `${other.url}?from=redirect` } })
    try {
      const send = httpSender({ timeoutMs: 2000, extraCa: ca, policy: egressPolicy(['localhost']) })
      expect(await send(receiver.url, body, {})).toMatchObject({ status_code: 307, error: null })
      expect(other.connections).toBe(0)
    } finally {
      receiver.respond = () => ({ status: 200 })
    }
  })

  it('records a neutral category for every socket failure and keeps the detail for the log', async () => {
    const send = httpSender({ timeoutMs: 500, extraCa: ca, policy: egressPolicy(['localhost']) })
    // A closed port.
    const closed = await tcpServer(s => s.destroy())
    await closed.close()
    const refused = await send(`https://localhost:${closed.port}/`, body, {})
    expect(refused).toMatchObject({ status_code: null, error: DELIVERY_ERRORS.connection })
    expect(refused.detail).toMatch(/ECONNREFUSED/)
    // A plain-text service (an SSH or HTTP port): the TLS handshake fails on its first bytes.
    const ssh = await tcpServer(s => s.end('SSH-2.0-OpenSSH_9.6\r\n'))
    const http = await tcpServer(s => s.end('HTTP/1.1 400 Bad Request\r\n\r\n'))
    for (const port of [ssh.port, http.port]) {
      const r = await send(`https://localhost:${port}/`, body, {})
      expect(r.error === DELIVERY_ERRORS.tls || r.error === DELIVERY_ERRORS.connection, `${r.error} ${r.detail}`).toBe(true)
      expect(r.error).not.toMatch(/EPROTO|version|127\.0\.0\.1/)
    }
    // A certificate the sender does not trust.
    const untrusted = await httpSender({ timeoutMs: 500, policy: egressPolicy(['localhost']) })(receiver.url, body, {})
    expect(untrusted).toMatchObject({ status_code: null, error: DELIVERY_ERRORS.tls })
    expect(untrusted.detail).toMatch(/certificate/)
    // A port that accepts and never answers.
    const silent = await tcpServer(() => {})
    expect(await send(`https://localhost:${silent.port}/`, body, {})).toMatchObject({ status_code: null, error: DELIVERY_ERRORS.timeout })
    // A name that does not resolve reads as a refused one (no oracle for which internal names exist).
    const missing = await httpSender({ timeoutMs: 2000, policy: egressPolicy([]), resolve: (_h, _o, cb) => cb(Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.example.com'), { code: 'ENOTFOUND' }), []) })('https://nowhere.example.com/', body, {})
    expect(missing).toMatchObject({ status_code: null, error: DELIVERY_ERRORS.refused })
    await Promise.all([ssh.close(), http.close(), silent.close()])
  })
})
