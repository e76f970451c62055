import { da } from '@bosted/domain/messages/da'
import type { InputHTMLAttributes } from 'react'
import { type FieldValues, get, type Path, useFormContext } from 'react-hook-form'
import { Field } from './field.tsx'

type Props<T extends FieldValues> = {
  name: Path<T>
  label: string
  hint?: string
  /** The schema's bound: the input stops there, and the limit is shown as the field's hint. */
  maxLength?: number
} & Pick<InputHTMLAttributes<HTMLInputElement>, 'type' | 'autoComplete' | 'inputMode' | 'readOnly' | 'placeholder'>

/** A text input of the surrounding react-hook-form form, with its label, its limit and its schema's message. */
export function TextField<T extends FieldValues>({ name, label, hint, maxLength, ...input }: Props<T>) {
  const { register, formState } = useFormContext<T>()
  const error = get(formState.errors, name) as { message?: string } | undefined
  const shown = hint ?? (maxLength === undefined ? undefined : da.validation.maxLengthHint(maxLength))
  return (
    <Field label={label} error={error?.message} {...(shown === undefined ? {} : { hint: shown })}>
      {(control) => (
        <input {...control} {...input} {...(maxLength === undefined ? {} : { maxLength })} {...register(name)} />
      )}
    </Field>
  )
}
