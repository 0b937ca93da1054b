import type { ComponentChildren } from 'preact'
import type { ApiErrorBody } from '../api.js'

/** A labelled input whose error (the API's, when its `param` names this field) shows next to it. */
export function Field (props: { label: string, name: string, type?: string, value: string, onInput: (v: string) => void, error?: ApiErrorBody | null, required?: boolean, autoComplete?: string, minLength?: number, maxLength?: number, pattern?: string }) {
  const id = `f-${props.name}`
  const mine = props.error?.param === props.name ? props.error : null
  return (
    <div class='field'>
      <label for={id}>{props.label}</label>
      <input
        id={id} name={props.name} type={props.type ?? 'text'} value={props.value} required={props.required}
        autoComplete={props.autoComplete} minLength={props.minLength} maxLength={props.maxLength} pattern={props.pattern}
        aria-invalid={mine !== null} aria-describedby={mine !== null ? `${id}-error` : undefined}
        onInput={e => props.onInput((e.target as HTMLInputElement).value)}
      />
      {mine !== null && <p id={`${id}-error`} class='error' role='alert'>{mine.message}</p>}
    </div>
  )
}

/** The API's error when no field of the form is named by it. */
export function FormError (props: { error: ApiErrorBody | null, fields: string[] }) {
  const e = props.error
  if (e === null || (e.param !== undefined && props.fields.includes(e.param))) return null
  return <p class='error' role='alert'>{e.message}</p>
}

export function Page (props: { title: string, children: ComponentChildren }) {
  return <section aria-labelledby='page-title'><h1 id='page-title'>{props.title}</h1>{props.children}</section>
}
