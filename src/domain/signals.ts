import type { SignalChange } from './records/signals.js'

/** The API and event form of a signal change. */
export function signalResource (c: SignalChange) {
  const common = { object: 'signal', id: c.change_id, type: c.type, livemode: c.mode === 'live', observed_at: Math.floor(c.at_ms / 1000), source: c.source }
  return c.type === 'sim_swap' ? { ...common, user_id: c.user_id, confidence: c.confidence } : { ...common, ip: c.ip, score: c.score }
}
