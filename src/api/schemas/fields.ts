import type { Schema } from './named.js'

/** Field shapes the resources share. */
export const str = (description?: string): Schema => ({ type: 'string', ...(description === undefined ? {} : { description }) })
export const int = (description?: string): Schema => ({ type: 'integer', ...(description === undefined ? {} : { description }) })
export const num = (description?: string): Schema => ({ type: 'number', ...(description === undefined ? {} : { description }) })
export const bool = (description?: string): Schema => ({ type: 'boolean', ...(description === undefined ? {} : { description }) })
export const oneOf = (values: readonly string[], description?: string): Schema => ({ type: 'string', enum: [...values], ...(description === undefined ? {} : { description }) })
export const strings = (description?: string): Schema => ({ type: 'array', items: { type: 'string' }, ...(description === undefined ? {} : { description }) })
/** A unix time in seconds. */
export const time = (description = 'Unix time, seconds.'): Schema => ({ type: 'integer', description })
export const object = (name: string): Schema => ({ type: 'string', const: name, description: 'The kind of object.' })
export const livemode: Schema = { type: 'boolean', description: 'true in live mode, false in the sandbox (test keys).' }
export const ACTIONS = ['approve', 'flag', 'reject'] as const
/** An object with these properties, all required unless listed in `optional`. */
export function shape (properties: Record<string, Schema>, optional: readonly string[] = [], extra: Schema = {}): Schema {
  return { type: 'object', additionalProperties: false, required: Object.keys(properties).filter(k => !optional.includes(k)), properties, ...extra }
}
