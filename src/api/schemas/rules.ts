import { define, listOf, ref } from './named.js'
import { ACTIONS, int, num, object, oneOf, shape, str, strings } from './fields.js'

const ruleFields = {
  id: str(),
  name: str(),
  expression: str('A CEL expression over the request and the features (docs/rules.md).'),
  action: oneOf(ACTIONS),
  mode: oneOf(['enforce', 'shadow'], '`enforce` rules decide; `shadow` ones are only reported (decision.shadow).'),
  priority: int('Lower runs first among rules of the same action.'),
  description: str(),
  status: oneOf(['active', 'disabled'])
}

export const RuleVersion = define('RuleVersion', {
  description: 'A rule as one ruleset version that changed it left it.',
  ...shape({
    ruleset_version: str(),
    created: int('Unix seconds.'),
    actor: str('Who made the change.'),
    change: oneOf(['rule.upserted', 'rollout.updated', 'rollout.promoted'], 'What changed the rule: a save, a rollout that moved it to shadow, or the promotion of its pack to enforce.'),
    rule: shape(ruleFields)
  })
})

export const Rule = define('Rule', {
  description: 'A rule of the tenant\u2019s active ruleset.',
  type: 'object',
  required: ['object', ...Object.keys(ruleFields), 'ruleset_version'],
  properties: {
    object: object('rule'),
    ...ruleFields,
    ruleset_version: str('The ruleset version this view of the rule belongs to.'),
    history: {
      type: 'array',
      description: 'The rule in every ruleset version that changed it, oldest first (GET /v1/rules/{id} only).',
      items: ref(RuleVersion)
    }
  }
})
export const RuleList = listOf(Rule)

export const ValueList = define('ValueList', {
  description: 'A value list rules read with in_list(alias, value).',
  type: 'object',
  required: ['object', 'alias', 'item_type', 'items_count'],
  properties: {
    object: object('value_list'),
    alias: str(),
    item_type: oneOf(['user_id', 'email', 'device_id', 'ip', 'country', 'card', 'string']),
    items_count: int(),
    items: strings('The values (for `ip`, addresses and CIDR ranges); GET /v1/lists/{alias} only.')
  }
})
export const ValueListList = listOf(ValueList)

const share = num()
const StopConditions = shape({ max_hit_rate: share, min_decisions: int(), min_precision: share, min_matured_hits: int() },
  ['max_hit_rate', 'min_decisions', 'min_precision', 'min_matured_hits'])
const Stopped = shape({
  reason: oneOf(['hit_rate', 'precision', 'stop_requested', 'promoted'], '`hit_rate` or `precision`: a stop condition was crossed (with the figures); `stop_requested`: POST /v1/rules/rollout/{pack}/stop; `promoted`: its rules were made enforce (POST /v1/rules/rollout/{pack}/promote).'),
  at: int('Unix seconds.'),
  actor: str('Who stopped or promoted it (`stop_requested`, `promoted`).'),
  hit_rate: num(),
  precision: { type: ['number', 'null'] },
  decisions: int(),
  hits: int(),
  matured_hits: int(),
  matured_frauds: int()
}, ['actor', 'hit_rate', 'precision', 'decisions', 'hits', 'matured_hits', 'matured_frauds'])

export const Rollout = define('Rollout', {
  description: 'A pack of rules run in shadow for a share of traffic, until a stop condition, a stop or a promotion ends it.',
  type: 'object',
  required: ['object', 'id', 'pack', 'rule_ids', 'percentage', 'mode', 'status', 'stop_conditions', 'stopped', 'ruleset_version'],
  properties: {
    object: object('rollout'),
    id: { type: ['string', 'null'], description: 'This run of the pack.' },
    pack: str(),
    rule_ids: strings(),
    percentage: num('0..100: the share of subjects the pack runs for.'),
    mode: { type: 'string', const: 'shadow' },
    status: oneOf(['running', 'stopped']),
    stop_conditions: { anyOf: [StopConditions, { type: 'null' }] },
    stopped: { anyOf: [Stopped, { type: 'null' }], description: 'Why and when it stopped: the figures that crossed a condition, or who stopped or promoted it.' },
    ruleset_version: str()
  }
})
export const RolloutList = listOf(Rollout)
