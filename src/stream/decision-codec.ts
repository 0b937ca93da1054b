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
  decode(topic: string, wire: Buffer): Promise<TransactionRecord>
  /** Notes that `wire` (a value about to be appended) encodes `record`: decoding it in this process gives `record`. */
  remember?(wire: Uint8Array, record: TransactionRecord): void
}

export const plainProtobufCodec: DecisionCodec = {
  name: 'protobuf',
  encode: async (_topic, protobuf) => protobuf,
  decode: async (_topic, wire) => decodeEvent(wire)
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

/**
 * Decodes each record value once for every consumer of this process: consumers of the embedded log share
 * the value of a record (its tail in memory), so the decisions view and the topologies reading the same
 * decision decode it once. Decoded records are shared: consumers never change them. A record this process
 * made and appends itself is remembered with its bytes (the relay's) and never decoded here.
 */
export function decodingOnce (codec: DecisionCodec): DecisionCodec {
  const decoded = new WeakMap<Buffer, Promise<TransactionRecord>>()
  return {
    name: codec.name,
    encode: (topic, protobuf) => codec.encode(topic, protobuf),
    remember (wire, record) {
      if (Buffer.isBuffer(wire)) decoded.set(wire, Promise.resolve(record))
    },
    decode (topic, wire) {
      let hit = decoded.get(wire)
      if (hit === undefined) {
        decoded.set(wire, hit = codec.decode(topic, wire))
        // A failure may be transient (a schema registry that did not answer): the next try decodes again.
        hit.catch(() => decoded.delete(wire))
      }
      return hit
    }
  }
}
