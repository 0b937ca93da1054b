import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { ApiError, errorBody } from './errors.js'

/** How request bodies are validated everywhere (fastify routes, batch events, gRPC): no coercion, nothing dropped, first error. */
export const AJV_OPTIONS = { coerceTypes: false, removeAdditional: false, allErrors: false } as const

interface AjvError { keyword: string, instancePath: string, params: Record<string, unknown>, message?: string }

function paramPath (instancePath: string): string {
  return instancePath.replace(/^\//, '').split('/').join('.')
}

/** Maps an Ajv validation failure to parameter_missing / parameter_invalid naming the parameter. */
export function validationError (errors: AjvError[]): ApiError {
  const first = errors[0]!
  if (first.keyword === 'required') {
    const name = [paramPath(first.instancePath), String(first.params.missingProperty)].filter(s => s !== '').join('.')
    return new ApiError(400, 'invalid_request_error', 'parameter_missing', `Missing required parameter: '${name}'.`, name)
  }
  if (first.keyword === 'additionalProperties') {
    const name = [paramPath(first.instancePath), String(first.params.additionalProperty)].filter(s => s !== '').join('.')
    return new ApiError(400, 'invalid_request_error', 'parameter_unknown', `Received unknown parameter: '${name}'.`, name)
  }
  const param = paramPath(first.instancePath)
  if (param === '') {
    const message = first.keyword === 'type' ? 'The request body must be a JSON object.' : `The request body ${first.message ?? 'is invalid'}.`
    return new ApiError(400, 'invalid_request_error', 'parameter_invalid', message)
  }
  const why = first.keyword === 'anyOf' || first.keyword === 'format'
    ? (param === 'ip' ? 'must be an IPv4 or IPv6 address' : `must be a valid ${String(first.params.format ?? 'value')}`)
    : first.message ?? 'is invalid'
  return new ApiError(400, 'invalid_request_error', 'parameter_invalid', `Invalid value for '${param}': ${why}.`, param)
}

function toApiError (err: FastifyError): ApiError {
  if (err instanceof ApiError) return err
  if (Array.isArray(err.validation)) return validationError(err.validation as AjvError[])
  switch (err.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError(400, 'invalid_request_error', 'invalid_json', `The request body is not valid JSON: ${err.message}`)
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError(413, 'invalid_request_error', 'body_too_large', 'The request body is larger than the limit for this endpoint.')
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError(415, 'invalid_request_error', 'unsupported_media_type', 'Send the request body as application/json.')
  }
  if (err instanceof SyntaxError || err.statusCode === 400) {
    return new ApiError(400, 'invalid_request_error', 'invalid_json', `The request body is not valid JSON: ${err.message}`)
  }
  if (err.statusCode !== undefined && err.statusCode >= 400 && err.statusCode < 500) {
    return new ApiError(err.statusCode, 'invalid_request_error', 'invalid_request', err.message)
  }
  return new ApiError(500, 'api_error', 'internal_error', 'An internal error occurred; the request was not recorded. Retry with the same Idempotency-Key.')
}

export function errorHandler (err: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const apiError = toApiError(err)
  if (apiError.statusCode >= 500) request.log.error({ err }, 'request failed')
  void reply.code(apiError.statusCode).send(errorBody(apiError, request.id))
}

export function notFoundHandler (request: FastifyRequest, reply: FastifyReply): void {
  const err = new ApiError(404, 'invalid_request_error', 'resource_missing', `Unrecognized request URL (${request.method} ${request.url}).`)
  void reply.code(404).send(errorBody(err, request.id))
}
