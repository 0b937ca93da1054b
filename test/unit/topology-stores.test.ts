import { describe, expect, it } from 'vitest'
import { stateKey, TAG } from '../../src/stores/keys.js'
import { namedStore } from '../../src/stores/named-store.js'
import { checkStores, startTopologies, type Topology, type TopologyContext } from '../../src/stream/topology.js'
import { TOPOLOGIES } from '../../topologies/registry.js'
import { LEARNERS } from '../../topologies/feedback/learner-store.js'
import { LINK_GRAPH } from '../../topologies/async-scorer/graph-store.js'
import { DELIVERIES } from '../../topologies/webhook-delivery/retry-store.js'

const topology = (name: string, ...stores: Topology['stores']): Topology => ({ name, description: name, stores, build: () => ({ processors: [] }) })

describe('named stores of topologies', () => {
  it('keeps the keys stores wrote before they had names', () => {
    expect(LEARNERS.key('ten_1', 'live')).toEqual(stateKey(TAG.learner, 's', 'ten_1', 'live'))
    expect(LINK_GRAPH.id('ten_1', 'test', 'u', 'user_1')).toBe(stateKey(TAG.linkGraph, 'ten_1', 'test', 'u', 'user_1').toString())
    expect(DELIVERIES.key('dlv_1')).toEqual(stateKey(TAG.deliveryOwned, 'dlv_1'))
    expect(LEARNERS.key('ten_1', 'live').toString().startsWith(LEARNERS.prefix)).toBe(true)
  })

  it('accepts the registry: every name and prefix declared once', () => {
    expect(() => checkStores(Object.values(TOPOLOGIES))).not.toThrow()
    expect(TOPOLOGIES.feedback!.stores.length).toBeGreaterThan(0)
  })

  it('refuses two declarations of one name, one prefix, or prefixes one of which starts the other', () => {
    const a = topology('a', namedStore('a.rows', 'N', 'r'))
    expect(() => checkStores([a, topology('b', namedStore('a.rows', 'N', 'x'))])).toThrow(/a's store a.rows and b's store a.rows share a name/)
    expect(() => checkStores([a, topology('b', namedStore('b.rows', 'N', 'r'))])).toThrow(/share a key prefix/)
    // b's store would hold every key of a's
    expect(() => checkStores([a, topology('b', namedStore('b.all', 'N'))])).toThrow(/a's store a.rows and b's store b.all share a key prefix/)
    // inside one topology too
    expect(() => checkStores([topology('c', namedStore('c.one', 'N', 'r'), namedStore('c.two', 'N', 'r'))])).toThrow(/c's store c.one and c's store c.two/)
    // a part that only starts another part is no clash: parts are separated
    expect(() => checkStores([a, topology('b', namedStore('b.rows', 'N', 'rx'))])).not.toThrow()
  })

  it('refuses to start any topology of a registry whose stores clash', async () => {
    const registry = { a: topology('a', namedStore('a.rows', 'N', 'r')), b: topology('b', namedStore('b.rows', 'N', 'r')) }
    await expect(startTopologies(registry, ['a'], {} as TopologyContext)).rejects.toThrow(/share a key prefix/)
  })
})
