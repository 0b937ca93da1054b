import { addAt, emptySlots, firstsInReach, readSlots, RESOLUTIONS, slotsSize, subtractAt, writeSlots, type Slots } from './slots.js'
import { keepMostRecent, linksSize, readLinks, writeLinks, type Links } from './links.js'

/**
 * Everything velocity keeps about one dimension value (index.ts): its counters and, per other dimension
 * a distinct need counts, the values it was seen with (undefined: none yet). One record, so a request reads
 * one key per value.
 */
export interface VelocityRecord { counters: Slots, links: Map<string, Links> | undefined }

/**
 * As stored: a format byte, the counters (slots.ts), then with format 3 a u16 count of link sets and
 * per set a u8 byte length and the other dimension's name, then its links (links.ts). A record with
 * no links is written in format 2 (the counters alone), which is also what stores kept before links moved in.
 */
const COUNTERS = 2
const NONE: Map<string, Links> = new Map()
const WITH_LINKS = 3

export function encodeRecord (r: VelocityRecord): Buffer {
  const sets = r.links ?? NONE
  const firsts = firstsInReach(r.counters)
  let size = 1 + slotsSize(r.counters, firsts)
  if (sets.size > 0) {
    size += 2
    for (const [of, links] of sets) size += 1 + Buffer.byteLength(of) + linksSize(links)
  }
  const out = Buffer.allocUnsafe(size)
  out[0] = sets.size > 0 ? WITH_LINKS : COUNTERS
  let at = writeSlots(r.counters, firsts, out, 1)
  if (sets.size === 0) return out
  at = out.writeUInt16LE(sets.size, at)
  for (const [of, links] of sets) {
    const length = out.write(of, at + 1)
    at = writeLinks(links, out, out.writeUInt8(length, at) + length)
  }
  return out
}

export function decodeRecord (raw: Buffer | undefined): VelocityRecord {
  return decodeStored(raw).record
}

/**
 * A stored value is the record put last and the records merged since (each one event's increments, store.ts),
 * end to end: the first with the others added to it, in the order they were merged, and how many there were.
 */
export function decodeStored (raw: Buffer | undefined): { record: VelocityRecord, parts: number } {
  if (raw === undefined) return { record: { counters: emptySlots(), links: undefined }, parts: 0 }
  let [record, at] = readRecord(raw, 0)
  let parts = 1
  while (at < raw.length) {
    const [merged, next] = readRecord(raw, at)
    addRecord(record, merged)
    at = next
    parts++
  }
  return { record, parts }
}

/** Reads one record at `at`; returns it and the offset after it. */
function readRecord (raw: Buffer, at: number): [VelocityRecord, number] {
  const format = raw[at]
  if (format !== COUNTERS && format !== WITH_LINKS) throw new Error(`velocity record of an unknown format ${format}`)
  const [counters, end] = readSlots(raw, at + 1)
  if (format === COUNTERS) return [{ counters, links: undefined }, end]
  const links = new Map<string, Links>()
  const sets = raw.readUInt16LE(end)
  at = end + 2
  for (let k = 0; k < sets; k++) {
    const length = raw.readUInt8(at)
    const of = raw.toString('utf8', at + 1, at + 1 + length)
    const [read, next] = readLinks(raw, at + 1 + length)
    links.set(of, read)
    at = next
  }
  return [{ counters, links }, at]
}

/** Values kept per distinct count: the most recently seen. */
const LINKS_KEPT = 256

/** Records that `of` value `other` was seen at `seenMs` (a later time already there stays). */
export function link (record: VelocityRecord, of: string, other: string, seenMs: number, undo?: Array<() => void>): void {
  const sets = record.links ??= new Map()
  let links = sets.get(of)
  if (links === undefined) sets.set(of, links = new Map())
  const before = links.get(other)
  const seen = Math.max(before ?? 0, seenMs)
  links.set(other, seen)
  undo?.push(() => {
    if (links.get(other) !== seen) return // a later event saw the pair since: keep its time
    if (before === undefined) links.delete(other)
    else links.set(other, before)
  })
  keepMostRecent(links, LINKS_KEPT)
}

/**
 * Adds `merged` (increments kept as a record of their own: one event's, merged into the store) to `into`, as
 * increment() would have made them; `undo` (when given) collects how to take them back.
 */
export function addRecord (into: VelocityRecord, merged: VelocityRecord, undo?: Array<() => void>): void {
  for (const res of RESOLUTIONS) {
    const s = into.counters[res]
    const m = merged.counters[res]
    for (let i = 0; i < m.length; i += 4) {
      const unit = m[i]!
      const count = m[i + 1]!
      const sum = m[i + 2]!
      const sumsq = m[i + 3]!
      if (addAt(s, res, unit, count, sum, sumsq)) undo?.push(() => subtractAt(s, unit, count, sum, sumsq))
    }
  }
  merged.links?.forEach((links: Links, of: string) => {
    links.forEach((seen, other) => link(into, of, other, seen, undo))
  })
}
