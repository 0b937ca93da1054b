import type { ApiError } from './errors.js'
import type { caseResource } from './case-commands.js'

/** At most this many cases in one bulk disposition. */
export const MAX_BULK_CASES = 100
/** Cases disposed at once: each is a command its writer applies on its own. */
const CONCURRENCY = 8

type CaseResource = ReturnType<typeof caseResource>
export type BulkResult =
  | { id: string, disposed: true, case: CaseResource }
  | { id: string, disposed: false, error: { type: string, code: string, message: string } }

/**
 * POST /v1/cases/dispositions: one command per case, each all-or-nothing and audited on its own (as a single
 * disposition is), so one case refused (closed already, another tenant's, missing) leaves the others disposed.
 * The answer lists every case in the order given, with the case or the error it earned (`asApiError` says which:
 * a refusal, or not_confirmed when the log did not confirm it in time), so an answer never hides a case closed.
 */
export async function disposeCases (ids: readonly string[], dispose: (id: string) => Promise<CaseResource>, asApiError: (e: unknown) => ApiError) {
  const results: BulkResult[] = new Array(ids.length)
  let next = 0
  const worker = async () => {
    for (let i = next++; i < ids.length; i = next++) {
      const id = ids[i]!
      try {
        results[i] = { id, disposed: true, case: await dispose(id) }
      } catch (err) {
        const e = asApiError(err)
        results[i] = { id, disposed: false, error: { type: e.type, code: e.code, message: e.message } }
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, ids.length) }, worker))
  const disposed = results.filter(r => r.disposed).length
  return { object: 'bulk_disposition', disposed, failed: results.length - disposed, data: results }
}
