import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

/**
 * The layers of docs/architecture.md, lowest first: a file may import its own layer and those below it,
 * never above, and the import graph has no circles. `gen` (generated Protobuf code) sits with the domain.
 */
const LAYERS = [['domain', 'gen', 'types'], ['stores'], ['stream'], ['topologies'], ['services'], ['api', 'grpc', 'dashboard'], ['app']]
const root = path.resolve(import.meta.dirname, '../../src')

const rankOf = (file: string): number => {
  const top = path.relative(root, file).split(path.sep)[0]!
  const rank = LAYERS.findIndex(names => names.includes(top))
  if (rank < 0) throw new Error(`${path.relative(root, file)} is in no layer: put it under one of ${LAYERS.flat().join(', ')}`)
  return rank
}

function sources (dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap(e => e.isDirectory() ? sources(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : [])
}

/** Relative imports of a file (type-only imports included: they tie modules together just the same). */
function importsOf (file: string): string[] {
  const text = readFileSync(file, 'utf8')
  const out: string[] = []
  for (const m of text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)) out.push(path.resolve(path.dirname(file), m[1]!.replace(/\.js$/, '.ts')))
  return out
}

const files = sources(root)
const graph = new Map(files.map(f => [f, importsOf(f)]))
const name = (f: string) => path.relative(root, f)

export function layerViolations (): string[] {
  const out: string[] = []
  for (const [file, imports] of graph) {
    for (const target of imports) if (rankOf(target) > rankOf(file)) out.push(`${name(file)} -> ${name(target)}`)
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
    for (const f of files) expect(() => rankOf(f)).not.toThrow()
  })

  it('no import points up a layer', () => {
    expect(layerViolations()).toEqual([])
  })

  it('no import circles', () => {
    expect(circles()).toEqual([])
  })
})
