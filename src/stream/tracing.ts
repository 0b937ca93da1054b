import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Context, type Span } from '@opentelemetry/api'

/**
 * OpenTelemetry spans through the API of @opentelemetry/api: without a registered provider (no
 * OTEL_EXPORTER_OTLP_ENDPOINT, src/app/telemetry.ts) every call here is the API's no-op. The W3C `traceparent`
 * travels in the decisions' record headers, so a topology continues the trace of the request that made them.
 */
export const tracer = trace.getTracer('fraud-decision-service')

/** The W3C traceparent of a span (undefined for a span that records nothing). */
export function traceparentOf (span: Span | null): string | undefined {
  if (span === null || !span.isRecording()) return undefined
  const carrier: Record<string, string> = {}
  propagation.inject(trace.setSpan(ROOT_CONTEXT, span), carrier)
  return carrier.traceparent
}

/** The context a traceparent names (the root context without one). */
export function contextOf (traceparent: string | undefined): Context {
  return traceparent === undefined ? ROOT_CONTEXT : propagation.extract(ROOT_CONTEXT, { traceparent })
}

/**
 * Runs `fn` in a span named `name`, child of the trace a record's headers carry, handing it the traceparent its
 * own outputs should carry (the span's; the record's when nothing records). The span ends with `fn`.
 */
export async function inRecordSpan<T> (name: string, headers: Record<string, string> | undefined, attributes: Record<string, string | number>, fn: (traceparent: string | undefined) => Promise<T>): Promise<T> {
  const parent = headers?.traceparent
  if (parent === undefined) return await fn(undefined)
  const span = tracer.startSpan(name, { kind: SpanKind.CONSUMER, attributes }, contextOf(parent))
  try {
    return await context.with(trace.setSpan(context.active(), span), () => fn(traceparentOf(span) ?? parent))
  } catch (err) {
    span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) })
    throw err
  } finally {
    span.end()
  }
}

export { SpanKind }
