import type { Logger } from 'pino'
import type { EventLog } from '../eventlog/event-log.js'
import { apiKeyByIdKey, apiKeyHashKey, type ApiKeyRecord } from '../../stores/api-keys.js'
import type { StateDb } from '../../stores/state-db.js'
import { parseJson, TopicMaterializer } from '../topic-materializer.js'

/** A record of the compacted `api-keys` topic (key tenant:key id). */
export interface ApiKeyChange { key: ApiKeyRecord, change_id: string }

/** Every instance's copy of the API keys: by secret hash (authentication) and by tenant and id (management). */
export function apiKeysMaterializer (state: StateDb, log: EventLog, topic: string, originId: string, logger: Logger): TopicMaterializer<ApiKeyChange, ApiKeyChange> {
  return new TopicMaterializer<ApiKeyChange, ApiKeyChange>(state, log, topic, `api-keys-${originId}`, logger, {
    decode: parseJson,
    apply: async (change, _record, writes) => {
      const value = Buffer.from(JSON.stringify(change.key))
      writes.put(apiKeyHashKey(change.key.secret_hash!), value)
      writes.put(apiKeyByIdKey(change.key.tenant_id, change.key.id), value)
      return [[change.change_id, change]]
    }
  })
}
