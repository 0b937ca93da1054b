import type { Logger } from 'pino'
import { clientCaKey, clientCaScope, type ClientCaRecord } from '../../stores/client-cas.js'
import type { EventLog } from '../eventlog/event-log.js'
import type { StateDb } from '../../stores/state-db.js'
import { parseJson, TopicMaterializer } from '../topic-materializer.js'

/** Every instance's copy of the tenants' client CAs per mode (compacted `client-cas` topic), for the mutual-TLS listener. */
export function clientCasMaterializer (state: StateDb, log: EventLog, topic: string, originId: string, logger: Logger): TopicMaterializer<ClientCaRecord, ClientCaRecord> {
  return new TopicMaterializer<ClientCaRecord, ClientCaRecord>(state, log, topic, `client-cas-${originId}`, logger, {
    decode: parseJson,
    apply: async (r, _record, writes) => {
      writes.put(clientCaKey(clientCaScope(r)), Buffer.from(JSON.stringify(r)))
      return [[r.change_id, r]]
    }
  })
}
