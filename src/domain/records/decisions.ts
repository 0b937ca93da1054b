import { create, fromBinary, toBinary, type JsonObject } from '@bufbuild/protobuf'
import { BinaryReader, WireType } from '@bufbuild/protobuf/wire'
import type { Action, Counterfactual, Decision, Features, ScoreRequest } from '../decision/types.js'
import { DecisionRecordedSchema, RuleErrorSchema, type DecisionRecorded } from '../../gen/fraud/v1/events_pb.js'
import { CounterfactualSchema, DecisionSchema, InputChangeSchema, ScoreRequestSchema, ShadowOutcomeSchema, type Counterfactual as ProtoCounterfactual, type ScoreRequest as ProtoScoreRequest } from '../../gen/fraud/v1/score_pb.js'

/** A recorded decision: what GET /v1/transactions/{id} returns and what the `decisions` topic carries. */
export interface TransactionRecord {
  trace_id: string
  tenant_id: string
  livemode: boolean
  /** The decision's event time (the request's event_time when given, else its arrival). */
  created_ms: number
  /**
   * When the service recorded the decision: its arrival by the service's clock (RECORDED_TIME=event_time: its
   * event time). Labels mature and Stage 3 gates apply by it. Absent in records from before it: recordedMsOf.
   */
  recorded_ms?: number
  request: ScoreRequest
  decision: Decision
  ruleset_version: string
  model_version: string
  features: Features
  base_action: Action
  override_gate: string | null
  rule_errors: Array<{ id: string, error: string }>
  rollout_buckets: Record<string, number>
  origin_id: string
  origin_seq: number
}

// google.protobuf.Struct fields surface as plain JSON objects in protobuf-es v2.
const struct = (o: Record<string, unknown> | undefined) => o as JsonObject | undefined
const plain = (s: JsonObject | undefined) => s as Record<string, unknown> | undefined

export function toEvent (r: TransactionRecord): DecisionRecorded {
  const q = r.request
  return create(DecisionRecordedSchema, {
    traceId: r.trace_id,
    tenantId: r.tenant_id,
    livemode: r.livemode,
    createdMs: BigInt(r.created_ms),
    originId: r.origin_id,
    originSeq: BigInt(r.origin_seq),
    request: create(ScoreRequestSchema, {
      event: q.event,
      amount: q.amount,
      currency: q.currency,
      userId: q.user_id,
      ip: q.ip,
      deviceId: q.device_id,
      email: q.email,
      eventTime: q.event_time === undefined ? undefined : BigInt(q.event_time),
      geo: struct(q.geo),
      metadata: struct(q.metadata),
      custom: struct(q.custom)
    }),
    decision: create(DecisionSchema, {
      score: r.decision.score,
      riskLevel: r.decision.risk_level,
      action: r.decision.action,
      signals: r.decision.signals,
      rules: r.decision.rules,
      traceId: r.decision.trace_id,
      latencyMs: r.decision.latency_ms,
      shadow: r.decision.shadow === undefined ? undefined : create(ShadowOutcomeSchema, r.decision.shadow),
      overrideGate: r.decision.override_gate,
      counterfactual: toCounterfactual(r.decision.counterfactual)
    }),
    rulesetVersion: r.ruleset_version,
    modelVersion: r.model_version,
    features: r.features,
    overrideGate: r.override_gate ?? '',
    baseAction: r.base_action,
    ruleErrors: r.rule_errors.map(e => create(RuleErrorSchema, { ruleId: e.id, error: e.error })),
    rolloutBuckets: r.rollout_buckets,
    recordedMs: BigInt(r.recorded_ms ?? 0)
  })
}

function defined<T extends object> (o: T): T {
  for (const k of Object.keys(o) as Array<keyof T>) if (o[k] === undefined) delete o[k]
  return o
}

function fromRequest (q: ProtoScoreRequest): ScoreRequest {
  return defined({
    event: q.event,
    amount: q.amount,
    currency: q.currency,
    user_id: q.userId,
    ip: q.ip,
    device_id: q.deviceId,
    email: q.email,
    event_time: q.eventTime === undefined ? undefined : Number(q.eventTime),
    geo: plain(q.geo),
    metadata: plain(q.metadata),
    custom: plain(q.custom)
  })
}

