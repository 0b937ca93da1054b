import { ApiError } from './errors.js'

/**
 * Bounds on what a request may carry, so that whatever is accepted can be recorded, encoded as Protobuf,
 * published, decoded and processed by every consumer (docs/limits.md). Checked before anything is recorded.
 */
export const LIMITS = {
  /** Brackets open at once anywhere in a JSON body, checked on the raw text before it is parsed. */
  jsonDepth: 32,
  /** Levels of objects and arrays inside a free-form value (geo, metadata, a custom key): {"a": {"b": 1}} is 2. */
  freeFormDepth: 5,
  /** Keys in all the objects of one score request, at every level. */
  totalKeys: 1000,
  /** Characters of an object key inside a free-form value, and of a score request's own (custom) keys: 1 to this. */
  keyLength: 128,
  /** Characters of a string inside a free-form value. */
  stringLength: 8192,
  /** Items of an array inside a free-form value. */
  arrayItems: 100,
  /** Bytes of one score request as JSON (a POST /v1/score body, one event of a batch, one gRPC request). */
  eventBytes: 64 * 1024,
  /** Bytes of a POST /v1/score/batch body, and keys in all its events at every level: what one batch may make the event loop parse and check. */
  batchBytes: 1024 * 1024,
  batchKeys: 50_000
} as const

const invalid = (param: string | undefined, message: string) =>
  new ApiError('parameter_invalid', message, param)

/**
 * Refuses JSON text that nests deeper than LIMITS.jsonDepth before it is parsed: a linear scan that
 * counts brackets outside strings, so no parser, validator or serializer ever recurses that deep.
 */
export function jsonDepthError (text: string): ApiError | undefined {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 92) i++ // backslash: skip the escaped character
      else if (c === 34) inString = false
    } else if (c === 34) {
      inString = true
    } else if (c === 123 || c === 91) {
      if (++depth > LIMITS.jsonDepth) return invalid(undefined, `The request body nests objects and arrays more than ${LIMITS.jsonDepth} levels deep.`)
    } else if (c === 125 || c === 93) {
      depth--
    }
  }
  return undefined
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/**
 * What REST's JSON parser (secure-json-parse) refuses, refused the same for bodies that passed no JSON parser
 * (gRPC's Struct fields): a `__proto__` key, or a `constructor` holding a `prototype`.
 */
function poisonedKey (key: string, value: unknown): boolean {
  return key === '__proto__' || (key === 'constructor' && value !== null && typeof value === 'object' && Object.hasOwn(value, 'prototype'))
}

/** Why a string cannot be stored, keyed and encoded as it is (NUL separates key parts; Protobuf strings are UTF-8). */
function badString (s: string): string | undefined {
  if (s.includes('\u0000')) return 'must not contain NUL characters'
  if (LONE_SURROGATE.test(s)) return 'must be valid Unicode (a lone surrogate was sent)'
  return undefined
}

/**
 * The param naming a value inside a body: keys joined with '.', array places as numbers (events.2.amount); an
 * empty key as [""] (metadata[""], [""] at the top), so the path stays readable. Ajv's errors are named the same way.
 */
export function pathOf (parent: string, key: string | number): string {
  if (key === '') return `${parent}[""]`
  return parent === '' ? String(key) : `${parent}.${key}`
}

/**
 * Every body of every route: strings and keys without NUL or lone surrogates, numbers finite (1e309 parses
 * as Infinity, which JSON and Protobuf Struct cannot carry). Returns the first problem, naming its param.
 */
export function plainJsonError (value: unknown, path = ''): ApiError | undefined {
  if (typeof value === 'string') {
    const why = badString(value)
    return why === undefined ? undefined : invalid(path || undefined, `Invalid value for '${path || 'body'}': ${why}.`)
  }
  if (typeof value === 'number') {
    return Number.isFinite(value) ? undefined : invalid(path || undefined, `Invalid value for '${path || 'body'}': numbers must be finite (at most about 1.8e308).`)
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const e = plainJsonError(value[i], pathOf(path, i))
      if (e !== undefined) return e
    }
    return undefined
  }
  if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const why = badString(k)
      if (why !== undefined) return invalid(path || undefined, `Invalid key in '${path || 'body'}': keys ${why}.`)
      if (poisonedKey(k, v)) return invalid(pathOf(path, k), `Invalid key in '${path || 'body'}': '${k}' is not accepted as a key.`)
      const e = plainJsonError(v, pathOf(path, k))
      if (e !== undefined) return e
    }
  }
  return undefined
}

