import type { Logger } from 'pino'
import type { EventLog } from '../eventlog/event-log.js'
import type { SignalChange } from '../../domain/signals.js'
import { ipReputationKey, simSwapKey, type IpReputationIndex } from '../../stores/signals.js'
import type { StateDb } from '../../stores/state-db.js'
import { parseJson, TopicMaterializer } from '../topic-materializer.js'

/**
 * Every instance's copy of the signals (compacted `signals` topic): the latest SIM swap per user and the IP
 * reputation list, in local state and, for reputation, in the in-memory index the request path reads.
 * A change older than the stored one (by at_ms) for the same subject changes nothing.
 */
export function signalsMaterializer (state: StateDb, log: EventLog, topic: string, originId: string, logger: Logger, reputation: IpReputationIndex): TopicMaterializer<SignalChange, SignalChange> {
  return new TopicMaterializer<SignalChange, SignalChange>(state, log, topic, `signals-${originId}`, logger, {
    decode: parseJson,
    apply: async (change, _record, writes) => {
      const scope = { tenant: change.tenant_id, mode: change.mode }
      const key = change.type === 'sim_swap' ? simSwapKey(scope, change.user_id) : ipReputationKey(scope, change.ip)
      const raw = await writes.get(key)
      if (raw !== undefined && (JSON.parse(raw.toString()) as { at_ms: number }).at_ms > change.at_ms) return [[change.change_id, change]]
      if (change.type === 'sim_swap') {
        writes.put(key, Buffer.from(JSON.stringify({ confidence: change.confidence, at_ms: change.at_ms })))
      } else {
        if (change.score === null) writes.del(key)
        else writes.put(key, Buffer.from(JSON.stringify({ score: change.score, at_ms: change.at_ms })))
        reputation.set(scope, change.ip, change.score)
      }
      return [[change.change_id, change]]
    }
  })
}
