import { scanUnclosed } from '../stores/cases.js'
import type { StateDb } from '../stores/state-db.js'
import type { Scope } from '../domain/scope.js'

/** The assignees a summary names, the most loaded first. */
export const MAX_ASSIGNEES = 50
/** A summary counts at most this many open and in-review cases (then `capped`: the counts are at least these). */
export const SUMMARY_MAX = 100_000

/**
 * GET /v1/cases/summary: the queue at a glance for the caller's tenant and mode: how many cases are open and in
 * review, when the oldest of them was opened, who has cases in review (the most first, at most MAX_ASSIGNEES), and
 * (given an assignee) how many in review are theirs. One pass over the queue index (open and in-review cases
 * only, a few small fields each; closed cases are not read), of at most SUMMARY_MAX entries: the oldest ones,
 * since ids sort by opening time.
 */
export async function caseSummary (state: StateDb, scope: Scope, nowMs: number, assignee?: string) {
  let open = 0
  let inReview = 0
  let assigned = 0
  let oldest: number | undefined
  const byAssignee = new Map<string, number>()
  let seen = 0
  for await (const c of scanUnclosed(state, scope, undefined, SUMMARY_MAX + 1)) {
    if (++seen > SUMMARY_MAX) break
    if (c.status === 'open') open++
    else {
      inReview++
      if (c.assignee === assignee) assigned++
      if (c.assignee !== null) byAssignee.set(c.assignee, (byAssignee.get(c.assignee) ?? 0) + 1)
    }
    if (oldest === undefined || c.created_ms < oldest) oldest = c.created_ms
  }
  return {
    object: 'case_summary',
    capped: seen > SUMMARY_MAX,
    open,
    in_review: inReview,
    oldest_unclosed_created: oldest === undefined ? null : Math.floor(oldest / 1000),
    oldest_unclosed_age_seconds: oldest === undefined ? null : Math.max(0, Math.floor((nowMs - oldest) / 1000)),
    assignees: [...byAssignee].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, MAX_ASSIGNEES).map(([name, n]) => ({ assignee: name, in_review: n })),
    ...(assignee === undefined ? {} : { assigned_in_review: assigned })
  }
}
