import { decide } from './decision/decide.js'
import type { Decision, ScoreRequest } from './decision/types.js'
import { encodeEvent, type TransactionRecord } from './records/transaction-record.js'
import type { ActiveRuleset } from './pipeline/control-plane.js'
import { decisionRecordOps } from './state/decision-ops.js'
import { deviceSeenKey } from './state/device-history.js'
import type { Outbox } from './state/outbox.js'
import type { CaseGate, Override } from './decision/types.js'
import { caseGateKey } from './state/cases.js'
import { overrideKey, parseArrays, subjectKeys } from './state/overrides.js'
import { parseConfig, policyKey } from './state/policies.js'
import type { StateDb } from './state/state-db.js'
import type { Scope, VelocityStore, VelocityView } from './state/velocity.js'
import type { WriteOp } from './storage/rocks.js'

/** Where the active ruleset of a tenant and mode comes from (the control plane). */
export interface RulesetSource { activeRuleset(scope: Scope): Promise<ActiveRuleset> }

export interface ScoreCall {
  scope: Scope
  traceId: string
  request: ScoreRequest
  /** Event time of the request (ms). */
  nowMs: number
  /** performance.now() when the request arrived, for latency_ms. */
  startedAt: number
}

/**
 * The request path after validation: read features from local state, decide (pure), then record the
 * decision, its outbox entry and the velocity increments in ONE synchronous RocksDB batch before returning.
 */
export class ScoringService {
  constructor (
    private readonly state: StateDb,
    private readonly velocity: VelocityStore,
    private readonly outbox: Outbox,
    private readonly originId: string,
    private readonly onRecorded: () => void,
    private readonly rulesets: RulesetSource
  ) {}

  async score (call: ScoreCall): Promise<Decision> {
    const { scope, request, nowMs } = call
    const seenKey = deviceSeenKey(scope, request)
    const overrideKeys = subjectKeys(request, (subject, value) => overrideKey(scope, subject, value))
    const gateKeys = subjectKeys(request, (subject, value) => caseGateKey(scope, subject, value))
    // Layout: policy, overrides per subject, case gates per subject, device-seen marker (when a device is named).
    const controlKeys = [policyKey(scope), ...overrideKeys, ...gateKeys]
    if (seenKey !== undefined) controlKeys.push(seenKey)
    const control = await this.state.getMany(controlKeys)
    const active = await this.rulesets.activeRuleset(scope)
    const velocity = await this.velocity.view(scope, request, nowMs, active.compiled.velocityNeeds)
    try {
      const gates = {
        overrides: parseArrays<Override>(control.slice(1, 1 + overrideKeys.length)),
        caseGates: parseArrays<CaseGate>(control.slice(1 + overrideKeys.length, 1 + overrideKeys.length + gateKeys.length))
      }
      return await this.decideAndRecord(call, velocity, control, seenKey !== undefined, active, gates)
    } finally {
      velocity.release()
    }
  }

  private async decideAndRecord (call: ScoreCall, velocity: VelocityView, control: Array<Buffer | undefined>, hasSeenKey: boolean, active: ActiveRuleset,
    gates: { overrides: Override[], caseGates: CaseGate[] }): Promise<Decision> {
    const { scope, request, nowMs } = call
    const deviceKnown = hasSeenKey && control[control.length - 1] !== undefined
    const features: Record<string, number> = {
      amount: request.amount ?? 0,
      user_present: request.user_id === undefined ? 0 : 1,
      device_present: request.device_id === undefined ? 0 : 1,
      device_known: deviceKnown ? 1 : 0
    }
    velocity.features(features)
    const policy = { ...parseConfig(control[0]), ruleset: active.ruleset }
    const rules = active.compiled
    const evaluation = decide(request, { features, policy, rules, signals: {}, ...gates, now_ms: nowMs, tenant: scope.tenant, fallback_subject: call.traceId })

    const decision: Decision = { ...evaluation.decision, trace_id: call.traceId, latency_ms: 0 }
    const seq = this.outbox.nextSeq()
    const record: TransactionRecord = {
      trace_id: call.traceId,
      tenant_id: scope.tenant,
      livemode: scope.mode === 'live',
      created_ms: nowMs,
      request,
      decision,
      ruleset_version: evaluation.ruleset_version,
      model_version: evaluation.model_version,
      features,
      base_action: evaluation.base_action,
      override_gate: evaluation.override_gate,
      rule_errors: evaluation.rule_errors,
      rollout_buckets: evaluation.rollout_buckets,
      origin_id: this.originId,
      origin_seq: seq
    }
    decision.latency_ms = Math.round(performance.now() - call.startedAt)
    const ops: WriteOp[] = [...decisionRecordOps(record, deviceKnown), ...velocity.incrementOps(), ...this.outbox.appendOps(seq, encodeEvent(record))]
    await this.state.committer.commit(ops)
    this.onRecorded()
    return decision
  }
}
