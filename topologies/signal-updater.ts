import type { ConsumedRecord } from '../src/eventlog/event-log.js'
import { eventRecord, stableEventId, type ServiceEvent } from '../src/records/service-event.js'
import { signalResource, type SignalChange } from '../src/signals/types.js'
import type { RunningTopology, Topology, TopologyContext } from './index.js'

/** The `signal.updated` event of one signal change; its id derives from the change id (stable across replays). Pure. */
export function signalUpdatedEvent (c: SignalChange): ServiceEvent {
  const { object: _object, id: _id, ...data } = signalResource(c)
  return { id: stableEventId('signal.updated', c.change_id), type: 'signal.updated', created: Math.floor(c.at_ms / 1000), livemode: c.mode === 'live', data: { signal_id: c.change_id, ...data } }
}

/** Consumes `signals` (POST /v1/signals or feeds), produces `signal.updated` on `events`. At-least-once. */
export const signalUpdater: Topology = {
  name: 'signal-updater',
  description: 'signal.updated events for every SIM-swap or IP-reputation change on the signals topic',
  async start (ctx: TopologyContext): Promise<RunningTopology> {
    const subscription = await ctx.log.subscribe({
      group: `${ctx.topics.prefix}signal-updater`,
      topics: [ctx.topics.signals],
      fromBeginning: true,
      onBatch: async (records: ConsumedRecord[]) => {
        const out = []
        for (const r of records) {
          let change: SignalChange
          try {
            change = JSON.parse(r.value.toString()) as SignalChange
          } catch (err) {
            ctx.logger.error({ err, partition: r.partition, offset: r.offset }, 'signal-updater: undecodable signal skipped')
            continue
          }
          out.push(eventRecord(change.tenant_id, signalUpdatedEvent(change)))
        }
        if (out.length > 0) await ctx.log.append(ctx.topics.events, out)
      }
    })
    return { stop: () => subscription.close() }
  }
}
