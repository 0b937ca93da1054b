import { STATUS_CODES } from 'node:http'
import type { Socket } from 'node:net'
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { newId } from '../domain/ids.js'
import { NotConfirmed } from '../stream/confirmation.js'
import { errorBody } from './errors.js'
import { ApiError } from '../services/errors.js'
import { storageUnavailable } from '../services/storage-errors.js'
import { isStorageFault } from '../stores/storage-fault.js'
import { validationError, type AjvError } from '../services/validation.js'

/** Retry-After (seconds) of a 503 not_confirmed: a control-plane write the log did not confirm in time. */
export const NOT_CONFIRMED_RETRY_AFTER_S = 5

/** Any error as the API answers it: its own, or the one its kind maps to (never more than internal_error). */
export function toApiError (err: FastifyError): ApiError {
  if (err instanceof ApiError) return err
  if (isStorageFault(err)) return storageUnavailable(err)
  if (err instanceof NotConfirmed) {
    return new ApiError('not_confirmed', 'The change was not confirmed in time (the event log is unavailable or slow); it may still be applied: read it back, or retry with the same Idempotency-Key.')
  }
  if (Array.isArray(err.validation)) return validationError(err.validation as AjvError[])
  switch (err.code) {
    case 'FST_ERR_BAD_URL':
      return new ApiError('invalid_url', 'The request URL is not valid (malformed percent-encoding).')
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new ApiError('url_too_long', 'A path parameter of the request URL is longer than 100 characters.')
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError('invalid_json', `The request body is not valid JSON: ${err.message}`)
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError('body_too_large', 'The request body is larger than the limit for this endpoint.')
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError('unsupported_media_type', 'Send the request body as application/json.')
  }
  if (err instanceof SyntaxError || err.statusCode === 400) {
    return new ApiError('invalid_json', `The request body is not valid JSON: ${err.message}`)
  }
  if (err.statusCode !== undefined && err.statusCode >= 400 && err.statusCode < 500) {
    return new ApiError('invalid_request', err.message, undefined, err.statusCode)
  }
  return new ApiError('internal_error', 'An internal error occurred; the request was not recorded. Retry with the same Idempotency-Key.')
}

export function errorHandler (err: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const apiError = toApiError(err)
  if (apiError.statusCode >= 500) request.log.error({ err }, 'request failed')
  if (apiError.code === 'not_confirmed') void reply.header('retry-after', NOT_CONFIRMED_RETRY_AFTER_S)
  if (apiError.retryAfterS !== undefined) void reply.header('retry-after', apiError.retryAfterS)
  // Refused before its body was read (rate limited, unauthenticated, too large): the connection is closed rather
  // than the rest of the body read and thrown away, which would cost the service what the refusal saves.
  if (!request.raw.complete) void reply.header('connection', 'close')
  void reply.code(apiError.statusCode).header('x-trace-id', request.id).send(errorBody(apiError, request.id))
}

/**
 * Errors Node's HTTP parser meets before fastify sees a request (headers over the size limit, malformed
 * request lines or headers): the same envelope and X-Trace-Id, written on the raw socket, then closed.
 */
export function clientErrorHandler (err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return
  const error = err.code === 'HPE_HEADER_OVERFLOW'
    ? new ApiError('headers_too_large', 'The request headers are larger than the limit (16 KiB).')
    : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? new ApiError('request_timeout', 'The request was not received in time.')
      : new ApiError('malformed_request', 'The request is not valid HTTP/1.1 (malformed request line or headers).')
  const status = error.statusCode
  const traceId = newId('trc')
  const body = JSON.stringify(errorBody(error, traceId))
  if (socket.writable) {
    socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Trace-Id: ${traceId}\r\nConnection: close\r\n\r\n${body}`)
  }
  socket.destroy(err)
}

export function notFoundHandler (request: FastifyRequest, reply: FastifyReply): void {
  const err = new ApiError('resource_missing', `Unrecognized request URL (${request.method} ${request.url}).`)
  void reply.code(404).send(errorBody(err, request.id))
}

/**
 * A request whose path names a route but whose method is not one of the route's: 405 method_not_allowed, with
 * Allow listing the route's methods. Decided in onRequest, before authentication and before any body is read.
 */
export function methodNotAllowed (request: FastifyRequest, reply: FastifyReply, allowed: string[]): FastifyReply {
  const path = request.url.split('?', 1)[0]
  const err = new ApiError('method_not_allowed', `${request.method} is not allowed on ${path}; use ${allowed.join(', ')}.`)
  return reply.code(405).header('allow', allowed.join(', ')).send(errorBody(err, request.id))
}
