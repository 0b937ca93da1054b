import { addAt, firstsInReach, readSlots, RESOLUTIONS, slotsSize, subtractAt, unitOf, writeSlots, type Slots } from './slots.js'
import { linksSize, readLinks, seen, takeBack, writeLinks, type Links } from './links.js'

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
export const COUNTERS = 2
const NONE: Map<string, Links> = new Map()
export const WITH_LINKS = 3

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

/** Reads one record at `at`; returns it and the offset after it. */
export function readRecord (raw: Buffer, at: number): [VelocityRecord, number] {
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

/** Counts one event of `amount` at its time in the record's counters; false when it is out of reach of all. */
export function count (record: VelocityRecord, eventTimeMs: number, amount: number, undo?: Array<() => void>): boolean {
  const sq = amount * amount
  let counted = false
  for (const res of RESOLUTIONS) {
    const s = record.counters[res]
    const unit = unitOf(eventTimeMs, res)
    if (!addAt(s, res, unit, 1, amount, sq)) continue
    counted = true
    undo?.push(() => subtractAt(s, unit, 1, amount, sq))
  }
  return counted
}

/** Values kept per distinct count: the most recently seen. */
const LINKS_KEPT = 256

/** Records that `of` value `other` was seen at `seenMs` (a later time already there stays). */
export function link (record: VelocityRecord, of: string, other: string, seenMs: number, undo?: Array<() => void>): void {
  const sets = record.links ??= new Map()
  let links = sets.get(of)
  if (links === undefined) sets.set(of, links = new Map())
  const before = links.get(other)
  seen(links, other, seenMs, LINKS_KEPT)
  const at = links.get(other)
  undo?.push(() => {
    if (links.get(other) !== at) return // a later event saw the pair since (or it went): keep that
    takeBack(links, other, before)
  })
}
