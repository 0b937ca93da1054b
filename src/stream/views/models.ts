import type { Logger } from 'pino'
import type { EventLog } from '../eventlog/event-log.js'
import type { ModelRecord, ModelRegistry } from './model-registry.js'
import type { StateDb } from '../../stores/state-db.js'
import { parseJson, TopicMaterializer } from '../topic-materializer.js'

/** Every instance's copy of the published model versions (`models` topic) and each tenant's active one. */
export function modelsMaterializer (state: StateDb, log: EventLog, topic: string, originId: string, logger: Logger, registry: ModelRegistry): TopicMaterializer<ModelRecord, ModelRecord> {
  return new TopicMaterializer<ModelRecord, ModelRecord>(state, log, topic, `models-${originId}`, logger, {
    decode: parseJson,
    apply: async (record, _r, writes) => {
      registry.apply(record, writes)
      return [[record.model.version, record]]
    }
  })
}
