import { Field } from './field.tsx'

type Props = {
  label: string
  value: string
  onChange: (value: string) => void
  /** A class for a wrapper around the field (a list page's narrower search). */
  className?: string
}

/** A search box with its label, filtering a list as it is typed in. */
export function SearchField({ label, value, onChange, className }: Props) {
  const field = (
    <Field label={label}>
      {(control) => (
        <input {...control} type="search" value={value} onChange={(event) => onChange(event.target.value)} />
      )}
    </Field>
  )
  return className === undefined ? field : <div className={className}>{field}</div>
}
