import { define } from './named.js'
import { livemode, num, object, oneOf, str, time } from './fields.js'

export const Signal = define('Signal', {
  description: 'A signal change: a SIM swap of a user, or an IP reputation entry.',
  type: 'object',
  required: ['object', 'id', 'type', 'livemode', 'observed_at', 'source'],
  properties: {
    object: object('signal'),
    id: str(),
    type: oneOf(['sim_swap', 'ip_reputation']),
    livemode,
    observed_at: time(),
    source: str(),
    user_id: str('sim_swap only.'),
    confidence: num('sim_swap only: 0..1; 0 clears it.'),
    ip: str('ip_reputation only: an address or CIDR range.'),
    score: { type: ['number', 'null'], description: 'ip_reputation only: 0..1; null removes the entry.' }
  }
})
