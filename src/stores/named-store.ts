import { prefixRange, stateId, stateKey } from './keys.js'

/**
 * What a topology declares of a store it owns, as a Kafka Streams processor declares its StateStores: a name
 * and the prefix every key of the store starts with (the text of its keys' first parts). The topology runner
 * refuses two declarations with the same name, or with prefixes one of which starts the other
 * (stream/topology.ts, checkStores).
 */
export interface StoreDeclaration {
  readonly name: string
  readonly prefix: string
  /**
   * How erasing a tenant reaches the store (stores/erasure.ts): its keys name the tenant first (`tenantStore`), or
   * its values do (`tenantOf`, read from each value: a scan of the whole store).
   */
  readonly tenantFirst?: boolean
  tenantOf?(value: Buffer): string | undefined
}

/** A named store's keys: each is its tag and prefix parts, then the parts given (stores/keys.ts). */
export interface NamedStore extends StoreDeclaration {
  key(...parts: string[]): Buffer
  id(...parts: string[]): string
  /** [gte, lt) over every key of the store that starts with these parts. */
  range(...parts: string[]): [Buffer, Buffer]
}

/**
 * A store named `name` whose keys all start with `tag` and `prefixParts` (a tag of TAG, never reused; the parts
 * set it apart from other stores under the same tag). Its keys are exactly the `stateKey`s they were written
 * with before stores had names, so stored data keeps its keys.
 */
export function namedStore (name: string, tag: string, ...prefixParts: string[]): NamedStore {
  return {
    name,
    prefix: stateId(tag, ...prefixParts, ''),
    key: (...parts) => stateKey(tag, ...prefixParts, ...parts),
    id: (...parts) => stateId(tag, ...prefixParts, ...parts),
    range: (...parts) => prefixRange(tag, ...prefixParts, ...parts)
  }
}

/** A store whose keys name the tenant first, after its prefix: erasing a tenant deletes its range. */
export function tenantStore (name: string, tag: string, ...prefixParts: string[]): NamedStore {
  return { ...namedStore(name, tag, ...prefixParts), tenantFirst: true }
}
