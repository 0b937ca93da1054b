import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { GroupCommitter, openRocks, writeBatchSync } from '../../src/stores/rocks.js'

const dirs: string[] = []
afterEach(() => { for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true }) })
const fresh = () => { const d = mkdtempSync(path.join(tmpdir(), 'fds-rocks-')); dirs.push(d); return d }

/** The resources abstract-level keeps attached to a database until each is closed (or the database is). */
const attached = (db: object): Set<unknown> => {
  const symbol = Object.getOwnPropertySymbols(db).find(s => s.description === 'resources')!
  return (db as Record<symbol, Set<unknown>>)[symbol]!
}

describe('writeBatchSync', () => {
  it('writes the ops and leaves no batch attached to the database, written or failed', async () => {
    const db = await openRocks(fresh(), { memtableMb: 4, cacheMb: 4, dictionary: false })
    try {
      const before = attached(db).size
      for (let i = 0; i < 100; i++) writeBatchSync(db, [{ type: 'put', key: Buffer.from(`k${i}`), value: Buffer.from(`v${i}`) }], false)
      expect(() => writeBatchSync(db, [{ type: 'put', key: Buffer.from('bad'), value: undefined as unknown as Buffer }], false)).toThrow()
      expect(attached(db).size).toBe(before)
      const [value] = (db as unknown as { _getManySync(keys: Buffer[], options: object): Array<Buffer | undefined> })._getManySync([Buffer.from('k99')], {})
      expect(value?.toString()).toBe('v99')
    } finally {
      await db.close()
    }
  })

  it('leaves none attached through group commits either', async () => {
    const db = await openRocks(fresh(), { memtableMb: 4, cacheMb: 4, dictionary: false })
    try {
      const committer = new GroupCommitter(db)
      const before = attached(db).size
      for (let i = 0; i < 20; i++) await committer.commit([{ type: 'put', key: Buffer.from(`g${i}`), value: Buffer.from('x') }])
      expect(attached(db).size).toBe(before)
    } finally {
      await db.close()
    }
  })
})

describe('openRocks', () => {
  /** Each column family's ZSTD dictionary size, from the OPTIONS file RocksDB writes when it opens. */
  const dictionaryBytes = (dir: string) => {
    const options = readFileSync(path.join(dir, readdirSync(dir).filter(f => f.startsWith('OPTIONS-')).sort().at(-1)!), 'utf8')
    return Object.fromEntries([...options.matchAll(/\[CFOptions "([^"]+)"\][^[]*?\bcompression_opts=\{[^}]*?\bmax_dict_bytes=(\d+)/g)].map(m => [m[1], Number(m[2])]))
  }

  it('trains a compression dictionary only for the column families that ask for one', async () => {
    const dir = fresh()
    const db = await openRocks(dir, { memtableMb: 4, cacheMb: 4, dictionary: true }, { plain: { memtableMb: 4, cacheMb: 4, dictionary: false } })
    await db.close()
    expect(dictionaryBytes(dir)).toEqual({ default: 16384, plain: 0 })
  })
})
