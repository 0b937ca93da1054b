import { scanCases } from '../stores/cases.js'
import type { StateDb } from '../stores/state-db.js'
import type { Scope } from '../domain/scope.js'

/**
 * GET /v1/cases/summary: the queue at a glance for the caller's tenant and mode: how many cases are open and in
 * review, when the oldest of them was opened, and (given an assignee) how many in review are theirs. One pass
 * over the tenant's cases (10,000 in about a tenth of a second; docs/cases.md).
 */
export async function caseSummary (state: StateDb, scope: Scope, nowMs: number, assignee?: string) {
  let open = 0
  let inReview = 0
  let assigned = 0
  let oldest: number | undefined
  for await (const c of scanCases(state, scope)) {
    if (c.status === 'closed') continue
    if (c.status === 'open') open++
    else {
      inReview++
      if (c.assignee === assignee) assigned++
    }
    if (oldest === undefined || c.created_ms < oldest) oldest = c.created_ms
  }
  return {
    object: 'case_summary',
    open,
    in_review: inReview,
    oldest_unclosed_created: oldest === undefined ? null : Math.floor(oldest / 1000),
    oldest_unclosed_age_seconds: oldest === undefined ? null : Math.max(0, Math.floor((nowMs - oldest) / 1000)),
    ...(assignee === undefined ? {} : { assigned_in_review: assigned })
  }
}
