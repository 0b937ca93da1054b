import { createHash } from 'node:crypto'

/** The webhook event envelope (DESIGN.md): id stable across retries, type from the catalog. */
export interface ServiceEvent {
  id: string
  type: 'score.async' | 'case.created' | 'case.dispositioned' | 'rule.triggered' | 'signal.updated'
  /** Unix seconds. */
  created: number
  livemode: boolean
  data: Record<string, unknown>
}

/** An event id derived from what caused it: replays and retries of the same cause give the same id. */
export function stableEventId (...cause: string[]): string {
  return 'evt_' + createHash('sha256').update(cause.join('\u0000')).digest('hex').slice(0, 24)
}
