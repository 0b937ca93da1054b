import { ApiError } from './errors.js'
import { pathOf } from './input-limits.js'

/** How request bodies are validated everywhere (fastify routes, batch events, gRPC): no coercion, nothing dropped, first error. */
export const AJV_OPTIONS = { coerceTypes: false, removeAdditional: false, allErrors: false, allowUnionTypes: true } as const

export interface AjvError { keyword: string, instancePath: string, params: Record<string, unknown>, message?: string, propertyName?: string }

/** The param an Ajv instance path names, as input-limits.ts names paths (events.2.amount, metadata[""]). */
function paramPath (instancePath: string): string {
  if (instancePath === '') return ''
  return instancePath.slice(1).split('/').map(t => t.replace(/~1/g, '/').replace(/~0/g, '~')).reduce<string>((path, key) => pathOf(path, key), '')
}

const quoted = (names: string[]) => names.map(n => `'${n}'`).join(' or ')

/** Maps an Ajv validation failure to parameter_missing / parameter_invalid naming the parameter. */
export function validationError (errors: AjvError[]): ApiError {
  const first = errors[0]!
  const last = errors[errors.length - 1]!
  // anyOf of required sets (e.g. trace_id or subjects): every alternative is missing.
  if (last.keyword === 'anyOf' && errors.length > 1 && errors.slice(0, -1).every(e => e.keyword === 'required' && e.instancePath === last.instancePath)) {
    const names = errors.slice(0, -1).map(e => pathOf(paramPath(e.instancePath), String(e.params.missingProperty)))
    return new ApiError('parameter_missing', `Give ${quoted(names)}.`, names[0])
  }
  if (first.keyword === 'required') {
    const name = pathOf(paramPath(first.instancePath), String(first.params.missingProperty))
    return new ApiError('parameter_missing', `Missing required parameter: '${name}'.`, name)
  }
  if (first.keyword === 'additionalProperties') {
    const name = pathOf(paramPath(first.instancePath), String(first.params.additionalProperty))
    return new ApiError('parameter_unknown', `Received unknown parameter: '${name}'.`, name)
  }
  if (first.propertyName !== undefined) {
    // A key that propertyNames refuses (e.g. an empty or over-long key of metadata): named as the key's path.
    const name = pathOf(paramPath(first.instancePath), first.propertyName.slice(0, 40))
    return new ApiError('parameter_invalid', `Invalid key '${name}': ${first.message ?? 'is invalid'}.`, name)
  }
  const param = paramPath(first.instancePath)
  if (param === '') {
    const message = first.keyword === 'type' ? 'The request body must be a JSON object.' : `The request body ${first.message ?? 'is invalid'}.`
    return new ApiError('parameter_invalid', message)
  }
  const why = first.keyword === 'anyOf' || first.keyword === 'format'
    ? (param === 'ip' ? 'must be an IPv4 or IPv6 address' : `must be a valid ${String(first.params.format ?? 'value')}`)
    : first.message ?? 'is invalid'
  return new ApiError('parameter_invalid', `Invalid value for '${param}': ${why}.`, param)
}
