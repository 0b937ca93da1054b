import { describe, expect, it } from 'vitest'
import type { FastifyError } from 'fastify'
import { disposeCases } from '../../src/services/bulk-disposition.js'
import { ApiError } from '../../src/services/errors.js'
import { NotConfirmed } from '../../src/stream/confirmation.js'
import { toApiError } from '../../src/api/error-handler.js'

describe('bulk disposition', () => {
  it('answers every case in order, each with its case or its own error, whatever one case\'s failure (none hides a case closed)', async () => {
    const closed: string[] = []
    const result = await disposeCases(['a', 'b', 'c', 'd'], async id => {
      if (id === 'b') throw new ApiError('invalid_transition', 'b is closed')
      if (id === 'c') throw new NotConfirmed('c')
      closed.push(id)
      return { id } as never
    }, e => toApiError(e as FastifyError))
    expect(closed.sort()).toEqual(['a', 'd'])
    expect(result).toMatchObject({ object: 'bulk_disposition', disposed: 2, failed: 2 })
    expect(result.data.map(r => [r.id, r.disposed, r.disposed ? undefined : r.error.code])).toEqual([['a', true, undefined], ['b', false, 'invalid_transition'], ['c', false, 'not_confirmed'], ['d', true, undefined]])
  })
})
