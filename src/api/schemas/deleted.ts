import { define } from './named.js'
import { str } from './fields.js'

export const Deleted = define('Deleted', {
  description: 'What a DELETE removed.',
  type: 'object',
  required: ['object', 'deleted'],
  properties: {
    object: str('The kind of object deleted.'),
    id: str(),
    alias: str('A value list\u2019s alias.'),
    deleted: { type: 'boolean', const: true }
  }
})
