import { CASE_OUTCOMES } from '../../domain/cases/types.js'
import { define } from './named.js'
import { ACTIONS, bool, int, object, oneOf, shape, str, strings, time } from './fields.js'

const counts = (keys: readonly string[]) => shape(Object.fromEntries(keys.map(k => [k, int()])))

export const Backtest = define('Backtest', {
  description: 'A rule (or a draft expression) evaluated over the stored decisions of a time range, with their later case outcomes.',
  type: 'object',
  required: ['object', 'rule_id', 'expression', 'from', 'to', 'ruleset_version', 'truncated', 'evaluated', 'matched', 'errors', 'matched_by_outcome', 'matched_by_action', 'sample_trace_ids'],
  properties: {
    object: object('backtest'),
    rule_id: str(),
    expression: str(),
    from: time(),
    to: time(),
    ruleset_version: str(),
    truncated: bool('Whether the range held more decisions than a backtest reads (the first ones were evaluated).'),
    evaluated: int(),
    matched: int(),
    errors: int('Decisions on which the expression failed to evaluate.'),
    matched_by_outcome: counts([...CASE_OUTCOMES, 'unlabeled']),
    matched_by_action: counts(ACTIONS),
    sample_trace_ids: strings('Up to 20 matching decisions, oldest first.')
  }
})

export const ExpressionCheck = define('ExpressionCheck', {
  description: 'Whether a rule expression compiles within the cost limit; where it does not, the place and the reason.',
  type: 'object',
  required: ['object', 'valid', 'error', 'cost'],
  properties: {
    object: object('expression_check'),
    valid: bool(),
    error: {
      anyOf: [shape({ message: str(), line: int(), column: int(), code: oneOf(['parameter_invalid', 'expression_too_costly']) }), { type: 'null' }]
    },
    cost: { type: ['number', 'null'], description: 'The expression\u2019s estimated cost in units (docs/rules.md, "Cost").' }
  }
})

export const RuleHits = define('RuleHits', {
  description: 'How often each rule matched over the last hours, enforced and in shadow, and each rollout pack\u2019s current run, counted from the stored decisions.',
  type: 'object',
  required: ['object', 'from', 'to', 'decisions', 'truncated', 'hits', 'packs'],
  properties: {
    object: object('rule_hits'),
    from: time(),
    to: time(),
    decisions: int(),
    truncated: bool('Whether the window held more decisions than are counted.'),
    hits: { type: 'object', additionalProperties: shape({ enforce: int(), shadow: int() }), description: 'By rule id.' },
    packs: {
      type: 'object',
      additionalProperties: shape({ rollout_id: { type: ['string', 'null'], description: 'The pack\u2019s current run.' }, decisions: int('Decisions the run ran for.'), hits: int('Of those, the ones in which one of its rules matched.') }),
      description: 'By rollout pack: what its current run did over the window (its hit rate is hits / decisions).'
    }
  }
})
