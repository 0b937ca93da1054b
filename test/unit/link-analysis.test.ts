import { describe, expect, it } from 'vitest'
import { linkAnalysis, secondHop, type LinkGraph, type LinkKind } from '../../src/domain/link-analysis.js'

/** A graph from user -> identifiers; usersOf answers from the same map. */
function graphOf (identifiers: Record<string, Array<[LinkKind, string]>>): LinkGraph & { asked: string[] } {
  const asked: string[] = []
  return {
    asked,
    identifiersOf: user => identifiers[user] ?? [],
    usersOf: (kind, value) => {
      asked.push(`${kind}:${value}`)
      return Object.keys(identifiers).filter(u => identifiers[u]!.some(([k, v]) => k === kind && v === value))
    }
  }
}

describe('link analysis', () => {
  it('ties accounts through a shared device and card, and not through a shared IP', () => {
    const graph = graphOf({
      a: [['device', 'd1'], ['ip', '1.1.1.1']],
      b: [['device', 'd1'], ['card', 'c1']],
      c: [['card', 'c1']],
      d: [['ip', '1.1.1.1'], ['card', 'c9']],
      e: [['card', 'c9']]
    })
    const report = linkAnalysis({ event: 'payment', user_id: 'a', device_id: 'd1', ip: '1.1.1.1' }, {}, graph)!
    expect(report).toMatchObject({ linked_users: 1, cluster_size: 3, shared: { device: 1, ip: 1 } })
    // d shares only the IP: its card is not explored.
    expect(graph.asked).not.toContain('card:c9')
  })

  it('explores at most 1,000 second-hop identifiers, however many the linked users hold', () => {
    const identifiers: Record<string, Array<[LinkKind, string]>> = { me: [['device', 'hub']] }
    // 20 users on one device, each with 100 cards nobody else holds: 2,000 identifiers within two hops.
    for (let u = 0; u < 20; u++) identifiers[`u${u}`] = [['device', 'hub'], ...Array.from({ length: 100 }, (_, i) => ['card', `c${u}-${i}`] as [LinkKind, string])]
    const graph = graphOf(identifiers)
    const explored = [...secondHop(Object.keys(identifiers).filter(u => u !== 'me'), u => graph.identifiersOf(u), () => 21)]
    expect(explored).toHaveLength(1000)
    expect(explored[0]).toEqual(['device', 'hub'])
  })

  it('stops exploring once the cluster holds 500 users', () => {
    const sizes = [499, 500]
    let calls = 0
    const explored = [...secondHop(['x'], () => [['card', 'c1'], ['card', 'c2'], ['card', 'c3']], () => sizes[Math.min(calls++, 1)]!)]
    expect(explored).toEqual([['card', 'c1']])
  })
})
