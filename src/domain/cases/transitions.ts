import { ACTOR_NAME_MAX, CASE_MAX_BYTES, CASE_OUTCOMES, MAX_HISTORY, MAX_NOTES, type Case, type CaseEntry } from './types.js'
import type { CaseCommand } from '../records/case-commands.js'
import type { CommandError } from '../records/cases.js'

export type Transition =
  | { accepted: true, case: Case, entry: CaseEntry }
  | { accepted: false, error: CommandError }

const jsonBytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value))

const reject = (status: CommandError['status'], code: CommandError['code'], message: string): Transition => ({ accepted: false, error: { status, code, message } })

/**
 * The case state machine, pure. Applied by the single writer of the case (the partition that owns its id).
 *   open                       -> a new case in `open`; a second open of the same id is refused (resource_exists)
 *   assign      open|in_review -> in_review with the assignee (reassignment allowed); closed -> 409
 *   note        any status     -> the same status, the note in the history (at most MAX_NOTES; then 409)
 *   assign or note that would make MAX_HISTORY changes or CASE_MAX_BYTES of JSON -> 409 case_history_full (a
 *               disposition still closes it: there are at most two, so a busy case can always be closed)
 *   disposition open|in_review -> closed with the outcome fraud, safe or chargeback
 *   disposition closed(safe|fraud) -> closed(chargeback) with outcome chargeback; any other -> 409
 */
export function applyCaseCommand (current: Case | undefined, cmd: CaseCommand): Transition {
  const base = { command_id: cmd.id, at_ms: cmd.at_ms, actor: cmd.actor, ...(cmd.actor_name === undefined ? {} : { actor_name: cmd.actor_name.slice(0, ACTOR_NAME_MAX) }) }
  if (cmd.type === 'open') {
    if (current !== undefined) return reject(409, 'resource_exists', `Case ${cmd.case_id} already exists.`)
    const entry: CaseEntry = { ...base, type: 'opened', reason: cmd.reason }
    return {
      accepted: true,
      entry,
      case: {
        id: cmd.case_id,
        tenant_id: cmd.tenant_id,
        mode: cmd.mode,
        trace_id: cmd.trace_id,
        status: 'open',
        outcome: null,
        assignee: null,
        reason: cmd.reason,
        opened_by: cmd.opened_by,
        rules: cmd.rules,
        score: cmd.score ?? null,
        subjects: cmd.subjects,
        ...(cmd.transaction === undefined ? {} : { transaction: cmd.transaction }),
        created_ms: cmd.at_ms,
        updated_ms: cmd.at_ms,
        version: 1,
        history: [entry]
      }
    }
  }
  if (current === undefined) return reject(404, 'resource_missing', `No such case: '${cmd.case_id}'.`)
  const next = (changes: Partial<Case>, entry: CaseEntry): Transition => {
    const c = { ...current, ...changes, updated_ms: cmd.at_ms, version: current.version + 1, history: [...current.history, entry] }
    if (cmd.type !== 'disposition' && jsonBytes(c) > CASE_MAX_BYTES) return reject(409, 'case_history_full', `Case ${current.id} would exceed ${CASE_MAX_BYTES} bytes, the most a case keeps.`)
    return { accepted: true, entry, case: c }
  }

  if (current.history.length >= MAX_HISTORY && cmd.type !== 'disposition') return reject(409, 'case_history_full', `Case ${current.id} has ${MAX_HISTORY} changes, the most a case keeps.`)
  if (cmd.type === 'note') {
    if (current.history.filter(e => e.type === 'noted').length >= MAX_NOTES) return reject(409, 'case_note_limit', `Case ${current.id} has ${MAX_NOTES} notes, the most a case keeps.`)
    return next({}, { ...base, type: 'noted', body: cmd.body })
  }
  if (cmd.type === 'assign') {
    if (current.status === 'closed') return reject(409, 'case_closed', `Case ${current.id} is closed.`)
    return next({ status: 'in_review', assignee: cmd.assignee }, { ...base, type: 'assigned', assignee: cmd.assignee })
  }
  // The API and gRPC validate outcomes too, but the state machine holds for any producer of commands: an unknown
  // outcome would otherwise close the case and be treated as fraud by its effects.
  if (!CASE_OUTCOMES.includes(cmd.outcome)) return reject(409, 'invalid_transition', `Unknown outcome '${String(cmd.outcome)}'; one of ${CASE_OUTCOMES.join(', ')}.`)
  const chargebackAfterReview = cmd.outcome === 'chargeback' && (current.outcome === 'safe' || current.outcome === 'fraud')
  if (current.status === 'closed' && !chargebackAfterReview) {
    return reject(409, 'invalid_transition', `Case ${current.id} is closed with outcome '${current.outcome}'; only a chargeback may follow a safe or fraud outcome.`)
  }
  const entry: CaseEntry = { ...base, type: 'dispositioned', outcome: cmd.outcome, reason: cmd.reason, analyst: cmd.analyst }
  if (cmd.outcome === 'safe') entry.demote_until_ms = cmd.at_ms + cmd.demote_for_ms
  return next({ status: 'closed', outcome: cmd.outcome }, entry)
}
