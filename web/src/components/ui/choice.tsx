import type { ComponentProps } from 'react'

type ChoiceProps = { label: string; type?: 'checkbox' | 'radio' } & Omit<ComponentProps<'input'>, 'type'>

/**
 * A checkbox or radio with its label around it, `Field`'s sibling for the controls whose label
 * follows them; takes `register(name)` or `checked`/`onChange`, and `aria-describedby` for a hint.
 * A group of them stays a fieldset with its legend (and the group's message under the choices).
 */
export function Choice({ label, type = 'checkbox', ...input }: ChoiceProps) {
  return (
    <label className="choice">
      <input type={type} {...input} />
      <span>{label}</span>
    </label>
  )
}
