import { create, fromBinary, toBinary } from '@bufbuild/protobuf'
import type { CaseOutcome } from '../cases/types.js'
import { FeedbackLabelSchema } from '../../gen/fraud/v1/feedback_pb.js'
import type { LogRecord } from './log-record.js'

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

/** A case outcome as a training label on the feedback topic: fraud and chargeback are 1, safe is 0. */
export interface FeedbackLabel {
  tenant_id: string
  livemode: boolean
  trace_id: string
  case_id: string
  outcome: CaseOutcome
  label: 0 | 1
  labeled_at_ms: number
}
