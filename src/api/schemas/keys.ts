import { ALL_SCOPES } from '../../domain/records/api-keys.js'
import { define, listOf } from './named.js'
import { livemode, object, oneOf, str, time } from './fields.js'

export const ApiKey = define('ApiKey', {
  description: 'An API key: what it may do (scopes), and its state.',
  type: 'object',
  required: ['object', 'id', 'name', 'livemode', 'scopes', 'status', 'redacted', 'created', 'expires_at', 'rotated_to'],
  properties: {
    object: object('api_key'),
    id: str(),
    name: str(),
    livemode,
    scopes: { type: 'array', items: oneOf(ALL_SCOPES) },
    status: oneOf(['active', 'revoked']),
    redacted: { type: ['string', 'null'], description: 'The key with all but its last characters hidden.' },
    created: time(),
    expires_at: { type: ['integer', 'null'], description: 'After a rotation, when the old key stops working (unix seconds).' },
    rotated_to: { type: ['string', 'null'], description: 'The id of the key that replaced this one.' },
    secret: str('The key itself (sk_test_..., sk_live_...): only in the answer that created or rotated it.')
  }
})
export const ApiKeyList = listOf(ApiKey)
