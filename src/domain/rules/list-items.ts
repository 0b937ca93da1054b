import type { ValueList } from '../decision/types.js'

/** The last change of each item of one list: true added, false removed. */
export type ItemChanges = ReadonlyMap<string, boolean>

/**
 * A list's items: those its ruleset version holds (written before items became their own changes) and those
 * added since, less those removed since; in the order they came.
 */
export function itemsOf (list: ValueList, changes: ItemChanges | undefined): string[] {
  if (changes === undefined || changes.size === 0) return list.items
  const held = new Set(list.items)
  const items = list.items.filter(v => changes.get(v) !== false)
  for (const [value, added] of changes) if (added && !held.has(value)) items.push(value)
  return items
}
