import { setImmediate as yieldTurn } from 'node:timers/promises'
import { observeDecisions } from './decision-metrics.js'
import { withStorageFaults } from './storage-errors.js'
import { decide, type DecisionContext } from '../domain/decision/decide.js'
import { counterfactualOf } from '../domain/decision/counterfactual.js'
import { DEFAULT_RULE_BUDGET_UNITS, RuleBudget } from '../domain/rules/budget.js'
import { policyOf } from '../domain/decision/default-policy.js'
import type { CaseGate, Decision, Override, ScoreRequest } from '../domain/decision/types.js'
import { extractFeatures, ruleSignals, type FeatureInputs } from '../domain/features/extract.js'
import type { ModelRegistry } from '../stream/views/model-registry.js'
import type { ActiveRuleset, RulesetSource } from '../stream/control-plane.js'
import { caseGateId } from '../stores/cases.js'
import { decisionRecordOps, knownBefore } from '../stores/decision-ops.js'
import { transactionKey } from '../stores/transactions.js'
import { decodeFirstSeen, deviceSeenKey } from '../stores/device-history.js'
import { lastLocationKey, parseLastLocation } from '../stores/last-location.js'
import type { Outbox } from '../stores/outbox.js'
import type { PresentKeys } from '../stores/present-keys.js'
import { overrideId, parseArrays, subjectKeys } from '../stores/overrides.js'
import { parseSimSwap, simSwapKey, type IpReputationIndex } from '../stores/signals.js'
import type { StateDb } from '../stores/state-db.js'
import type { VelocityStore, VelocityView } from '../stores/velocity/index.js'
import type { Scope } from '../domain/scope.js'
import type { WriteOp } from '../stores/rocks.js'
import { type TransactionRecord, encodeEvent } from '../domain/records/decisions.js'

export interface ScoreCall {
  scope: Scope
  traceId: string
  request: ScoreRequest
  /** Event time of the request (ms). */
  nowMs: number
  /** performance.now() when the request arrived, for latency_ms. */
  startedAt: number
  /** The W3C traceparent of the request's span, when traced: the decision's record carries it on. */
  traceparent?: string
}

/** Point lookups of one request, read in one multi-get; add() returns a key's position in the result (-1: no key). */
class Lookups {
  readonly keys: Buffer[] = []
  add (key: Buffer | undefined): number {
    if (key === undefined) return -1
    return this.keys.push(key) - 1
  }

  addAll (keys: Buffer[]): [number, number] {
    const from = this.keys.length
    this.keys.push(...keys)
    return [from, this.keys.length]
  }
}

/**
 * The models and IP reputation lists of every tenant, kept in memory by their materializers, and which
 * override and case-gate keys exist (most subjects have neither: those are not read).
 */
