import type { InputHTMLAttributes } from 'react'
import { type FieldValues, get, type Path, useFormContext } from 'react-hook-form'
import { Field } from './field.tsx'

type Props<T extends FieldValues> = {
  name: Path<T>
  label: string
  hint?: string
} & Pick<InputHTMLAttributes<HTMLInputElement>, 'type' | 'autoComplete' | 'inputMode' | 'readOnly' | 'placeholder'>

/** A text input of the surrounding react-hook-form form, with its label and its schema's message. */
export function TextField<T extends FieldValues>({ name, label, hint, ...input }: Props<T>) {
  const { register, formState } = useFormContext<T>()
  const error = get(formState.errors, name) as { message?: string } | undefined
  return (
    <Field label={label} error={error?.message} {...(hint === undefined ? {} : { hint })}>
      {(control) => <input {...control} {...input} {...register(name)} />}
    </Field>
  )
}
