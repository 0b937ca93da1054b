import net from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { App } from '../../src/app/app.js'
import { newId } from '../../src/domain/ids.js'
import { webhookRecord } from '../../src/domain/records/webhooks.js'
import { deliveryRecord, type Delivery } from '../../src/domain/records/webhook-deliveries.js'
import { DELIVERY_ERRORS } from '../../src/domain/webhooks/delivery-errors.js'
import type { WebhookEndpoint } from '../../src/domain/webhooks/types.js'
import { publishChange } from '../../src/services/publish-change.js'
import { auth, eventually } from '../support/app.js'
import { Receiver } from '../support/receiver.js'

/** The one address the suite's app allows besides public ones: a loopback address nothing else uses. */
const ALLOWED = '127.0.0.2'

/**
 * Env of the suite's app: it trusts the receiver's CA (so a delivery to it would succeed if the policy let it
 * through) and allows only 127.0.0.2, where the suite's own failing servers listen. One attempt times out in 1 s.
 */
export const egressEnv = (receiver: Receiver) => ({ WEBHOOK_CA_FILE: receiver.caFile, WEBHOOK_EGRESS_ALLOW: ALLOWED, WEBHOOK_BACKOFF_SCALE: '0.0005', WEBHOOK_TIMEOUT_MS: '1000' })

/**
 * Issue 33, item 2: the internal destinations a tenant registered (19 of 31 accepted), in every notation, with
 * the port of a listening receiver and the service's own ports. `port`: the receiver's; `own`: the service's.
 */
export function internalUrls (port: number, own: number): string[] {
  return [
    `https://127.0.0.1:${port}/`, `https://127.0.0.1:${own}/v1/keys`, 'https://127.0.0.1:22/', 'https://127.0.0.1:9464/metrics', 'https://127.0.0.1:50051/',
    `https://localhost:${port}/hooks`, 'https://LOCALHOST./', 'https://ｌｏｃａｌｈｏｓｔ/', 'https://a.localhost/', 'https://vm/', 'https://runsc/',
    `https://[::1]:${port}/`, 'https://0.0.0.0/', 'https://0/', 'https://[::]/',
    'https://169.254.169.254/latest/meta-data/', 'https://[fe80::1]/', 'https://metadata.google.internal/',
    'https://10.0.0.1/', 'https://172.16.0.1/', 'https://192.168.1.1/', 'https://[fd00::1]/', 'https://100.64.0.1/',
    'https://224.0.0.1/', 'https://255.255.255.255/', 'https://192.0.2.1/',
    `https://2130706433:${port}/`, `https://0x7f000001:${port}/`, `https://0177.0.0.1:${port}/`, `https://127.1:${port}/`, 'https://%31%32%37.0.0.1/',
    `https://[::ffff:127.0.0.1]:${port}/`, `https://[::ffff:7f00:1]:${port}/`, 'https://[::ffff:169.254.169.254]/', 'https://[64:ff9b::10.0.0.1]/', 'https://[2002:7f00:1::]/'
  ]
}

/** Listening servers on the allowed address that fail each in its own way: what a delivery error could have told. */
async function failingServer (onSocket: (s: net.Socket) => void): Promise<{ port: number, close: () => Promise<void> }> {
  const sockets = new Set<net.Socket>()
  const server = net.createServer(s => { sockets.add(s); onSocket(s) })
  await new Promise<void>(resolve => server.listen(0, ALLOWED, resolve))
  return { port: (server.address() as net.AddressInfo).port, close: async () => { for (const s of sockets) s.destroy(); await new Promise(resolve => server.close(resolve)) } }
}

const SOCKET_DETAIL = /ECONN|EPROTO|ENOTFOUND|EAI_|ETIMEDOUT|EHOST|wrong version|SSL|127\.0\.0\.|::1|certificate/

