/** The error envelope of DESIGN.md: {"error": {type, code, message, param?, trace_id}}. */
export type ErrorType = 'invalid_request_error' | 'authentication_error' | 'permission_error' | 'rate_limit_error' | 'api_error'

export class ApiError extends Error {
  constructor (
    readonly statusCode: number,
    readonly type: ErrorType,
    readonly code: string,
    message: string,
    readonly param?: string
  ) {
    super(message)
  }
}

export function errorBody (err: ApiError, traceId: string) {
  return {
    error: {
      type: err.type,
      code: err.code,
      message: err.message,
      ...(err.param === undefined ? {} : { param: err.param }),
      trace_id: traceId
    }
  }
}

export const notFound = (what: string, id: string) =>
  new ApiError(404, 'invalid_request_error', 'resource_missing', `No such ${what}: '${id}'`, 'id')

export const errorSchema = {
  type: 'object',
  properties: {
    error: {
      type: 'object',
      properties: {
        type: { type: 'string' },
        code: { type: 'string' },
        message: { type: 'string' },
        param: { type: 'string' },
        trace_id: { type: 'string' }
      },
      required: ['type', 'code', 'message', 'trace_id']
    }
  }
} as const
