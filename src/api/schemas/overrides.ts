import { SUBJECTS } from '../../domain/decision/subjects.js'
import { define, listOf } from './named.js'
import { ACTIONS, bool, livemode, object, oneOf, str, time } from './fields.js'

export const Override = define('Override', {
  description: 'A decision forced for one subject until it expires or is removed.',
  type: 'object',
  required: ['object', 'id', 'livemode', 'subject', 'value', 'action', 'reason', 'created', 'expires_at', 'active'],
  properties: {
    object: object('override'),
    id: str(),
    livemode,
    subject: oneOf(SUBJECTS),
    value: str(),
    action: oneOf(ACTIONS),
    reason: str(),
    created: time(),
    expires_at: { type: ['integer', 'null'], description: 'Unix seconds; null: until removed.' },
    active: bool('Whether it applies now (not expired).')
  }
})
export const OverrideList = listOf(Override)
