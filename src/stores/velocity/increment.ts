import type { Plan } from './read-plan.js'
import { count, link, type VelocityRecord } from './record.js'

/**
 * Applies one event's increments to its loaded records (by record id) and returns the records it changed (the
 * others were loaded only to be read); `undo` (when given) collects how to take the increments back.
 */
export function increment<R extends VelocityRecord> (records: Map<string, R>, plan: Plan, eventTimeMs: number, amount: number, undo?: Array<() => void>): R[] {
  const changed: R[] = []
  for (const [dim] of plan.tracked) {
    const record = records.get(plan.records.get(dim)!)!
    if (count(record, eventTimeMs, amount, undo)) changed.push(record)
  }
  for (const [dim, , of, other] of plan.pairs) {
    const record = records.get(plan.records.get(dim)!)!
    changed.push(record)
    link(record, of, other, eventTimeMs, undo)
  }
  return changed
}
