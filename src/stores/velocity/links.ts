/**
 * Values linked to one value, each with the event time it was last seen: a distinct count within a velocity
 * record (record.ts) and a node of the async-scorer's link graph. As stored: a format byte, a u32
 * count, then per value a float64 time, a u32 byte length and the value's UTF-8 bytes. Records of the first
 * format were JSON objects (first byte `{`): read as such and written back in this one.
 */
const FORMAT = 1
const JSON_OBJECT = 0x7b
const PER_VALUE = 8 + 4

export type Links = Map<string, number>

/** Bytes of the links without the format byte: a u32 count, then per value its time, length and bytes. */
export function linksSize (links: Links): number {
  let size = 4
  for (const value of links.keys()) size += PER_VALUE + Buffer.byteLength(value)
  return size
}

/** Writes the links (without the format byte) at `at`; returns the offset after them. */
export function writeLinks (links: Links, out: Buffer, at: number): number {
  at = out.writeUInt32LE(links.size, at)
  for (const [value, seen] of links) {
    at = out.writeDoubleLE(seen, at)
    const length = out.write(value, at + 4)
    at = out.writeUInt32LE(length, at) + length
  }
  return at
}

/** Reads links written by writeLinks at `at`; returns them and the offset after them. */
export function readLinks (raw: Buffer, at: number): [Links, number] {
  const links: Links = new Map()
  const n = raw.readUInt32LE(at)
  at += 4
  for (let k = 0; k < n; k++) {
    const seen = raw.readDoubleLE(at)
    const length = raw.readUInt32LE(at + 8)
    at += PER_VALUE
    links.set(raw.toString('utf8', at, at + length), seen)
    at += length
  }
  return [links, at]
}

export function encodeLinks (links: Links): Buffer {
  const out = Buffer.allocUnsafe(1 + linksSize(links))
  out[0] = FORMAT
  writeLinks(links, out, 1)
  return out
}

export function decodeLinks (raw: Buffer | undefined): Links {
  if (raw === undefined) return new Map()
  if (raw[0] === JSON_OBJECT) return new Map(Object.entries(JSON.parse(raw.toString()) as Record<string, number>))
  if (raw[0] !== FORMAT) throw new Error(`distinct-count record of an unknown format ${raw[0]}`)
  return readLinks(raw, 1)[0]
}

/** Keeps the `max` most recently seen values: links grow by one value at a time, so at most one goes. */
export function keepMostRecent (links: Links, max: number): void {
  if (links.size <= max) return
  // forEach, not for-of: a hot value holds `max` links and comes here on every new one; iterating entries made
  // an array per entry (a fifth of what a request allocated, measured with the sampling heap profiler).
  oldest = undefined
  oldestSeen = Infinity
  links.forEach(older)
  links.delete(oldest!)
}
let oldest: string | undefined
let oldestSeen = Infinity
function older (seen: number, value: string): void {
  if (seen < oldestSeen) { oldest = value; oldestSeen = seen }
}
