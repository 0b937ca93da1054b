import type { Logger } from 'pino'
import type { Case, CaseRecord } from '../../domain/cases/types.js'
import type { CaseGate, Subject } from '../../domain/decision/types.js'
import type { EventLog } from '../eventlog/event-log.js'
import { caseByTraceKey, caseGateKey, caseKey } from '../../stores/cases.js'
import type { StateDb } from '../../stores/state-db.js'
import { parseJson, TopicMaterializer, type BatchWrites } from '../topic-materializer.js'

export type CommandOutcome = CaseRecord['command'] & { case: Case | null }

/** Subjects whose later decisions a case outcome gates; an IP is too often shared to gate on. */
const GATED_SUBJECTS: readonly Subject[] = ['user_id', 'email', 'device_id', 'card']

/** The Stage 3 gate a closed case sets on its subjects. */
export function gateOf (c: Case): CaseGate | undefined {
  if (c.outcome === null) return undefined
  const last = c.history[c.history.length - 1]!
  return { case_id: c.id, outcome: c.outcome, at_ms: last.at_ms, until_ms: c.outcome === 'safe' ? last.demote_until_ms ?? last.at_ms : null }
}

async function writeGates (writes: BatchWrites, c: Case): Promise<void> {
  const gate = gateOf(c)
  if (gate === undefined) return
  for (const subject of GATED_SUBJECTS) {
    const value = c.subjects[subject]
    if (value === undefined) continue
    const key = caseGateKey({ tenant: c.tenant_id, mode: c.mode }, subject, value)
    const raw = await writes.get(key)
    const gates = (raw === undefined ? [] : JSON.parse(raw.toString()) as CaseGate[]).filter(g => g.case_id !== c.id && (g.until_ms === null || g.until_ms > gate.at_ms))
    writes.put(key, Buffer.from(JSON.stringify([...gates, gate])))
  }
}

/**
 * Every instance's copy of the `cases` topic (case states written by the case writer): the case by id and by
 * trace id, and the Stage 3 gates of closed cases per subject. A state replaces the stored one only when its
 * version is at least as high, so replays and duplicates change nothing.
 */
export function casesMaterializer (state: StateDb, log: EventLog, topic: string, originId: string, logger: Logger): TopicMaterializer<CaseRecord, CommandOutcome> {
  return new TopicMaterializer<CaseRecord, CommandOutcome>(state, log, topic, `cases-${originId}`, logger, { decode: parseJson, apply: async ({ case: c, command }, _record, writes) => {
    if (c !== null) {
      const scope = { tenant: c.tenant_id, mode: c.mode }
      const raw = await writes.get(caseKey(scope, c.id))
      const stored = raw === undefined ? undefined : JSON.parse(raw.toString()) as Case
      if (stored === undefined || c.version > stored.version) {
        writes.put(caseKey(scope, c.id), Buffer.from(JSON.stringify(c)))
        if (c.trace_id !== null) writes.put(caseByTraceKey(scope, c.trace_id), Buffer.from(c.id))
        if (c.outcome !== stored?.outcome) await writeGates(writes, c)
      }
    }
    return [[command.id, { ...command, case: c }]]
  } })
}
