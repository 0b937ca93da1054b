import type { Logger } from 'pino'
import type { Override } from '../../domain/decision/types.js'
import type { EventLog } from '../eventlog/event-log.js'
import { overrideByIdKey, overrideKey } from '../../stores/overrides.js'
import type { StateDb } from '../../stores/state-db.js'
import type { Mode } from '../../domain/scope.js'
import { parseJson, TopicMaterializer } from '../topic-materializer.js'

/** A record of the compacted `overrides` topic (key: tenant, mode, override id). */
export interface OverrideRecord {
  tenant_id: string
  mode: Mode
  override: Override
  deleted: boolean
  /** Who created or deleted it (API key id). */
  actor: string
  change_id: string
}

/**
 * Every instance's copy of the admin overrides: by id (for the API) and per subject value (for Stage 3).
 * Expired overrides are dropped from a subject's list whenever that list changes.
 */
export function overridesMaterializer (state: StateDb, log: EventLog, topic: string, originId: string, logger: Logger): TopicMaterializer<OverrideRecord, OverrideRecord> {
  return new TopicMaterializer<OverrideRecord, OverrideRecord>(state, log, topic, `overrides-${originId}`, logger, { decode: parseJson, apply: async (change, _record, writes) => {
    const scope = { tenant: change.tenant_id, mode: change.mode }
    const o = change.override
    const subjectKey = overrideKey(scope, o.subject, o.value)
    const raw = await writes.get(subjectKey)
    const kept = (raw === undefined ? [] : JSON.parse(raw.toString()) as Override[])
      .filter(x => x.id !== o.id && (x.expires_at_ms === null || x.expires_at_ms > o.created_ms))
    const list = change.deleted ? kept : [...kept, o]
    if (list.length === 0) writes.del(subjectKey)
    else writes.put(subjectKey, Buffer.from(JSON.stringify(list)))
    writes.put(overrideByIdKey(scope, o.id), Buffer.from(JSON.stringify({ ...o, deleted: change.deleted })))
    return [[change.change_id, change]]
  } })
}
