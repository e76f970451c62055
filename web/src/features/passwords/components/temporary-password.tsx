import { da } from '@bosted/domain/messages/da'
import { TemporaryPasswordRequestSchema } from '@bosted/domain/password-requests'
import { zodResolver } from '@hookform/resolvers/zod'
import { type Resolver, useForm } from 'react-hook-form'
import * as z from 'zod/mini'
import { Field } from '../../../components/ui/field.tsx'
import { toastPromise } from '../../../lib/toast.ts'
import { setTemporaryPassword } from '../api/set-temporary-password.ts'
import { newPasswordProblem, passwordHint, usePasswordPolicy } from '../password-rules.ts'

/** The api's request (TemporaryPasswordRequestSchema) under the field's own name. */
const TemporaryPasswordFormSchema = z.object({ temporaryPassword: TemporaryPasswordRequestSchema.shape.password })
type TemporaryPasswordForm = z.infer<typeof TemporaryPasswordFormSchema>
const schemaResolver = zodResolver(TemporaryPasswordFormSchema)

type Props = { userId: string; name: string; email: string | null }

/**
 * Midlertidig adgangskode: an admin or superuser gives someone they manage a password to sign in
 * with once; that person must choose their own at once, and is signed out everywhere else.
 */
export function TemporaryPassword({ userId, name, email }: Props) {
  const policy = usePasswordPolicy()
  // The schema's rule first, then the policy's (the demo rule too: the request schema does not carry it).
  const resolver: Resolver<TemporaryPasswordForm> = async (values, context, options) => {
    const result = await schemaResolver(values, context, options)
    const problem = result.errors.temporaryPassword ? null : newPasswordProblem(policy, values.temporaryPassword, email)
    return problem === null
      ? result
      : { values: {}, errors: { temporaryPassword: { type: 'policy', message: problem } } }
  }
  const form = useForm<TemporaryPasswordForm>({
    // Checked on submit only, and the message stays until the next submit; the focus stays where it is.
    resolver,
    reValidateMode: 'onSubmit',
    shouldFocusError: false,
    defaultValues: { temporaryPassword: '' },
  })
  const submit = form.handleSubmit(async ({ temporaryPassword }) => {
    try {
      await toastPromise(setTemporaryPassword(userId, temporaryPassword), {
        pending: da.passwords.temporaryPending,
        resolved: da.passwords.temporaryOk,
        rejected: da.passwords.temporaryFail,
      })
      form.reset()
    } catch (failure) {
      const message = failure instanceof Error && failure.message !== '' ? failure.message : da.passwords.temporaryFail
      form.setError('temporaryPassword', { type: 'api', message })
    }
  })
  return (
    <form className="temporary-password" noValidate onSubmit={(event) => void submit(event)}>
      <h3>{da.passwords.temporaryTitle}</h3>
      <p>{da.passwords.temporaryIntro(name)}</p>
      <Field
        label={da.passwords.temporaryField}
        error={form.formState.errors.temporaryPassword?.message}
        hint={passwordHint(policy)}
      >
        {(control) => <input {...control} type="text" autoComplete="off" {...form.register('temporaryPassword')} />}
      </Field>
      <button type="submit" className="button button--secondary" disabled={form.formState.isSubmitting}>
        {da.passwords.temporarySubmit}
      </button>
    </form>
  )
}
