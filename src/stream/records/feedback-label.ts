import { create, fromBinary, toBinary } from '@bufbuild/protobuf'
import type { FeedbackLabel } from '../../domain/cases/effects.js'
import type { CaseOutcome } from '../../domain/cases/types.js'
import type { LogRecord } from '../eventlog/event-log.js'
import { FeedbackLabelSchema } from '../../gen/fraud/v1/feedback_pb.js'

/** A label on the `feedback` topic: Protobuf fraud.v1.FeedbackLabel, keyed by tenant and trace id. */
export function labelRecord (l: FeedbackLabel): LogRecord {
  const value = toBinary(FeedbackLabelSchema, create(FeedbackLabelSchema, {
    tenantId: l.tenant_id, livemode: l.livemode, traceId: l.trace_id, caseId: l.case_id, outcome: l.outcome, label: l.label, labeledAtMs: BigInt(l.labeled_at_ms)
  }))
  return { key: `${l.tenant_id}:${l.trace_id}`, value, headers: { tenant_id: l.tenant_id, trace_id: l.trace_id } }
}

export function decodeLabel (value: Uint8Array): FeedbackLabel {
  const m = fromBinary(FeedbackLabelSchema, value)
  return { tenant_id: m.tenantId, livemode: m.livemode, trace_id: m.traceId, case_id: m.caseId, outcome: m.outcome as CaseOutcome, label: m.label === 1 ? 1 : 0, labeled_at_ms: Number(m.labeledAtMs) }
}
