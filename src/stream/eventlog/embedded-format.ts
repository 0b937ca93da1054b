import type { ConsumedRecord } from './event-log.js'
import type { LogRecord } from '../../domain/records/log-record.js'

// How the embedded log lays out its RocksDB (<dataDir>/log):
//   t <topic>                                    -> topic spec (JSON)
//   r <topic> 0x00 <partition u32> <offset u64>  -> record: u32 length, JSON meta {k, h, t}, value
//   g <group> 0x00 <topic> 0x00 <partition u32>  -> committed offset (next offset to read), decimal
//   pstorage-probe                               -> written by the storage health while writes fail (stores/storage-health.ts)
const SEP = Buffer.from([0])

export const EMBEDDED_PROBE_KEY = Buffer.from('pstorage-probe')

export function topicKey (name: string): Buffer {
  return Buffer.from('t' + name)
}

export function recordPrefix (topic: string, partition: number): Buffer {
  const p = Buffer.allocUnsafe(4)
  p.writeUInt32BE(partition)
  return Buffer.concat([Buffer.from('r' + topic), SEP, p])
}

export function recordKey (prefix: Buffer, offset: number): Buffer {
  const o = Buffer.allocUnsafe(8)
  o.writeBigUInt64BE(BigInt(offset))
  return Buffer.concat([prefix, o])
}

export const offsetOfKey = (key: Buffer): number => Number(key.readBigUInt64BE(key.length - 8))

export function groupKey (group: string, topic: string, partition: number): Buffer {
  const p = Buffer.allocUnsafe(4)
  p.writeUInt32BE(partition)
  return Buffer.concat([Buffer.from('g' + group), SEP, Buffer.from(topic), SEP, p])
}

export function encodeRecord (r: LogRecord, timestamp: number): Buffer {
  const meta = Buffer.from(JSON.stringify({ k: r.key, h: r.headers ?? {}, t: timestamp }))
  const len = Buffer.allocUnsafe(4)
  len.writeUInt32BE(meta.length)
  return Buffer.concat([len, meta, r.value])
}

export function decodeRecord (topic: string, partition: number, offset: number, raw: Buffer): ConsumedRecord {
  const metaLength = raw.readUInt32BE(0)
  const meta = JSON.parse(raw.subarray(4, 4 + metaLength).toString()) as { k: string, h: Record<string, string>, t: number }
  return { topic, partition, offset, key: meta.k, headers: meta.h, timestamp: meta.t, value: raw.subarray(4 + metaLength) }
}