export function fromEvent (e: DecisionRecorded): TransactionRecord {
  const q = e.request!
  const d = e.decision!
  return {
    trace_id: e.traceId,
    tenant_id: e.tenantId,
    livemode: e.livemode,
    created_ms: Number(e.createdMs),
    request: fromRequest(q),
    decision: defined({
      score: d.score,
      risk_level: d.riskLevel as Decision['risk_level'],
      action: d.action as Action,
      signals: d.signals,
      rules: d.rules,
      trace_id: d.traceId,
      latency_ms: d.latencyMs,
      shadow: d.shadow === undefined ? undefined : { action: d.shadow.action as Action, rules: d.shadow.rules },
      override_gate: d.overrideGate,
      counterfactual: fromCounterfactual(d.counterfactual)
    }),
    ruleset_version: e.rulesetVersion,
    model_version: e.modelVersion,
    features: { ...e.features },
    base_action: e.baseAction as Action,
    override_gate: e.overrideGate === '' ? null : e.overrideGate,
    rule_errors: e.ruleErrors.map(x => ({ id: x.ruleId, error: x.error })),
    rollout_buckets: { ...e.rolloutBuckets },
    origin_id: e.originId,
    origin_seq: Number(e.originSeq),
    ...(e.recordedMs === 0n ? {} : { recorded_ms: Number(e.recordedMs) })
  }
}

/** When the service recorded a decision; a record from before recorded_ms existed was recorded at its event time. */
export const recordedMsOf = (r: Pick<TransactionRecord, 'created_ms' | 'recorded_ms'>): number => r.recorded_ms ?? r.created_ms

export const encodeEvent = (r: TransactionRecord): Uint8Array => toBinary(DecisionRecordedSchema, toEvent(r))
export const decodeEvent = (b: Uint8Array): TransactionRecord => fromEvent(fromBinary(DecisionRecordedSchema, b))

/** What the relay needs of an encoded record to publish it (its key and time), read without decoding the rest. */
export interface DecisionHeader { trace_id: string, tenant_id: string, created_ms: number }

/**
 * The header fields of an encoded DecisionRecorded (trace_id = 1, tenant_id = 2, created_ms = 4), read from
 * the first fields on the wire; encoders write fields in number order, but any order is read correctly. Bytes
 * that are not a record with a trace and a tenant throw, as decoding them would.
 */
export function decisionHeader (bytes: Uint8Array): DecisionHeader {
  const header: DecisionHeader = { trace_id: '', tenant_id: '', created_ms: 0 }
  const reader = new BinaryReader(bytes)
  let found = 0
  while (reader.pos < reader.len && found < 3) {
    const tag = nextTag(reader)
    const field = tag >>> 3
    const wireType: WireType = tag & 7
    if (field === 1) { header.trace_id = reader.string(); found++ } else if (field === 2) { header.tenant_id = reader.string(); found++ } else if (field === 4) { header.created_ms = Number(reader.int64()); found++ } else skipField(reader, wireType, field)
  }
  if (header.trace_id === '' || header.tenant_id === '') throw new Error('not a DecisionRecorded: no trace_id or tenant_id')
  return header
}

/**
 * The next field's tag, checked as BinaryReader.tag checks it; its number is `tag >>> 3`, its wire type `tag & 7`.
 * tag() returns them in a new array for every field, most of what reading a subject allocated once skipping
 * allocated nothing.
 */
function nextTag (reader: BinaryReader): number {
  const tag = reader.uint32()
  if (tag >>> 3 <= 0 || (tag & 7) > 5) throw new Error(`illegal tag: field no ${tag >>> 3} wire type ${tag & 7}`)
  return tag
}

/**
 * Skips one field unread. BinaryReader.skip returns the bytes it skipped, a view allocated for each field: the
 * features map alone is one field an entry, a sixth of what a materialized decision allocated.
 */
function skipField (reader: BinaryReader, wireType: WireType, field: number): void {
  if (wireType === WireType.LengthDelimited) {
    const length = reader.uint32() // read before pos: `pos += uint32()` would add to pos as it was before the length
    reader.pos += length
  } else if (wireType === WireType.Bit64) reader.pos += 8
  else if (wireType === WireType.Bit32) reader.pos += 4
  else { reader.skip(wireType, field); return }
  if (reader.pos > reader.len) throw new RangeError('premature end of a DecisionRecorded')
}

