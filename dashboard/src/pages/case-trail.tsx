import { when } from '../api.js'

export interface HistoryEntry { type: 'opened' | 'assigned' | 'noted' | 'dispositioned', at: number, actor: string, actor_name?: string, outcome?: string, reason?: string, analyst?: string, assignee?: string, body?: string }

/** Who made a change, as a reader knows them: a user's name (with the id), the rules, or an API key's id. */
const who = (e: HistoryEntry) => e.actor_name !== undefined ? `${e.actor_name} (${e.actor})` : e.actor === 'case-opener' ? 'the rules' : e.actor

function line (e: HistoryEntry): string {
  switch (e.type) {
    case 'opened': return `Opened by ${who(e)}: ${e.reason ?? ''}`
    case 'assigned': return `Assigned to ${e.assignee ?? '?'} by ${who(e)}`
    case 'noted': return `Note by ${who(e)}: ${e.body ?? ''}`
    case 'dispositioned': return `Closed as ${e.outcome ?? '?'} by ${who(e)}${e.analyst !== undefined && e.analyst !== e.actor_name ? ` for ${e.analyst}` : ''}${e.reason !== undefined && e.reason !== '' ? `: ${e.reason}` : ' (no reason given)'}`
  }
}

/** The case's trail, oldest first: every change with who made it, when, and what it said. */
export function Trail (props: { history: HistoryEntry[] }) {
  return (
    <section aria-labelledby='history-title'>
      <h2 id='history-title'>Trail</h2>
      <ol class='history'>
        {props.history.map((e, i) => <li key={i} data-type={e.type}><time>{when(e.at)}</time> {line(e)}</li>)}
      </ol>
    </section>
  )
}
