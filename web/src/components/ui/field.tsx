import { type ReactNode, useId } from 'react'

export type ControlProps = {
  id: string
  'aria-invalid': boolean
  'aria-describedby': string | undefined
}

type Props = {
  label: string
  /** The field's message (RHF + zod); shown under the control and announced. */
  error?: string | undefined
  hint?: string
  /**
   * More ids the control is described by, after the hint and the error: a character counter or a
   * dictation hint rendered with the control. Empty entries (`null`, `false`, `''`) are left out.
   */
  describedBy?: readonly (string | null | undefined | false)[]
  /**
   * Whether the error is announced as it appears (role="alert", the default). A form that says what
   * went wrong in one alert of its own (/login) shows its field messages without announcing each.
   */
  announceError?: boolean
  /** The wrapper's class: `field` by default; a field laid out by its container (a step-nav's day) names its own. */
  className?: string
  /** The control, given the ids and states that tie it to its label and error. */
  children: (control: ControlProps) => ReactNode
}

/** Label + control + error, used by every form, whoever holds its values (ADR 0030). */
export function Field({
  label,
  error,
  hint,
  describedBy: extra = [],
  announceError = true,
  className = 'field',
  children,
}: Props) {
  const id = useId()
  const errorId = `${id}-error`
  const hintId = `${id}-hint`
  const describedBy = [hint === undefined ? null : hintId, error ? errorId : null, ...extra].filter(Boolean).join(' ')
  return (
    <div className={className}>
      <label htmlFor={id}>{label}</label>
      {hint !== undefined && (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      )}
      {children({ id, 'aria-invalid': Boolean(error), 'aria-describedby': describedBy || undefined })}
      {error ? (
        <p id={errorId} className="field__error" role={announceError ? 'alert' : undefined}>
          {error}
        </p>
      ) : null}
    </div>
  )
}
