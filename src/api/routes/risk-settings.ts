import type { FastifyPluginAsync } from 'fastify'
import type { RiskSettings } from '../../domain/decision/types.js'
import { policyOf } from '../../domain/decision/default-policy.js'
import { updateRiskSettings } from '../../domain/rules/ruleset-edits.js'
import type { ModelRegistry } from '../../stream/views/model-registry.js'
import { principalScope, type Principal } from '../../services/auth.js'
import { ApiError } from '../../services/errors.js'
import { changeRuleset, type RulesetChangeDeps } from './rules/change.js'

export interface RiskSettingsDeps extends RulesetChangeDeps {
  /** The tenant's active model, shown with the settings. */
  models: Pick<ModelRegistry, 'model' | 'record' | 'challenger'>
}

const level = { type: 'string', enum: ['approve', 'flag', 'reject'] } as const
const unit = { type: 'number', exclusiveMinimum: 0, maximum: 1 } as const

/** Score -> risk level -> default action, per tenant and mode: a ruleset change like any other (versioned, audited). */
export const riskSettingsRoutes: FastifyPluginAsync<RiskSettingsDeps> = async (app, deps) => {
  const { control, models } = deps
  const riskResource = async (p: Principal) => {
    const scope = principalScope(p)
    const { ruleset } = await control.activeRuleset(scope)
    const { thresholds, actions } = policyOf(ruleset)
    const trained = models.record(scope)
    const challenger = models.challenger(scope)
    return {
      object: 'risk_settings',
      livemode: p.mode === 'live',
      thresholds,
      actions,
      ruleset_version: ruleset.version,
      model: { version: models.model(scope).version, trained_labels: trained?.trained ?? 0, trained_through: trained === undefined ? null : Math.floor(trained.trained_through_ms / 1000), rolled_back: trained?.rolled_back ?? null },
      challenger: challenger === undefined
        ? null
        : { version: challenger.model.version, status: challenger.role === undefined ? 'promoted' : challenger.role === 'challenger' ? 'shadow' : 'rejected', trained_through: Math.floor(challenger.trained_through_ms / 1000), evaluation: challenger.evaluation ?? null }
    }
  }
  app.get('/v1/risk_settings', { config: { scope: 'rules:read' } }, request => riskResource(request.caller))
  app.post<{ Body: Partial<RiskSettings> }>('/v1/risk_settings', {
    config: { scope: 'rules:write' },
    schema: {
      body: {
        type: 'object',
        additionalProperties: false,
        properties: {
          thresholds: { type: 'object', additionalProperties: false, required: ['medium', 'high'], properties: { medium: unit, high: unit } },
          actions: { type: 'object', additionalProperties: false, required: ['low', 'medium', 'high'], properties: { low: level, medium: level, high: level } }
        }
      }
    }
  }, async request => {
    const p = request.caller
    const { thresholds, actions } = request.body
    if (thresholds !== undefined && thresholds.medium > thresholds.high) {
      throw new ApiError('parameter_invalid', "'thresholds.medium' must not exceed 'thresholds.high'.", 'thresholds.medium')
    }
    await changeRuleset(deps, p, request.id, { type: 'risk_settings.updated' }, ruleset => updateRiskSettings(ruleset, { thresholds, actions }))
    return riskResource(p)
  })
}
