import { stricter } from './actions.js'
import { riskLevel } from './risk-level.js'
import { evaluateRules } from './stage1-rules.js'
import { MODEL_VERSION, scoreFeatures } from './stage2-score.js'
import { applyOverrides } from './stage3-overrides.js'
import type { DecisionContext, Evaluation, ScoreRequest } from './types.js'

/**
 * The whole decision, pure: Stage 1 rules, Stage 2 score, Stage 3 override gates.
 * Same request + same context => same evaluation, which is what makes stored decisions re-evaluable.
 */
export function decide (request: ScoreRequest, ctx: DecisionContext): Evaluation {
  const rules = evaluateRules(request, ctx.policy.ruleset)
  const { score, signals } = scoreFeatures(ctx.features)
  const level = riskLevel(score, ctx.policy.thresholds)
  const scored = ctx.policy.actions[level]
  const baseAction = rules.action === null ? scored : stricter(rules.action, scored)
  const gated = applyOverrides(request, baseAction, ctx.overrides, ctx.now_ms)
  return {
    decision: { score, risk_level: level, action: gated.action, signals, rules: rules.matched },
    base_action: baseAction,
    override_gate: gated.gate,
    ruleset_version: ctx.policy.ruleset.version,
    model_version: MODEL_VERSION
  }
}
