import type { ScoreRequest } from '../../domain/decision/types.js'
import type { Scope } from '../../domain/scope.js'
import { BUILT_IN_DIMENSIONS, countedBy, dimensionValue, LABEL_PREFIX, recordDimension, type VelocityNeed } from '../../domain/features/velocity-spec.js'
import { stateId, TAG } from '../keys.js'

/**
 * Which records one event needs: those its increments touch and, for a request, those the features of the
 * ruleset's needs read. Plans do no I/O; the write-back cache loads the records they name.
 */
export interface Plan {
  /** Dimension -> the id of the record of the event's value for it, for loading. */
  records: Map<string, string>
  /** The (dimension, other dimension) pairs of the distinct needs planned (pairOf). */
  linked: Set<string>
  /** Dimensions with values, and the distinct pairs, that this event increments. */
  tracked: Array<[string, string]>
  pairs: Array<[string, string, string, string]>
}

/** What an event increments: what its journal entry keeps. */
export type Increments = Pick<Plan, 'tracked' | 'pairs'>

/**
 * A record's id: the text of its state key (stateId). Lookups use the text; the key bytes are made only for
 * records read from or written to the store (recordKey).
 */
export const recordId = (scope: Scope, dim: string, value: string): string =>
  stateId(TAG.velocity, scope.tenant, scope.mode, dim, value, 'c')
export const recordKey = (rid: string): Buffer => Buffer.from(rid)
export const pairOf = (dim: string, of: string) => `${dim}\u0000${of}`

/** A plan of no records yet; `addRecord` adds a dimension value's record, `addLink` a distinct pair to it. */
function emptyPlan (): Plan {
  return { records: new Map(), linked: new Set(), tracked: [], pairs: [] }
}

/**
 * A request has one value a dimension: its record is planned once, however many needs read it. An alias reads
 * the record of the dimension it stands for (recordDimension).
 */
function addRecord (p: Plan, scope: Scope, dim: string, value: string): void {
  if (!p.records.has(dim)) p.records.set(dim, recordId(scope, recordDimension(dim), value))
}

/** False when the (dimension, other dimension) pair was in the plan already. */
function addLink (p: Plan, scope: Scope, dim: string, value: string, of: string): boolean {
  addRecord(p, scope, dim, value)
  const pair = pairOf(dim, of)
  if (p.linked.has(pair)) return false
  p.linked.add(pair)
  return true
}

/** Every record the event's increments touch and, with `windows`, those the features of `needs` read. */
export function requestPlan (scope: Scope, request: ScoreRequest, needs: readonly VelocityNeed[], windows = true): Plan {
  const p = emptyPlan()
  const dims = new Set<string>(BUILT_IN_DIMENSIONS)
  for (const n of needs) if (n.aggregate !== 'distinct') dims.add(n.dimension)
  for (const dim of dims) {
    const value = dimensionValue(request, dim)
    if (value === undefined) continue
    const counted = countedBy(request, dim)
    if (counted) p.tracked.push([dim, value])
    if (counted || windows) addRecord(p, scope, dim, value)
  }
  for (const n of needs) {
    if (n.aggregate !== 'distinct') continue
    const value = dimensionValue(request, n.dimension)
    const other = dimensionValue(request, n.of)
    if (value === undefined) continue
    // an alias's links are read, written only through the dimension it stands for
    if (addLink(p, scope, n.dimension, value, n.of) && other !== undefined && recordDimension(n.dimension) === n.dimension) p.pairs.push([n.dimension, value, n.of, other])
  }
  return p
}

/** The records a fraud label increments: label.<dimension> for each of the labelled transaction's dimensions. */
export function labelPlan (scope: Scope, request: ScoreRequest): Plan {
  const p = emptyPlan()
  for (const dim of [...BUILT_IN_DIMENSIONS, 'merchant', 'ip24', 'email_domain']) {
    const value = dimensionValue(request, dim)
    if (value === undefined) continue
    p.tracked.push([LABEL_PREFIX + dim, value])
    addRecord(p, scope, LABEL_PREFIX + dim, value)
  }
  return p
}

/** The records increments made earlier touch (their counter records, their link records): a journal replay. */
export function replayPlan (scope: Scope, increments: Increments): Plan {
  const p = emptyPlan()
  for (const [dim, value] of increments.tracked) addRecord(p, scope, dim, value)
  for (const [dim, value, of] of increments.pairs) addLink(p, scope, dim, value, of)
  return { ...p, tracked: increments.tracked, pairs: increments.pairs }
}
