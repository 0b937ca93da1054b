import { LRUCache } from 'lru-cache'
import { createMutableRegistry, fromBinary } from '@bufbuild/protobuf'
import type { Client } from '@confluentinc/schemaregistry'
import { DecisionRecordedSchema, file_fraud_v1_events } from '../gen/fraud/v1/events_pb.js'
import { type TransactionRecord, decodeEvent, fromEvent } from '../domain/records/decisions.js'

/**
 * Wire format of the `decisions` topic. The outbox always holds plain Protobuf bytes; the codec turns them
 * into what goes on the topic: the same bytes, or the Confluent wire format (magic byte, schema id,
 * message indexes) through @confluentinc/schemaregistry when a registry is configured.
 */
export interface DecisionCodec {
  readonly name: string
  encode(topic: string, protobuf: Uint8Array): Promise<Uint8Array>
  /** `key`: the record's key (`<tenant>:<trace_id>`), under which consumers of other groups may find it decoded. */
  decode(topic: string, wire: Buffer, key?: string): Promise<TransactionRecord>
  /** Notes that `wire` (a value about to be appended under `key`) encodes `record`: decoding it here gives `record`. */
  remember?(wire: Uint8Array, record: TransactionRecord, key: string): void
  /** The plain Protobuf bytes `wire` carries, when they are readable without decoding (stored as they are). */
  protobuf?(wire: Buffer): Uint8Array
}

export const plainProtobufCodec: DecisionCodec = {
  name: 'protobuf',
  encode: async (_topic, protobuf) => protobuf,
  decode: async (_topic, wire) => decodeEvent(wire),
  protobuf: wire => wire
}

/** Loaded only when a registry is configured: the library and its KMS clients cost ~40 MB of heap and a second to load. */
export async function schemaRegistryCodec (client: Client): Promise<DecisionCodec> {
  const { ProtobufDeserializer, ProtobufSerializer, SerdeType } = await import('@confluentinc/schemaregistry')
  const registry = createMutableRegistry(file_fraud_v1_events)
  const serializer = new ProtobufSerializer(client, SerdeType.VALUE, { autoRegisterSchemas: true, registry })
  const deserializer = new ProtobufDeserializer(client, SerdeType.VALUE, {})
  return {
    name: 'schema-registry-protobuf',
    encode: async (topic, protobuf) => serializer.serialize(topic, fromBinary(DecisionRecordedSchema, protobuf)),
    decode: async (topic, wire) => fromEvent(await deserializer.deserialize(topic, wire))
  }
}

/** Records decoded or remembered lately, by key: consumers of several groups read a record at about the same time. */
const RECENT_KEYS = 4096

/**
 * Decodes each record once for every consumer of this process. Consumers of the embedded log share the value
 * of a record (its tail in memory): found by that value. On Kafka each group fetches its own copy: found by the
 * record's key among the last RECENT_KEYS decoded (keys are unique per decision, and a copy of one decision
 * published twice holds the same bytes). A record this process made and appends itself is remembered with its
 * bytes and key (the relay's) and never decoded here. Decoded records are shared: consumers never change them.
 */
export function decodingOnce (codec: DecisionCodec): DecisionCodec {
  const byValue = new WeakMap<Buffer, Promise<TransactionRecord>>()
  const byKey = new LRUCache<string, Promise<TransactionRecord>>({ max: RECENT_KEYS })
  const keep = (key: string | undefined, hit: Promise<TransactionRecord>) => { if (key !== undefined) byKey.set(key, hit) }
  return {
    name: codec.name,
    encode: (topic, protobuf) => codec.encode(topic, protobuf),
    ...(codec.protobuf === undefined ? {} : { protobuf: codec.protobuf }),
    remember (wire, record, key) {
      const hit = Promise.resolve(record)
      if (Buffer.isBuffer(wire)) byValue.set(wire, hit)
      keep(key, hit)
    },
    decode (topic, wire, key) {
      let hit = byValue.get(wire) ?? (key === undefined ? undefined : byKey.get(key))
      if (hit === undefined) {
        hit = codec.decode(topic, wire)
        keep(key, hit)
        // A failure may be transient (a schema registry that did not answer): the next try decodes again.
        hit.catch(() => { byValue.delete(wire); if (key !== undefined && byKey.get(key) === hit) byKey.delete(key) })
      }
      byValue.set(wire, hit)
      return hit
    }
  }
}
