import type { Action, Override, ScoreRequest } from './types.js'

export interface OverrideOutcome { action: Action, gate: string | null }

/**
 * Stage 3: admin overrides promote or demote the action for a subject until they expire.
 * When several match, the most recently created one (highest id) wins: ids sort by creation time.
 */
export function applyOverrides (request: ScoreRequest, action: Action, overrides: readonly Override[], nowMs: number): OverrideOutcome {
  let chosen: Override | undefined
  for (const o of overrides) {
    if (o.expires_at_ms !== null && o.expires_at_ms <= nowMs) continue
    if (request[o.subject] !== o.value) continue
    if (chosen === undefined || o.id > chosen.id) chosen = o
  }
  if (chosen === undefined || chosen.action === action) return { action, gate: null }
  return { action: chosen.action, gate: `admin_override:${chosen.id}` }
}
