import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

/**
 * The layers of docs/architecture.md. Inside `src/`, lowest first: a file may import its own layer and those
 * below it, never above, and the import graph has no circles. `gen` (generated Protobuf code) sits with the
 * domain. `topologies/` (at the repository root) is a layer of its own: a topology's files import `src/` up to
 * `stream` (domain, stores, stream) and their own folder, never another topology's; `topologies/registry.ts`
 * imports the topologies; and `src/app`, alone in `src/`, imports `topologies/registry.ts` and nothing else of
 * them. Test files (`*.test.ts`) are no part of the graph.
 */
const LAYERS = [['domain', 'gen', 'types'], ['stores'], ['stream'], ['services'], ['api', 'grpc', 'dashboard'], ['app']]
/** The highest layer of `src/` a topology may import. */
const TOPOLOGIES_SEE = LAYERS.findIndex(names => names.includes('stream'))
const repo = path.resolve(import.meta.dirname, '../..')
const src = path.join(repo, 'src')
const topologies = path.join(repo, 'topologies')
const registry = path.join(topologies, 'registry.ts')

/** Where a file sits: a layer of src/, or a topology folder (`registry` for the registry). */
type Place = { kind: 'src', rank: number, layer: string } | { kind: 'topology', folder: string }

const placeOf = (file: string): Place => {
  if (file.startsWith(topologies + path.sep)) {
    const parts = path.relative(topologies, file).split(path.sep)
    if (parts.length === 1) {
      if (file !== registry) throw new Error(`${name(file)}: only registry.ts sits at the top of topologies/; put it in a topology's folder`)
      return { kind: 'topology', folder: 'registry' }
    }
    return { kind: 'topology', folder: parts[0]! }
  }
  if (!file.startsWith(src + path.sep)) throw new Error(`${name(file)} is outside src/ and topologies/`)
  const layer = path.relative(src, file).split(path.sep)[0]!
  const rank = LAYERS.findIndex(names => names.includes(layer))
  if (rank < 0) throw new Error(`${name(file)} is in no layer: put it under src/ one of ${LAYERS.flat().join(', ')}, or in topologies/`)
  return { kind: 'src', rank, layer }
}

/** Why `file` may not import `target`, or undefined when it may. */
export function refusal (file: string, target: string): string | undefined {
  const from = placeOf(file)
  const to = placeOf(target)
  if (from.kind === 'src' && to.kind === 'src') return to.rank > from.rank ? 'points up a layer' : undefined
  if (from.kind === 'topology' && to.kind === 'src') return to.rank > TOPOLOGIES_SEE ? `a topology imports src/ up to ${LAYERS[TOPOLOGIES_SEE]!.join(', ')} only` : undefined
  if (from.kind === 'src' && to.kind === 'topology') return from.layer === 'app' && target === registry ? undefined : 'src/ sees of the topologies only topologies/registry.ts, from src/app'
  if (from.kind === 'topology' && to.kind === 'topology') {
    if (from.folder === to.folder) return undefined
    return from.folder === 'registry' ? undefined : 'a topology never imports another topology (nor the registry)'
  }
  return undefined
}

function sources (dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap(e => e.isDirectory() ? sources(path.join(dir, e.name)) : e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [path.join(dir, e.name)] : [])
}

/** Relative imports of a file (type-only imports included: they tie modules together just the same). */
function importsOf (file: string): string[] {
  const text = readFileSync(file, 'utf8')
  const out: string[] = []
  for (const m of text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)) out.push(path.resolve(path.dirname(file), m[1]!.replace(/\.js$/, '.ts')))
  return out
}

const files = [...sources(src), ...sources(topologies)]
const graph = new Map(files.map(f => [f, importsOf(f)]))
function name (f: string): string { return path.relative(repo, f) }

export function layerViolations (): string[] {
  const out: string[] = []
  for (const [file, imports] of graph) {
    for (const target of imports) {
      const why = refusal(file, target)
      if (why !== undefined) out.push(`${name(file)} -> ${name(target)}: ${why}`)
    }
  }
  return out.sort()
}

export function circles (): string[][] {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const found: string[][] = []
  let counter = 0
  const visit = (v: string) => {
    index.set(v, counter); low.set(v, counter); counter++
    stack.push(v); onStack.add(v)
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue
      if (!index.has(w)) { visit(w); low.set(v, Math.min(low.get(v)!, low.get(w)!)) } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!))
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = []
      let w: string
      do { w = stack.pop()!; onStack.delete(w); component.push(name(w)) } while (w !== v)
      if (component.length > 1) found.push(component.sort())
    }
  }
  for (const f of files) if (!index.has(f)) visit(f)
  return found
}

describe('layers', () => {
  it('every file is in a layer', () => {
    for (const f of files) expect(() => placeOf(f)).not.toThrow()
  })

  it('no import points up a layer, between topologies, or from src/ into a topology', () => {
    expect(layerViolations()).toEqual([])
  })

  it('no import circles', () => {
    expect(circles()).toEqual([])
  })

  it('refuses each kind of violation', () => {
    const at = (p: string) => path.join(repo, p)
    // within src/
    expect(refusal(at('src/stores/cases.ts'), at('src/stream/processor.ts'))).toBe('points up a layer')
    expect(refusal(at('src/stream/processor.ts'), at('src/stores/cases.ts'))).toBeUndefined()
    // a topology and src/
    expect(refusal(at('topologies/feedback/feedback.ts'), at('src/stream/topology.ts'))).toBeUndefined()
    expect(refusal(at('topologies/feedback/feedback.ts'), at('src/services/core.ts'))).toMatch(/up to/)
    expect(refusal(at('topologies/feedback/feedback.ts'), at('src/app/config.ts'))).toMatch(/up to/)
    // topologies among themselves
    expect(refusal(at('topologies/feedback/feedback.ts'), at('topologies/feedback/tree-trainer.ts'))).toBeUndefined()
    expect(refusal(at('topologies/feedback/feedback.ts'), at('topologies/billing/billing.ts'))).toMatch(/never imports another topology/)
    expect(refusal(at('topologies/feedback/feedback.ts'), at('topologies/registry.ts'))).toMatch(/never imports another topology/)
    expect(refusal(at('topologies/registry.ts'), at('topologies/billing/billing.ts'))).toBeUndefined()
    // src/ into the topologies: src/app, the registry only
    expect(refusal(at('src/app/app.ts'), at('topologies/registry.ts'))).toBeUndefined()
    expect(refusal(at('src/app/app.ts'), at('topologies/feedback/feedback.ts'))).toMatch(/only topologies\/registry.ts/)
    expect(refusal(at('src/stream/topology.ts'), at('topologies/registry.ts'))).toMatch(/only topologies\/registry.ts/)
    expect(() => placeOf(at('topologies/helpers.ts'))).toThrow(/only registry.ts/)
    expect(() => placeOf(at('src/misc/x.ts'))).toThrow(/in no layer/)
  })
})
