import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { openStateDb } from '../../src/stores/state-db.js'
import { Outbox } from '../../src/stores/outbox.js'
import { tempDir } from '../support/app.js'

describe('outbox sequence', () => {
  it('continues after the entries still held and after those removed, across reopening', async () => {
    const dir = path.join(tempDir(), 'state')
    let state = await openStateDb(dir)
    let outbox = await Outbox.open(state)
    const append = async (n: number) => {
      const seqs = Array.from({ length: n }, () => outbox.nextSeq())
      await state.committer.commit(seqs.flatMap(seq => outbox.appendOps(seq, Buffer.from([0x0a, 0x01, 0x41]))))
      return seqs
    }
    expect(await append(3)).toEqual([1, 2, 3])
    await state.close()
    state = await openStateDb(dir)
    outbox = await Outbox.open(state)
    // Held entries: the sequence goes on after the last of them.
    expect(await append(2)).toEqual([4, 5])
    await state.committer.commit(outbox.removeOps(await outbox.read(10)))
    expect(await outbox.read(10)).toEqual([])
    await state.close()
    state = await openStateDb(dir)
    outbox = await Outbox.open(state)
    // An empty outbox: after the last removed.
    expect(await append(1)).toEqual([6])
    // Entries written late (a batch numbered before single requests that committed first) are removed last:
    // the sequence still goes on after the highest ever handed out, never reusing one.
    const early = [outbox.nextSeq(), outbox.nextSeq()]
    await append(2)
    await state.committer.commit(outbox.removeOps(await outbox.read(10)))
    await state.committer.commit(early.flatMap(seq => outbox.appendOps(seq, Buffer.from([0x0a, 0x01, 0x41]))))
    await state.committer.commit(outbox.removeOps(await outbox.read(10)))
    await state.close()
    state = await openStateDb(dir)
    outbox = await Outbox.open(state)
    expect(await append(1)).toEqual([11])
    await state.close()
  })
})
