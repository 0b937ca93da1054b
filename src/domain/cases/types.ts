import type { Subject } from '../decision/types.js'
import type { Mode } from '../scope.js'

/**
 * A case: opened by a `flag` decision (case-opener topology) or by an analyst, reviewed, then closed with an
 * outcome. States: open -> in_review (assigned) -> closed (dispositioned); see transitions.ts.
 */
export type CaseStatus = 'open' | 'in_review' | 'closed'
export type CaseOutcome = 'fraud' | 'safe' | 'chargeback'
export const CASE_OUTCOMES: readonly CaseOutcome[] = ['fraud', 'safe', 'chargeback']

/** Who a case is about (card = custom.card_fingerprint): its Stage 3 gates and deny-list entries apply to them. */
export type CaseSubjects = Partial<Record<Subject, string>>

/** One accepted transition, kept in the case's history. */
export interface CaseEntry {
  command_id: string
  type: 'opened' | 'assigned' | 'dispositioned'
  at_ms: number
  actor: string
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
  created_ms: number
  updated_ms: number
  /** Number of accepted transitions; the state with the highest version wins. */
  version: number
  history: CaseEntry[]
}
