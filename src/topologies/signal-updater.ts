import { eventRecord } from '../stream/records/service-event.js'
import { stableEventId, type ServiceEvent } from '../domain/events.js'
import { signalResource, type SignalChange } from '../domain/signals.js'
import { mapTopic, type RunningTopology, type Topology, type TopologyContext } from './index.js'

/** The `signal.updated` event of one signal change; its id derives from the change id (stable across replays). Pure. */
export function signalUpdatedEvent (c: SignalChange): ServiceEvent {
  const { object: _object, id: _id, ...data } = signalResource(c)
  return { id: stableEventId('signal.updated', c.change_id), type: 'signal.updated', created: Math.floor(c.at_ms / 1000), livemode: c.mode === 'live', data: { signal_id: c.change_id, ...data } }
}

/** Consumes `signals` (POST /v1/signals or feeds), produces `signal.updated` on `events`. At-least-once. */
export const signalUpdater: Topology = {
  name: 'signal-updater',
  description: 'signal.updated events for every SIM-swap or IP-reputation change on the signals topic',
  start: (ctx: TopologyContext): Promise<RunningTopology> =>
    mapTopic(ctx, 'signal-updater', ctx.topics.signals, ctx.topics.events, async r => {
      let change: SignalChange
      try {
        change = JSON.parse(r.value.toString()) as SignalChange
      } catch (err) {
        ctx.logger.error({ err, partition: r.partition, offset: r.offset }, 'signal-updater: undecodable signal skipped')
        return []
      }
      return [eventRecord(change.tenant_id, signalUpdatedEvent(change))]
    })
}
