import type { Logger } from 'pino'
import type { ConsumedRecord, EventLog, LogRecord } from '../stream/eventlog/event-log.js'
import type { ControlPlane } from '../stream/control-plane.js'
import type { CommandOutcome } from '../stores/cases.js'
import type { TopicMaterializer } from '../stream/topic-materializer.js'
import { labelRecord } from '../stream/records/feedback-label.js'
import { eventRecord } from '../stream/records/service-event.js'
import { getCase } from '../stores/cases.js'
import type { StateDb } from '../stores/state-db.js'
import type { Scope } from '../domain/scope.js'
import { caseStateRecord } from '../stream/records/case-commands.js'
import { caseEffects, type CaseEffects } from '../domain/cases/effects.js'
import { addListItem } from '../domain/rules/ruleset-edits.js'
import { applyCaseCommand } from '../domain/cases/transitions.js'
import type { Case, CaseCommand, CaseRecord } from '../domain/cases/types.js'

export interface CaseWriterDeps {
  state: StateDb
  log: EventLog
  control: ControlPlane
  cases: TopicMaterializer<CaseRecord, CommandOutcome>
  topics: { cases: string, events: string, feedback: string }
  logger: Logger
  clock: () => number
}

/**
 * The single writer of cases: consumes one partition of `case-commands` at a time (its consumer group gives
 * each partition to one member), applies each command to the case's latest state and publishes the new state
 * on `cases`, then the events, labels and deny-list entries it causes. Before a batch it waits until this
 * instance has materialized everything already on `cases`, so a member that just took the partition over
 * continues from the previous owner's last state. A command seen again after a crash is recognised in the
 * case's history and its effects are published again with the same ids (consumers de-duplicate).
 */
export async function writeCases (deps: CaseWriterDeps, records: ConsumedRecord[]): Promise<void> {
  await deps.cases.catchUp()
  const latest = new Map<string, Case | undefined>()
  const states: LogRecord[] = []
  const events: LogRecord[] = []
  const labels: LogRecord[] = []
  const denials: Array<{ scope: Scope, case_id: string, items: CaseEffects['denyListItems'] }> = []
  for (const r of records) {
    let cmd: CaseCommand
    try {
      cmd = JSON.parse(r.value.toString()) as CaseCommand
    } catch (err) {
      deps.logger.error({ err, offset: r.offset }, 'case writer: undecodable command skipped')
      continue
    }
    const scope: Scope = { tenant: cmd.tenant_id, mode: cmd.mode }
    const id = `${cmd.tenant_id}\u0000${cmd.mode}\u0000${cmd.case_id}`
    const current = latest.has(id) ? latest.get(id) : await getCase(deps.state, scope, cmd.case_id)
    const done = current?.history.find(e => e.command_id === cmd.id)
    let effects: CaseEffects | undefined
    if (done !== undefined) {
      states.push(caseStateRecord(cmd, { case: current!, command: { id: cmd.id, accepted: true } }))
      effects = caseEffects(current!, done)
    } else {
      const t = applyCaseCommand(current, cmd)
      if (t.accepted) {
        latest.set(id, t.case)
        states.push(caseStateRecord(cmd, { case: t.case, command: { id: cmd.id, accepted: true } }))
        effects = caseEffects(t.case, t.entry)
      } else {
        states.push(caseStateRecord(cmd, { case: current ?? null, command: { id: cmd.id, accepted: false, error: t.error } }))
      }
    }
    if (effects === undefined) continue
    for (const e of effects.events) events.push(eventRecord(cmd.tenant_id, e))
    if (effects.label !== undefined) labels.push(labelRecord(effects.label))
    if (effects.denyListItems.length > 0) denials.push({ scope, case_id: cmd.case_id, items: effects.denyListItems })
  }
  if (states.length > 0) await deps.log.append(deps.topics.cases, states)
  if (events.length > 0) await deps.log.append(deps.topics.events, events)
  if (labels.length > 0) await deps.log.append(deps.topics.feedback, labels)
  for (const d of denials) await denyList(deps, d.scope, d.case_id, d.items)
}

/** Adds a fraud case's subjects to the tenant's deny lists: one ruleset version, none when all are there. */
async function denyList (deps: CaseWriterDeps, scope: Scope, caseId: string, items: CaseEffects['denyListItems']): Promise<void> {
  const missing = (lists: Awaited<ReturnType<ControlPlane['activeRuleset']>>['ruleset']['lists']) =>
    items.filter(([alias, value]) => lists[alias] !== undefined && !lists[alias]!.items.includes(value))
  if (missing((await deps.control.activeRuleset(scope)).ruleset.lists).length === 0) return
  await deps.control.propose(scope, `case:${caseId}`, { type: 'case.deny_listed', case_id: caseId },
    ruleset => missing(ruleset.lists).reduce((edited, [alias, value]) => addListItem(edited, edited.lists[alias]!, value), ruleset), deps.clock())
}
