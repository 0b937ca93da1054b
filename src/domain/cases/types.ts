import type { Subject } from '../decision/types.js'
import type { Mode } from '../scope.js'
import type { CaseTransaction } from './transaction-summary.js'

/**
 * A case: opened by a `flag` decision (case-opener topology) or by an analyst, reviewed, then closed with an
 * outcome. States: open -> in_review (assigned) -> closed (dispositioned); see transitions.ts.
 */
export type CaseStatus = 'open' | 'in_review' | 'closed'
export type CaseOutcome = 'fraud' | 'safe' | 'chargeback'
export const CASE_OUTCOMES: readonly CaseOutcome[] = ['fraud', 'safe', 'chargeback']

/** Who a case is about (card = custom.card_fingerprint): its Stage 3 gates and deny-list entries apply to them. */
export type CaseSubjects = Partial<Record<Subject, string>>

/**
 * What one case may hold, so its state (one record of the `cases` topic, rewritten whole on every change) stays
 * far under a log record's 1 MB whatever its users send: at most MAX_HISTORY changes, MAX_NOTES notes of at most
 * NOTE_MAX_LENGTH characters, and CASE_MAX_BYTES of JSON (a character can take six bytes there) for any change
 * but a disposition, of which a case has at most two (each under DISPOSITION_MAX_BYTES: a 1,000-character reason
 * and a 200-character analyst).
 */
export const MAX_HISTORY = 400
export const MAX_NOTES = 100
export const NOTE_MAX_LENGTH = 2000
export const CASE_MAX_BYTES = 256_000
/** A name kept beside an actor's id in each entry is cut to this many characters. */
export const ACTOR_NAME_MAX = 64

/** One accepted change, kept in the case's history: its trail, notes included. */
export interface CaseEntry {
  command_id: string
  type: 'opened' | 'assigned' | 'noted' | 'dispositioned'
  at_ms: number
  actor: string
  /** The actor's name when it has one (a dashboard user's), as it was then. */
  actor_name?: string
  /** A note's text. */
  body?: string
  assignee?: string
  outcome?: CaseOutcome
  reason?: string
  analyst?: string
  /** `safe` outcomes: later flags of the case's subjects are demoted to approve until then. */
  demote_until_ms?: number
}

export interface Case {
  id: string
  tenant_id: string
  mode: Mode
  trace_id: string | null
  status: CaseStatus
  outcome: CaseOutcome | null
  assignee: string | null
  reason: string
  opened_by: 'rule' | 'analyst'
  /** The enforce rules that matched the flagged decision. */
  rules: string[]
  /** The decision's score, when the case is about a scored transaction (absent on cases opened before it was kept). */
  score?: number | null
  subjects: CaseSubjects
  /** The transaction the case is about, as it was scored (absent on cases opened without one, or before it was kept). */
  transaction?: CaseTransaction | null
  created_ms: number
  updated_ms: number
  /** Number of accepted transitions; the state with the highest version wins. */
  version: number
  history: CaseEntry[]
}
