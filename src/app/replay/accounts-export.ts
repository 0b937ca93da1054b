import { createWriteStream } from 'node:fs'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { createGzip } from 'node:zlib'
import type { Features } from '../../domain/decision/types.js'
import { groupsOf, type EventGroup } from '../../domain/detection-protocol-accounts.js'
import { readLines } from './replay-events.js'

/**
 * The export of an account-events replay (bench:accounts with ACCOUNTS_EXPORT), for offline experiments
 * (bench/model-groups.ts): one JSON line per replayed event, gzipped, with what the protocol grades and trains
 * on and the features its decision recorded, read back from the service. Lines come newest first.
 */
export interface ExportedAccountEvent {
  trace_id: string
  /** EVENT_TIME (ms). */
  time_ms: number
  event: string
  /** The event's own group (groupsOf: `all` for a type the protocol does not name). */
  group: EventGroup
  user_id: string
  fraud: 0 | 1
  /** EVENT_TIME + LABEL_DELAY_DAYS (ms), null for a legitimate event. */
  known_ms: number | null
  /** The service's score at the time. */
  score: number
  /** The decision's recorded features (GET /v1/transactions: `evaluation.features`). */
  features: Features
}

export type ReplayedAccountEvent = Omit<ExportedAccountEvent, 'trace_id' | 'group' | 'features'>

/**
 * Writes `replayed` (by trace id) with each decision's recorded features to `file`: the tenant's transactions
 * are listed newest first, 100 a request (one key-range scan each, far cheaper than a read per trace id), and the
 * replayed ones written. Returns how many were written and how many the service did not list.
 */
export async function exportAccountEvents (file: string, replayed: ReadonlyMap<string, ReplayedAccountEvent>, api: { url: string, key: string }): Promise<{ written: number, missing: number }> {
  let written = 0
  async function * lines (): AsyncGenerator<string> {
    for (let after: string | undefined; ;) {
      const res = await fetch(`${api.url}/v1/transactions?limit=100${after === undefined ? '' : `&starting_after=${encodeURIComponent(after)}`}`, { headers: { authorization: `Bearer ${api.key}` } })
      if (res.status !== 200) throw new Error(`transactions not listed: ${res.status} ${await res.text()}`)
      const page = await res.json() as { has_more: boolean, data: Array<{ trace_id: string, evaluation: { features: Features } }> }
      let chunk = ''
      for (const t of page.data) {
        const e = replayed.get(t.trace_id)
        if (e === undefined) continue
        const line: ExportedAccountEvent = { trace_id: t.trace_id, ...e, group: groupsOf(e.event)[0]!, features: t.evaluation.features }
        chunk += JSON.stringify(line) + '\n'
        written++
      }
      if (chunk !== '') yield chunk
      if (!page.has_more || page.data.length === 0) return
      after = page.data[page.data.length - 1]!.trace_id
    }
  }
  await pipeline(Readable.from(lines()), createGzip(), createWriteStream(file))
  return { written, missing: replayed.size - written }
}

/** The events of an export, in the file's order. */
export async function * readAccountsExport (file: string): AsyncGenerator<ExportedAccountEvent> {
  for await (const line of readLines(file)) if (line !== '') yield JSON.parse(line) as ExportedAccountEvent
}
