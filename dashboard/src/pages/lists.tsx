import { useEffect, useState } from 'preact/hooks'
import { api, can, type ApiErrorBody, type Session } from '../api.js'
import { Field, FormError } from '../components/form.js'

interface ValueList { alias: string, item_type: string, items_count: number, items?: string[] }

/** The ruleset's value lists; one list's items, added and removed (analysts and admins). */
export function Lists (props: { session: Session }) {
  const [lists, setLists] = useState<ValueList[]>([])
  const [open, setOpen] = useState<ValueList | null>(null)
  const [value, setValue] = useState('')
  const [error, setError] = useState<ApiErrorBody | null>(null)
  const mayWrite = can(props.session, 'lists:write')
  const load = async (alias?: string) => {
    const all = await api<{ data: ValueList[] }>('GET', '/v1/lists?limit=100')
    if (all.ok) setLists(all.data.data)
    if (alias !== undefined) {
      const one = await api<ValueList>('GET', `/v1/lists/${encodeURIComponent(alias)}`)
      if (one.ok) setOpen(one.data); else setError(one.error)
    }
  }
  useEffect(() => { void load() }, [])
  const add = async (e: Event) => {
    e.preventDefault()
    if (open === null) return
    if (value.trim() === '') { setError({ type: 'invalid_request_error', code: 'parameter_missing', message: 'Enter a value.', param: 'value' }); return }
    const res = await api('POST', `/v1/lists/${encodeURIComponent(open.alias)}/items`, { value: value.trim() })
    if (res.ok) { setValue(''); setError(null); await load(open.alias) } else setError(res.error)
  }
  const remove = async (item: string) => {
    if (open === null) return
    const res = await api('DELETE', `/v1/lists/${encodeURIComponent(open.alias)}/items/${encodeURIComponent(item)}`)
    if (res.ok) await load(open.alias); else setError(res.error)
  }
  return (
    <section aria-labelledby='lists-title'>
      <h2 id='lists-title'>Lists</h2>
      <table class='stack'><caption class='visually-hidden'>Value lists</caption>
        <thead><tr><th scope='col'>List</th><th scope='col'>Type</th><th scope='col'>Items</th></tr></thead>
        <tbody>{lists.map(l => (
          <tr key={l.alias}>
            <td data-label='List'><button type='button' class='link' onClick={() => { void load(l.alias) }} aria-current={open?.alias === l.alias ? 'true' : undefined}>{l.alias}</button></td>
            <td data-label='Type'>{l.item_type}</td><td data-label='Items'>{l.items_count}</td>
          </tr>
        ))}</tbody>
      </table>
      {open !== null && (
        <section aria-labelledby='list-title'>
          <h3 id='list-title'>List {open.alias}</h3>
          {(open.items ?? []).length === 0 ? <p>No items.</p> : (
            <ul class='items'>{(open.items ?? []).map(item => (
              <li key={item}><span class='item'>{item}</span> {mayWrite && <button type='button' class='secondary' onClick={() => { void remove(item) }} aria-label={`Remove ${item}`}>Remove</button>}</li>
            ))}</ul>
          )}
          {mayWrite && (
            <form onSubmit={add}>
              <Field label={`Add a value (${open.item_type})`} name='value' value={value} onInput={setValue} error={error} maxLength={256} />
              <FormError error={error} fields={['value']} />
              <button type='submit'>Add</button>
            </form>
          )}
        </section>
      )}
    </section>
  )
}
