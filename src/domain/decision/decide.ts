import { activation } from '../rules/language.js'
import type { RuleBudget } from '../rules/budget.js'
import { rolloutBucket, rolloutSubject } from '../rules/rollout.js'
import { inEvaluationOrder, type CompiledRuleset } from '../rules/ruleset.js'
import { riskLevel } from './risk-level.js'
import { combine, evaluateRules, withShadow } from './stage1-rules.js'
import { scoreFeatures, type ScoringModel } from '../model/model.js'
import { applyOverrides } from './stage3-overrides.js'
import type { Action, CaseGate, Decision, Features, Override, ScoreRequest, TenantPolicy } from './types.js'

/** Everything a decision depends on besides the request: read from local state before deciding. */
export interface DecisionContext {
  features: Features
  policy: TenantPolicy
  /** The policy's ruleset compiled (derived from policy.ruleset; compiled once per version). */
  rules: CompiledRuleset
  signals: Record<string, number>
  /** The tenant's active Stage 2 model. */
  model: ScoringModel
  overrides: Override[]
  caseGates: CaseGate[]
  /**
   * When the service recorded the decision: its arrival, never the request's event_time (a replay deployment's
   * RECORDED_TIME=event_time aside). The Stage 3 gates in force then apply.
   */
  now_ms: number
  /** Tenant id: part of the rollout hash. */
  tenant: string
  /** Rollout subject when the request names no user, device, email or IP (the trace id). */
  fallback_subject: string
  /** The request's rule time budget (rules past it are skipped and reported in rule_errors); none: unbounded. */
  budget?: RuleBudget
}

export interface Evaluation {
  decision: Omit<Decision, 'trace_id' | 'latency_ms'>
  /** Rules whose expression failed on this request (a missing attribute, say): they did not match. */
  rule_errors: Array<{ id: string, error: string }>
  /** Rollout bucket (0..100) of this request in each rule pack of the ruleset. */
  rollout_buckets: Record<string, number>
  base_action: Action
  override_gate: string | null
  ruleset_version: string
  model_version: string
}

/**
 * The whole decision, pure: Stage 1 rules, Stage 2 score, Stage 3 override gates.
 * Same request + same context => same evaluation, which is what makes stored decisions re-evaluable.
 * Shadow rules are evaluated too and reported under `shadow`; they never change `action`.
 */
export function decide (request: ScoreRequest, ctx: DecisionContext): Evaluation {
  const bound = activation({ request, features: ctx.features, signals: ctx.signals, lists: ctx.rules.lists }, ctx.budget)
  const subject = rolloutSubject(request, ctx.fallback_subject)
  const rollout_buckets: Record<string, number> = {}
  const shadow = ctx.rules.shadow.slice()
  for (const pack of ctx.rules.packs) {
    const bucket = rolloutBucket(ctx.tenant, pack.pack, subject)
    rollout_buckets[pack.pack] = bucket
    if (bucket < pack.percentage) shadow.push(...pack.entries)
  }
  const rules = evaluateRules(ctx.rules.enforce, inEvaluationOrder(shadow), bound)
  const { score, signals } = scoreFeatures(ctx.features, ctx.model)
  const level = riskLevel(score, ctx.policy.thresholds)
  const scored = ctx.policy.actions[level]
  const baseAction = combine(rules.enforce, scored)
  const gated = applyOverrides(request, baseAction, ctx.overrides, ctx.caseGates, ctx.now_ms)
  const decision: Evaluation['decision'] = { score, risk_level: level, action: gated.action, signals, rules: rules.enforce.matched }
  if (gated.gate !== null) decision.override_gate = gated.gate
  if (rules.shadow !== undefined) {
    const shadowBase = combine(withShadow(rules.enforce, rules.shadow), scored)
    decision.shadow = { action: applyOverrides(request, shadowBase, ctx.overrides, ctx.caseGates, ctx.now_ms).action, rules: rules.shadow.matched }
  }
  return {
    decision,
    rule_errors: rules.errors,
    rollout_buckets,
    base_action: baseAction,
    override_gate: gated.gate,
    ruleset_version: ctx.rules.version,
    model_version: ctx.model.version
  }
}
