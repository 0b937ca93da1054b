import { signalResource } from '../../src/domain/signals.js'
import { parseJson } from '../../src/stream/view.js'
import { mapTopic, type Topology } from '../../src/stream/topology.js'
import { stableEventId, type ServiceEvent, eventRecord } from '../../src/domain/records/events.js'
import type { SignalChange } from '../../src/domain/records/signals.js'

/** The `signal.updated` event of one signal change; its id derives from the change id (stable across replays). Pure. */
export function signalUpdatedEvent (c: SignalChange): ServiceEvent {
  const { object: _object, id: _id, ...data } = signalResource(c)
  return { id: stableEventId('signal.updated', c.change_id), type: 'signal.updated', created: Math.floor(c.at_ms / 1000), livemode: c.mode === 'live', data: { signal_id: c.change_id, ...data } }
}

/** Consumes `signals` (POST /v1/signals or feeds), produces `signal.updated` on `events`. At-least-once. */
export const signalUpdater: Topology = {
  name: 'signal-updater',
  description: 'signal.updated events for every SIM-swap or IP-reputation change on the signals topic',
  stores: [],
  build: ctx => ({
    processors: [mapTopic(ctx, 'signal-updater', ctx.topics.signals, ctx.topics.events, r => parseJson<SignalChange>(r.value), change => [eventRecord(change.tenant_id, signalUpdatedEvent(change))])]
  })
}
