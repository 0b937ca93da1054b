import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Collector } from '../support/collector.js'
import { eventually, tempDir, TEST_KEY } from '../support/app.js'
import { startService, stopService, type ServiceProcess } from '../support/child.js'
import { kafkaBrokersOrSkip, uniqueName } from '../support/kafka.js'

const CALLER_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736'
const brokers = await kafkaBrokersOrSkip('tracing on Kafka')

/** A request's span continues the caller's trace; the decision's record carries it to the case-opener topology. */
function tracingSuite (transport: string, env: () => Record<string, string>): void {
  describe(`OpenTelemetry on ${transport}`, () => {
    let collector: Collector
    let service: ServiceProcess
    beforeAll(async () => {
      collector = await Collector.start()
      service = await startService({ DATA_DIR: tempDir(), BOOTSTRAP_API_KEYS: TEST_KEY, OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_BSP_SCHEDULE_DELAY: '100', TOPOLOGY_THREAD: 'main', ...env() })
    })
    afterAll(async () => {
      await stopService(service)
      await collector.stop()
    })

    it('exports the request span with the decision\'s trace_id, and the topology continues the trace from the record\'s traceparent', async () => {
      const res = await fetch(`${service.url}/v1/score`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json', traceparent: `00-${CALLER_TRACE}-00f067aa0ba902b7-01` },
        body: JSON.stringify({ event: 'payment', amount: 20_000, currency: 'EUR', user_id: 'u-traced' })
      })
      const decision = await res.json() as { trace_id: string, action: string }
      expect(decision.action).toBe('flag')
      const server = await eventually(() => collector.spans.find(s => s.attributes['fds.trace_id'] === decision.trace_id && s.kind === 2), 20000, 'the request span')
      expect(server).toMatchObject({ traceId: CALLER_TRACE, parentSpanId: '00f067aa0ba902b7', name: 'POST /v1/score', service: 'api' })
      expect(server.attributes['http.response.status_code']).toBe(200)
      const opener = await eventually(() => collector.spans.find(s => s.name.includes('case-opener') && s.attributes['fds.trace_id'] === decision.trace_id), 20000, 'the case-opener span')
      expect(opener).toMatchObject({ traceId: CALLER_TRACE, parentSpanId: server.spanId })
      // The case command it emitted carries the trace on to the case writer.
      const writer = await eventually(() => collector.spans.find(s => s.traceId === CALLER_TRACE && s.parentSpanId === opener.spanId), 20000, 'a span of the next hop')
      expect(writer.name).toMatch(/process$/)
    })
  })
}

tracingSuite('the embedded log', () => ({}))
if (brokers !== undefined) tracingSuite('Kafka', () => ({ TRANSPORT: 'kafka', KAFKA_BROKERS: brokers.join(','), TOPIC_PREFIX: `${uniqueName('t')}.` }))
