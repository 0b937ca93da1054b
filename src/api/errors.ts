import type { ApiError } from '../services/errors.js'

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
