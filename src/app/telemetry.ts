import { W3CTraceContextPropagator } from '@opentelemetry/core'
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http'
import { resourceFromAttributes } from '@opentelemetry/resources'
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node'

/**
 * Tracing, only when OTEL_EXPORTER_OTLP_ENDPOINT is set (the OpenTelemetry SDK's own variable, as are
 * OTEL_SERVICE_NAME and OTEL_BSP_*): spans go to that collector over OTLP/HTTP in batches. Returns a function
 * that flushes and stops it (shutdown). `role` names the process (api, a topology, the topology thread).
 */
export function startTelemetry (role: string, env: NodeJS.ProcessEnv = process.env): (() => Promise<void>) | undefined {
  if (env.OTEL_EXPORTER_OTLP_ENDPOINT === undefined || env.OTEL_EXPORTER_OTLP_ENDPOINT === '') return undefined
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME ?? 'fraud-decision-service', 'service.instance.role': role }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())]
  })
  provider.register({ propagator: new W3CTraceContextPropagator() })
  return () => provider.shutdown()
}
