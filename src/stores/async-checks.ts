import { prefixRange, stateKey, TAG } from './keys.js'
import { scanJson } from './rocks.js'
import type { StateDb } from './state-db.js'
import type { StoreWrites } from './writes.js'
import type { Scope } from '../domain/scope.js'
import type { ServiceEvent } from '../domain/records/events.js'

/** A deferred check's report (a `score.async` event's data, less the trace id it is keyed by). */
export type AsyncCheck = Record<string, unknown> & { check: string }

const key = (scope: Scope, traceId: string, check: string) => stateKey(TAG.asyncCheck, scope.tenant, scope.mode, traceId, check)

/** Keeps a `score.async` event's report by tenant, mode and trace id; other events are not kept here. */
export function applyAsyncCheckEvent (tenant: string | undefined, event: ServiceEvent, writes: StoreWrites): void {
  const traceId = event.data.trace_id
  if (event.type !== 'score.async' || tenant === undefined || typeof traceId !== 'string') return
  const { trace_id: _, ...report } = event.data
  writes.put(key({ tenant, mode: event.livemode ? 'live' : 'test' }, traceId, String(report.check)), Buffer.from(JSON.stringify(report)))
}

/** The deferred checks reported for one decision. */
export async function asyncChecksOf (state: StateDb, scope: Scope, traceId: string): Promise<AsyncCheck[]> {
  const [gte, lt] = prefixRange(TAG.asyncCheck, scope.tenant, scope.mode, traceId)
  const out: AsyncCheck[] = []
  for await (const c of scanJson<AsyncCheck>(state.db, gte, lt)) out.push(c)
  return out
}