/** Characters as JSON Schema counts them (Unicode code points, an emoji is one), so the schema's bounds and these agree. */
const longerThan = (s: string, max: number) => s.length > max && [...s].length > max

/** Counts what a free-form value holds while checking it; `keys` is shared across one request. */
function freeFormValueError (value: unknown, path: string, depth: number, keys: { n: number }): ApiError | undefined {
  if (typeof value === 'string') {
    return longerThan(value, LIMITS.stringLength) ? invalid(path, `Invalid value for '${path}': strings hold at most ${LIMITS.stringLength} characters.`) : undefined
  }
  if (value === null || typeof value !== 'object') return undefined
  if (depth > LIMITS.freeFormDepth) return invalid(path, `Invalid value for '${path}': objects and arrays nest at most ${LIMITS.freeFormDepth} levels deep.`)
  if (Array.isArray(value)) {
    if (value.length > LIMITS.arrayItems) return invalid(path, `Invalid value for '${path}': arrays hold at most ${LIMITS.arrayItems} items.`)
    for (let i = 0; i < value.length; i++) {
      const e = freeFormValueError(value[i], pathOf(path, i), depth + 1, keys)
      if (e !== undefined) return e
    }
    return undefined
  }
  for (const [k, v] of Object.entries(value)) {
    if (++keys.n > LIMITS.totalKeys) return invalid(path, `The request holds more than ${LIMITS.totalKeys} keys in all.`)
    if (k.length === 0 || longerThan(k, LIMITS.keyLength)) return invalid(pathOf(path, k.slice(0, 40)), `Invalid key in '${path}': keys hold 1 to ${LIMITS.keyLength} characters.`)
    const e = freeFormValueError(v, pathOf(path, k), depth + 1, keys)
    if (e !== undefined) return e
  }
  return undefined
}

/**
 * The free-form parts of a score request (geo, metadata and every key the schema does not name), within
 * LIMITS; `named` are the fields the schema validates itself. Call after plainJsonError and before the schema:
 * the schema states these limits too (score-schema.ts), but the errors (and the total of keys) are these.
 */
export function freeFormError (body: Record<string, unknown>, named: ReadonlySet<string>): ApiError | undefined {
  const keys = { n: 0 }
  for (const [k, v] of Object.entries(body)) {
    keys.n++
    if (named.has(k) && k !== 'geo' && k !== 'metadata') continue
    if (!named.has(k) && (k.length === 0 || longerThan(k, LIMITS.keyLength))) return invalid(pathOf('', k.slice(0, 40)), `Invalid key '${k.slice(0, 40)}${k.length > 40 ? '...' : ''}': keys hold 1 to ${LIMITS.keyLength} characters.`)
    const e = freeFormValueError(v, k, k === 'geo' || k === 'metadata' ? 0 : 1, keys)
    if (e !== undefined) return e
  }
  return undefined
}

/** One score request as JSON over LIMITS.eventBytes (batch events and gRPC; POST /v1/score has its bodyLimit). */
export function eventSizeError (body: unknown, param: string | undefined): ApiError | undefined {
  const bytes = Buffer.byteLength(JSON.stringify(body))
  if (bytes <= LIMITS.eventBytes) return undefined
  return new ApiError('event_too_large', `A score request holds at most ${LIMITS.eventBytes} bytes as JSON; this one has ${bytes}.`, param)
}

/** More keys than `max` in all the objects of `value`, at every level (counting stops at the bound). */
export function keysOver (value: unknown, max: number): boolean {
  let n = 0
  const walk = (v: unknown): boolean => {
    if (v === null || typeof v !== 'object') return false
    if (Array.isArray(v)) return v.some(walk)
    for (const k in v) {
      if (++n > max) return true
      if (walk((v as Record<string, unknown>)[k])) return true
    }
    return false
  }
  return walk(value)
}
