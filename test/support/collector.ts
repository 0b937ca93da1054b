import http from 'node:http'
import type { AddressInfo } from 'node:net'

export interface CollectedSpan { traceId: string, spanId: string, parentSpanId: string, name: string, kind: number, attributes: Record<string, string | number>, service: string }

/**
 * A real OTLP/HTTP trace receiver on loopback (JSON, as @opentelemetry/exporter-trace-otlp-http sends): every
 * span exported to `${url}/v1/traces`, flattened with its resource's service.instance.role.
 */
export class Collector {
  readonly spans: CollectedSpan[] = []
  private constructor (private readonly server: http.Server, readonly url: string) {}

  static async start (): Promise<Collector> {
    let collector: Collector | undefined
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', c => chunks.push(c))
      req.on('end', () => {
        if (req.url === '/v1/traces') collector!.add(JSON.parse(Buffer.concat(chunks).toString()))
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}')
      })
    })
    await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
    collector = new Collector(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`)
    return collector
  }

  private add (body: { resourceSpans?: Array<{ resource?: { attributes?: Attr[] }, scopeSpans?: Array<{ spans?: RawSpan[] }> }> }): void {
    for (const rs of body.resourceSpans ?? []) {
      const service = String(attrs(rs.resource?.attributes)['service.instance.role'] ?? '')
      for (const ss of rs.scopeSpans ?? []) for (const s of ss.spans ?? []) this.spans.push({ traceId: s.traceId, spanId: s.spanId, parentSpanId: s.parentSpanId ?? '', name: s.name, kind: s.kind, attributes: attrs(s.attributes), service })
    }
  }

  async stop (): Promise<void> { await new Promise(resolve => this.server.close(resolve)) }
}

interface Attr { key: string, value: { stringValue?: string, intValue?: number | string, doubleValue?: number } }
interface RawSpan { traceId: string, spanId: string, parentSpanId?: string, name: string, kind: number, attributes?: Attr[] }
const attrs = (list: Attr[] | undefined) => Object.fromEntries((list ?? []).map(a => [a.key, a.value.stringValue ?? Number(a.value.intValue ?? a.value.doubleValue)]))
