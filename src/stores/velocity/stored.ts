import { emptySlots } from './slots.js'
import { count, COUNTERS, link, readRecord, WITH_LINKS, type VelocityRecord } from './record.js'

/**
 * One event's increments of one record, as merged into the store (store.ts, countView): whether it is counted
 * (its time and amount) and the values it links to the record, per other dimension.
 */
export interface RecordEvent { t: number, amount: number, counted: boolean, links: Array<[of: string, other: string]> }

/**
 * As merged: a format byte, the time and amount (float64 each), a u8 (1: counted), a u16 count of links and per
 * link a u8 byte length and the other dimension's name, a u32 byte length and the value. About 20 bytes for a
 * counted event without links, where the same increments as a record (record.ts) take 91.
 */
const EVENT = 4

export function encodeEvent (e: RecordEvent): Buffer {
  let size = 1 + 8 + 8 + 1 + 2
  for (const [of, other] of e.links) size += 1 + Buffer.byteLength(of) + 4 + Buffer.byteLength(other)
  const out = Buffer.allocUnsafe(size)
  out[0] = EVENT
  out.writeDoubleLE(e.t, 1)
  out.writeDoubleLE(e.amount, 9)
  out[17] = e.counted ? 1 : 0
  let at = out.writeUInt16LE(e.links.length, 18)
  for (const [of, other] of e.links) {
    const ofLength = out.write(of, at + 1)
    at = out.writeUInt8(ofLength, at) + ofLength
    const otherLength = out.write(other, at + 4)
    at = out.writeUInt32LE(otherLength, at) + otherLength
  }
  return out
}

/** Adds one event's increments to `into`, as increment.ts does; `undo` (when given) collects how to take them back. */
export function applyEvent (into: VelocityRecord, e: RecordEvent, undo?: Array<() => void>): void {
  if (e.counted) count(into, e.t, e.amount, undo)
  for (const [of, other] of e.links) link(into, of, other, e.t, undo)
}

function readEvent (raw: Buffer, at: number): [RecordEvent, number] {
  const t = raw.readDoubleLE(at + 1)
  const amount = raw.readDoubleLE(at + 9)
  const counted = raw[at + 17] === 1
  const n = raw.readUInt16LE(at + 18)
  at += 20
  const links: RecordEvent['links'] = []
  for (let k = 0; k < n; k++) {
    const ofLength = raw[at]!
    const of = raw.toString('utf8', at + 1, at + 1 + ofLength)
    at += 1 + ofLength
    const otherLength = raw.readUInt32LE(at)
    links.push([of, raw.toString('utf8', at + 4, at + 4 + otherLength)])
    at += 4 + otherLength
  }
  return [{ t, amount, counted, links }, at]
}

/**
 * A stored value is the record put last, then what was merged since (one event's increments each), end to end:
 * the record with each merge added in the order they were merged, and how many parts there were.
 */
export function decodeStored (raw: Buffer | undefined): { record: VelocityRecord, parts: number } {
  const record: VelocityRecord = { counters: emptySlots(), links: undefined }
  if (raw === undefined) return { record, parts: 0 }
  let parts = 0
  for (let at = 0; at < raw.length; parts++) {
    const format = raw[at]
    if (format === EVENT) {
      const [e, next] = readEvent(raw, at)
      applyEvent(record, e)
      at = next
    } else if (parts === 0 && (format === COUNTERS || format === WITH_LINKS)) {
      const [read, next] = readRecord(raw, at)
      Object.assign(record, read)
      at = next
    } else {
      throw new Error(`velocity record of an unknown format ${format}${parts > 0 ? ' after what was put' : ''}`)
    }
  }
  return { record, parts }
}

/** The record a stored value holds (decodeStored). */
export const decodeRecord = (raw: Buffer | undefined): VelocityRecord => decodeStored(raw).record
