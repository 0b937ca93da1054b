import type { Action } from './types.js'

const SEVERITY: Record<Action, number> = { approve: 0, flag: 1, reject: 2 }

/** The more severe of two actions: reject > flag > approve. */
export function stricter (a: Action, b: Action): Action {
  return SEVERITY[a] >= SEVERITY[b] ? a : b
}