export interface ScoringViews { models: ModelRegistry, reputation: IpReputationIndex, subjects: PresentKeys }

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
    /** Called after each durable write with the decisions (outbox entries) it recorded, and their requests' traceparents. */
    private readonly onRecorded: (records: readonly TransactionRecord[], traceparents: ReadonlyArray<string | undefined>) => void,
    private readonly rulesets: RulesetSource,
    private readonly views: ScoringViews,
    /**
     * When a decision of this event time counts as recorded: its arrival by the service's clock, so that labels
     * mature and Stage 3 gates apply by when the service saw it, never by the client's event_time (RECORDED_TIME).
     */
    private readonly recordedAt: (eventMs: number) => number = () => Date.now(),
    /** Cost units the rules of one request may spend, counterfactual included (domain/rules/budget.ts). */
    private readonly ruleBudgetUnits = DEFAULT_RULE_BUDGET_UNITS
  ) {}

  async score (call: ScoreCall): Promise<Decision> {
    return (await this.scoreAll([call]))[0]!
  }

  /**
   * Decides the calls in order (each sees the velocity of those before it) and records them all in ONE
   * durable write: every decision or none. A failure anywhere takes the increments back out of the cache; a
   * write the store cannot make, or a disk below its storage reserve, is 503 storage_unavailable.
   */
  async scoreAll (calls: readonly ScoreCall[]): Promise<Decision[]> {
    const prepared: Prepared[] = []
    try {
      this.state.storage.assertWritable()
      for (const call of calls) {
        // A batch's events wait their turn behind whatever arrived meanwhile: single requests are served between them.
        if (prepared.length > 0) await yieldTurn()
        prepared.push(await this.prepare(call))
      }
      await this.state.committer.commit(prepared.flatMap(p => p.ops))
    } catch (err) {
      for (const p of prepared.slice().reverse()) p.velocity.revert()
      throw withStorageFaults(err)
    } finally {
      for (const p of prepared) p.velocity.release()
    }
    const records = prepared.map(p => p.record)
    this.onRecorded(records, calls.map(c => c.traceparent))
    observeDecisions(records)
    return prepared.map(p => p.decision)
  }

  /** Reads, decides and encodes one call; its velocity increments enter the cache last, once nothing can fail. */
  private async prepare (call: ScoreCall): Promise<Prepared> {
    const { scope, request, nowMs } = call
    const lookups = new Lookups()
    // Keys are made only for the subjects whose override or gate exists.
    const present = (ids: string[]) => ids.filter(id => this.views.subjects.mayExist(id)).map(id => Buffer.from(id))
    const overrides = lookups.addAll(present(subjectKeys(request, (subject, value) => overrideId(scope, subject, value))))
    const gates = lookups.addAll(present(subjectKeys(request, (subject, value) => caseGateId(scope, subject, value))))
    const seen = lookups.add(deviceSeenKey(scope, request))
    const swap = lookups.add(request.user_id === undefined ? undefined : simSwapKey(scope, request.user_id))
    const location = lookups.add(lastLocationKey(scope, request))
    const found = await this.state.getMany(lookups.keys)
    const at = (i: number) => i < 0 ? undefined : found[i]
    const active = await this.rulesets.activeRuleset(scope)
    const velocity = await this.velocity.view(scope, request, nowMs, active.compiled.velocityNeeds)
    try {
      const inputs: FeatureInputs = {
        velocity: velocity.features(),
        deviceFirstSeenMs: at(seen) === undefined ? undefined : decodeFirstSeen(at(seen)!),
        countrySeenBefore: velocity.lastLinked('user', 'country') !== undefined,
        lastSeenWithUser: { ip: velocity.lastLinked('user', 'ip'), card: velocity.lastLinked('user', 'card'), merchant: velocity.lastLinked('user', 'merchant') },
        lastLocation: parseLastLocation(at(location)),
        simSwap: parseSimSwap(at(swap)),
        ipReputation: this.views.reputation.lookup(scope, request.ip),
        nowMs
      }
      const context = {
        overrides: parseArrays<Override>(found.slice(...overrides)),
        caseGates: parseArrays<CaseGate>(found.slice(...gates))
      }
      const { decision, record, ops } = this.decide(call, inputs, active, context)
      return { decision, record, ops: [...ops, ...velocity.incrementOps()], velocity }
    } catch (err) {
      velocity.release()
      throw err
    }
  }

  private decide (call: ScoreCall, inputs: FeatureInputs, active: ActiveRuleset,
    gates: { overrides: Override[], caseGates: CaseGate[] }): { decision: Decision, record: TransactionRecord, ops: WriteOp[] } {
    const { scope, request, nowMs } = call
    const recordedMs = this.recordedAt(nowMs)
    const features = extractFeatures(request, inputs)
    // One budget for every rule this request evaluates: the decision's, then its counterfactual's re-decisions.
    const budget = new RuleBudget(this.ruleBudgetUnits)
    const context = { features, policy: policyOf(active.ruleset), rules: active.compiled, signals: ruleSignals(features), model: this.views.models.model(scope), ...gates, now_ms: recordedMs, tenant: scope.tenant, fallback_subject: call.traceId, budget }
    const evaluation = decide(request, context)

    const decision: Decision = { ...evaluation.decision, trace_id: call.traceId, latency_ms: 0 }
    if (decision.action !== 'approve') decision.counterfactual = this.counterfactual(request, inputs, context, budget)
    const seq = this.outbox.nextSeq()
    const record: TransactionRecord = {
      trace_id: call.traceId,
      tenant_id: scope.tenant,
      livemode: scope.mode === 'live',
      created_ms: nowMs,
      recorded_ms: recordedMs,
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
    const encoded = encodeEvent(record)
    // The outbox entry refers to the transaction record: its bytes are written once.
    return { decision, record, ops: [...decisionRecordOps(record, encoded, knownBefore(inputs.deviceFirstSeenMs, inputs.lastLocation, nowMs)), ...this.outbox.appendReferenceOps(seq, transactionKey(scope, call.traceId))] }
  }

  /** The counterfactual, or null when none would approve or when the rule budget ran out while searching. */
  private counterfactual (request: ScoreRequest, inputs: FeatureInputs, context: DecisionContext, budget: RuleBudget): Decision['counterfactual'] {
    if (budget.exhausted) return null
    try {
      return counterfactualOf(request, changed => {
        const changedFeatures = extractFeatures(changed, inputs)
        const approved = decide(changed, { ...context, features: changedFeatures, signals: ruleSignals(changedFeatures) }).decision.action === 'approve'
        if (budget.exhausted) throw new BudgetSpent()
        return approved
      }) ?? null
    } catch (err) {
      if (err instanceof BudgetSpent) return null
      throw err
    }
  }
}

/** CPU time this process has used, in ms (every thread: at least what the rules used). */
/** Ends a counterfactual search once the request's rule budget is spent: its answer would not be one. */
class BudgetSpent extends Error {}

/** A decided call whose writes are not yet durable. */
interface Prepared { decision: Decision, record: TransactionRecord, ops: WriteOp[], velocity: VelocityView }
