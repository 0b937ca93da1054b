import { writeFileSync } from 'node:fs'
import https from 'node:https'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { issue, makeCa } from './certs.js'
import { tempDir } from './app.js'

export interface Received { body: string, signature: string, event: { id: string, type: string, created: number, livemode: boolean, data: Record<string, unknown> }, at: number }

/**
 * A real HTTPS webhook receiver on loopback, with a certificate from a CA generated for the test run
 * (the service trusts it through WEBHOOK_CA_FILE, and may reach it through WEBHOOK_EGRESS_ALLOW: see `env`).
 * `respond` decides each answer; `down()` stops listening (connections refused) and `up()` listens again on the
 * same port.
 */
export class Receiver {
  /** Every request, whatever the answer. */
  readonly requests: Received[] = []
  /** Requests answered 2xx. */
  readonly received: Received[] = []
  respond: (r: Received) => { status: number, delayMs?: number, headers?: Record<string, string> } = () => ({ status: 200 })
  /** TCP connections accepted, whether or not a request followed (what an egress test counts). */
  connections = 0
  private server: https.Server | undefined
  port = 0

  private constructor (private readonly tls: { cert: string, key: string }, readonly caFile: string) {}

  static async start (): Promise<Receiver> {
    const ca = await makeCa('Webhook test CA')
    const caFile = path.join(tempDir('fds-ca-'), 'ca.pem')
    writeFileSync(caFile, ca.cert)
    const r = new Receiver(await issue(ca, 'localhost', 'server'), caFile)
    await r.up()
    return r
  }

  get url (): string { return `https://localhost:${this.port}/hooks` }

  /**
   * What a service needs to deliver here: the receiver's CA, and `localhost` on the egress allow-list (the
   * default policy refuses loopback destinations; docs/webhooks.md#egress-policy).
   */
  get env (): Record<string, string> { return { WEBHOOK_CA_FILE: this.caFile, WEBHOOK_EGRESS_ALLOW: 'localhost' } }

  async up (): Promise<void> {
    if (this.server !== undefined) return
    const server = https.createServer(this.tls, (req, res) => {
      const chunks: Buffer[] = []
      req.on('data', c => chunks.push(c))
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString()
        const got: Received = { body, signature: String(req.headers['x-service-signature'] ?? ''), event: JSON.parse(body), at: Date.now() }
        this.requests.push(got)
        const { status, delayMs = 0, headers = {} } = this.respond(got)
        setTimeout(() => {
          if (status >= 200 && status < 300) this.received.push(got)
          res.writeHead(status, headers).end()
        }, delayMs)
      })
    })
    server.on('connection', () => { this.connections++ })
    await new Promise<void>(resolve => server.listen(this.port, '127.0.0.1', resolve))
    this.port = (server.address() as AddressInfo).port
    this.server = server
  }

  async down (): Promise<void> {
    const server = this.server
    this.server = undefined
    if (server === undefined) return
    server.closeAllConnections()
    await new Promise(resolve => server.close(resolve))
  }

  /** Events accepted (2xx), de-duplicated by event id as a receiver would. */
  accepted (filter: (r: Received) => boolean = () => true): Map<string, Received> {
    return new Map(this.received.filter(filter).map(r => [r.event.id, r]))
  }
}
