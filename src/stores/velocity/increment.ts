import { keepMostRecent } from './links.js'
import type { Plan } from './read-plan.js'
import type { VelocityRecord } from './record.js'
import { addAt, RESOLUTIONS, subtractAt, unitOf } from './slots.js'

/** Values kept per distinct count: the most recently seen. */
const LINKS_KEPT = 256

/**
 * Applies one event's increments to its loaded records (by record id) and returns the records it changed (the
 * others were loaded only to be read); `undo` (when given) collects how to take the increments back.
 */
export function increment<R extends VelocityRecord> (records: Map<string, R>, plan: Plan, eventTimeMs: number, amount: number, undo?: Array<() => void>): R[] {
  const changed: R[] = []
  const sq = amount * amount
  for (const [dim] of plan.tracked) {
    const record = records.get(plan.records.get(dim)!)!
    let touched = false
    for (const res of RESOLUTIONS) {
      const s = record.counters[res]
      const unit = unitOf(eventTimeMs, res)
      if (!addAt(s, res, unit, 1, amount, sq)) continue
      touched = true
      undo?.push(() => subtractAt(s, unit, 1, amount, sq))
    }
    if (touched) changed.push(record)
  }
  for (const [dim, , of, other] of plan.pairs) {
    const record = records.get(plan.records.get(dim)!)!
    changed.push(record)
    const sets = record.links ??= new Map()
    let links = sets.get(of)
    if (links === undefined) sets.set(of, links = new Map())
    const before = links.get(other)
    const seen = Math.max(before ?? 0, eventTimeMs)
    links.set(other, seen)
    undo?.push(() => {
      if (links.get(other) !== seen) return // a later event saw the pair since: keep its time
      if (before === undefined) links.delete(other)
      else links.set(other, before)
    })
    keepMostRecent(links, LINKS_KEPT)
  }
  return changed
}