export function hostileEgressSuite (transport: string, start: (receiver: Receiver) => Promise<App>): void {
  describe(`hostile webhook destinations (egress policy): ${transport}`, () => {
    let receiver: Receiver
    let app: App
    beforeAll(async () => {
      receiver = await Receiver.start()
      app = await start(receiver)
    })
    afterAll(async () => {
      await app?.close()
      await receiver?.down()
    })

    const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
      app.server.inject({ method, url, headers: auth(), ...(payload === undefined ? {} : { payload }) })
    const deliveriesOf = async (endpoint: string) =>
      (await call('GET', `/v1/webhooks/${endpoint}/deliveries?limit=100`)).json().data as Array<{ id: string, status: string, attempts_count: number, last_error: string | null, attempts: Array<{ error: string | null }> }>
    const failedAttempt = async (endpoint: string, what: string) => eventually(async () => {
      const list = await deliveriesOf(endpoint)
      return list.find(d => d.attempts_count >= 1 && d.last_error !== null)
    }, 30000, what)
    const flag = async (user: string) => expect((await call('POST', '/v1/score', { event: 'payment', amount: 20_000, user_id: user })).statusCode).toBe(200)

    it('refuses every internal destination at registration and on update: 400 parameter_invalid on url', async () => {
      const own = Number(new URL(app.address!).port)
      const urls = internalUrls(receiver.port, own)
      let accepted = 0
      for (const url of urls) {
        const res = await call('POST', '/v1/webhooks', { url, events: ['rule.triggered'] })
        if (res.statusCode === 200) accepted++
        expect(res.statusCode, url).toBe(400)
        expect(res.json().error, url).toMatchObject({ type: 'invalid_request_error', code: 'parameter_invalid', param: 'url' })
        // The full-width name fails the schema's uri format first; every other one reaches the policy.
        expect(res.json().error.message, url).toMatch(/egress policy|must be a valid uri/)
      }
      expect(accepted).toBe(0)
      // An endpoint registered at a public host cannot be moved to an internal one either.
      const created = await call('POST', '/v1/webhooks', { url: 'https://hooks.example.com/fds', events: ['signal.updated'] })
      expect(created.statusCode).toBe(200)
      for (const url of urls) {
        const res = await call('POST', `/v1/webhooks/${created.json().id}`, { url })
        expect(res.statusCode, url).toBe(400)
        expect(res.json().error, url).toMatchObject({ code: 'parameter_invalid', param: 'url' })
      }
      expect((await call('GET', `/v1/webhooks/${created.json().id}`)).json().url).toBe('https://hooks.example.com/fds')
      // What the operator allowed is accepted.
      expect((await call('POST', '/v1/webhooks', { url: `https://${ALLOWED}:9/`, events: ['signal.updated'] })).statusCode).toBe(200)
      expect(receiver.connections).toBe(0)
    })

    it('never connects to an internal destination stored without the check (an endpoint from before the policy), nor on a replay', async () => {
      // Endpoints as the service accepted them before the policy: straight onto the webhooks topic.
      const tenant = app.identity.defaultTenant
      const now = Date.now()
      const stored: WebhookEndpoint[] = [`https://localhost:${receiver.port}/hooks`, `https://127.0.0.1:${receiver.port}/hooks`, `https://[::ffff:127.0.0.1]:${receiver.port}/hooks`].map(url => ({
        id: newId('we', now), tenant_id: tenant, mode: 'test', url, events: ['rule.triggered'], description: 'before the policy',
        status: 'enabled', disabled_reason: null, secrets: [{ secret: 'whsec_legacy', created_ms: now, expires_ms: null }], created_ms: now, updated_ms: now
      }))
      for (const endpoint of stored) {
        const changeId = newId('chg')
        await publishChange(app.log, app.topics.webhooks, app.webhooks, changeId, webhookRecord({ tenant_id: tenant, mode: 'test', id: endpoint.id, endpoint, change_id: changeId, actor: 'test' }))
      }
      await flag('u-egress-legacy')
      for (const endpoint of stored) {
        const d = await failedAttempt(endpoint.id, `an attempt to ${endpoint.url}`)
        expect(d.last_error, endpoint.url).toBe(DELIVERY_ERRORS.refused)
      }
      // A replay goes through the same check.
      const first = (await deliveriesOf(stored[0]!.id))[0]!
      const replay = await call('POST', `/v1/webhooks/${stored[0]!.id}/deliveries/${first.id}/replay`)
      expect(replay.statusCode).toBe(200)
      const replayed = await eventually(async () => (await deliveriesOf(stored[0]!.id)).find(d => d.id === replay.json().id && d.attempts_count >= 1), 30000, 'the replay attempted')
      expect(replayed.last_error).toBe(DELIVERY_ERRORS.refused)
      // The receiver listens and trusts nothing else: had any attempt connected, it would have been delivered.
      expect(receiver.connections).toBe(0)
      expect(receiver.requests).toHaveLength(0)
    })

    it('shows no socket detail in any delivery error: refused, closed, plain-text, silent ports and records from before read alike', async () => {
      const ssh = await failingServer(s => s.end('SSH-2.0-OpenSSH_9.6\r\n'))
      const silent = await failingServer(() => {})
      const closed = await failingServer(s => s.destroy())
      await closed.close()
      try {
        const targets: Array<[number, string[]]> = [[closed.port, [DELIVERY_ERRORS.connection]], [ssh.port, [DELIVERY_ERRORS.tls, DELIVERY_ERRORS.connection]], [silent.port, [DELIVERY_ERRORS.timeout]]]
        const endpoints: string[] = []
        for (const [port] of targets) {
          const res = await call('POST', '/v1/webhooks', { url: `https://${ALLOWED}:${port}/hooks`, events: ['rule.triggered'] })
          expect(res.statusCode).toBe(200)
          endpoints.push(res.json().id as string)
        }
        await flag('u-egress-errors')
        for (const [i, [port, expected]] of targets.entries()) {
          const d = await failedAttempt(endpoints[i]!, `an attempt to port ${port}`)
          expect(expected, `port ${port}: ${d.last_error}`).toContain(d.last_error)
        }
        // A delivery recorded before errors were neutral (as the issue saw them) is shown neutral too.
        const legacy: Delivery = {
          id: newId('dlv'), tenant_id: app.identity.defaultTenant, mode: 'test', endpoint_id: endpoints[0]!, event_id: newId('evt'), event_type: 'rule.triggered', payload: '{}',
          status: 'failed', next_attempt_ms: null, created_ms: Date.now(), replay_of: null, version: 3,
          attempts: ['connect ECONNREFUSED 127.0.0.1:22', 'write EPROTO 4097:error:0A00010B:SSL routines:ssl3_get_record:wrong version number', 'getaddrinfo ENOTFOUND db.internal'].map(error => ({ at_ms: Date.now(), status_code: null, error, duration_ms: 1 }))
        }
        await app.log.append(app.topics.webhookDeliveries, [deliveryRecord(legacy)])
        const shown = await eventually(async () => (await deliveriesOf(endpoints[0]!)).find(d => d.id === legacy.id), 30000, 'the legacy delivery in the view')
        expect(shown.attempts.map(a => a.error)).toEqual([DELIVERY_ERRORS.connection, DELIVERY_ERRORS.tls, DELIVERY_ERRORS.refused])
        const detail = (await call('GET', `/v1/webhooks/${endpoints[0]}/deliveries/${legacy.id}`)).json()
        expect(detail.last_error).toBe(DELIVERY_ERRORS.refused)
        // Nothing any list shows names an error code, an address or a TLS detail.
        for (const e of endpoints) expect(JSON.stringify((await deliveriesOf(e)).map(d => d.attempts)), e).not.toMatch(SOCKET_DETAIL)
      } finally {
        await Promise.all([ssh.close(), silent.close()])
      }
    })
  })
}