/** What a decision is about: enough to apply it to another instance's state (decisions-view.ts). */
export type DecisionSubject = Pick<TransactionRecord, 'trace_id' | 'tenant_id' | 'livemode' | 'created_ms' | 'request'>

/**
 * The subject of an encoded DecisionRecorded (fields 1 to 4 and the request, 7), the rest skipped unread: the
 * decision, its features and rules are most of the bytes and of the cost of decoding. Bytes that are not a
 * record with a trace, a tenant and a request throw, as decoding them would.
 */
export function decisionSubject (bytes: Uint8Array): DecisionSubject {
  const subject: DecisionSubject = { trace_id: '', tenant_id: '', livemode: false, created_ms: 0, request: undefined as unknown as ScoreRequest }
  const reader = new BinaryReader(bytes)
  while (reader.pos < reader.len) {
    const tag = nextTag(reader)
    const field = tag >>> 3
    const wireType: WireType = tag & 7
    switch (field) {
      case 1: subject.trace_id = reader.string(); break
      case 2: subject.tenant_id = reader.string(); break
      case 3: subject.livemode = reader.bool(); break
      case 4: subject.created_ms = Number(reader.int64()); break
      case 7: subject.request = fromRequest(fromBinary(ScoreRequestSchema, reader.bytes())); break
      default: skipField(reader, wireType, field)
    }
  }
  if (subject.trace_id === '' || subject.tenant_id === '' || subject.request === undefined) throw new Error('not a DecisionRecorded: no trace_id, tenant_id or request')
  return subject
}

/** What counting rule hits reads of a decision (src/domain/rules/hits.ts). */
export type DecisionHits = Pick<TransactionRecord, 'ruleset_version' | 'rollout_buckets'> & { decision: Pick<Decision, 'rules' | 'shadow'> }

/**
 * The decision's matched rules (enforce and shadow), its ruleset version and rollout buckets (decision = 8,
 * ruleset_version = 9, rollout_buckets = 15), the request and features left undecoded: GET /v1/rules/hits reads
 * up to 200,000 of them, a third of the time decoding whole records took.
 */
export function decisionHits (bytes: Uint8Array): DecisionHits {
  const hits: DecisionHits = { ruleset_version: '', rollout_buckets: {}, decision: { rules: [] } }
  const reader = new BinaryReader(bytes)
  while (reader.pos < reader.len) {
    const tag = nextTag(reader)
    const field = tag >>> 3
    const wireType: WireType = tag & 7
    if (field === 8) {
      const d = fromBinary(DecisionSchema, reader.bytes())
      hits.decision = d.shadow === undefined ? { rules: d.rules } : { rules: d.rules, shadow: { action: d.shadow.action as Action, rules: d.shadow.rules } }
    } else if (field === 9) hits.ruleset_version = reader.string()
    else if (field === 15) {
      const entry = new BinaryReader(reader.bytes())
      let key = ''
      let value = 0
      while (entry.pos < entry.len) {
        const t = nextTag(entry)
        if (t >>> 3 === 1) key = entry.string(); else if (t >>> 3 === 2) value = entry.double(); else skipField(entry, t & 7, t >>> 3)
      }
      hits.rollout_buckets[key] = value
    } else skipField(reader, wireType, field)
  }
  return hits
}

/** A decision's counterfactual on the wire: none on approve, one without changes for null (no change would approve). */
export function toCounterfactual (c: Counterfactual | null | undefined): ProtoCounterfactual | undefined {
  if (c === undefined) return undefined
  return create(CounterfactualSchema, c === null ? { action: '', changes: [] } : { action: c.action, changes: c.changes.map(x => create(InputChangeSchema, x)) })
}

function fromCounterfactual (c: ProtoCounterfactual | undefined): Counterfactual | null | undefined {
  if (c === undefined) return undefined
  return c.changes.length === 0 ? null : { action: 'approve', changes: c.changes.map(x => ({ field: x.field as 'amount', from: x.from, to: x.to })) }
}
