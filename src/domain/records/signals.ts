import type { Mode } from '../scope.js'
import type { LogRecord } from './log-record.js'

/**
 * A signal change on the compacted `signals` topic (JSON, key "<tenant>:<mode>:<type>:<subject>"): written by
 * POST /v1/signals or by any producer that follows this shape (a carrier's SIM-swap feed, a reputation feed).
 * Materialized on every instance; the signal-updater topology turns each change into a `signal.updated` event.
 */
export type SignalChange = SimSwapChange | IpReputationChange

interface ChangeBase {
  /** Unique per change; the signal.updated event id derives from it. */
  change_id: string
  tenant_id: string
  mode: Mode
  /** When the signal was observed (ms). */
  at_ms: number
  /** Who reported it: an API key id or a feed name. */
  source: string
}

/** A SIM swap reported for a user's phone number; confidence 0..1 (0 clears it). */
export interface SimSwapChange extends ChangeBase { type: 'sim_swap', user_id: string, confidence: number }

/** ip_reputation_v3 of an address or CIDR range: 0 (good) .. 1 (bad); null removes the entry. */
export interface IpReputationChange extends ChangeBase { type: 'ip_reputation', ip: string, score: number | null }

export const signalSubject = (c: SignalChange) => c.type === 'sim_swap' ? c.user_id : c.ip
export const signalKey = (c: SignalChange) => `${c.tenant_id}:${c.mode}:${c.type}:${signalSubject(c)}`

export const signalRecord = (c: SignalChange): LogRecord => ({ key: signalKey(c), value: Buffer.from(JSON.stringify(c)), headers: { tenant_id: c.tenant_id } })
