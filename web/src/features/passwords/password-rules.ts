import type { PasswordPolicyResponse } from '@bosted/domain/api'
import { da } from '@bosted/domain/messages/da'
import { passwordProblem } from '@bosted/domain/password-policy'
import { useQuery } from '@tanstack/react-query'
import { useCallback, useRef } from 'react'
import type { FieldValues, Resolver } from 'react-hook-form'
import { getPasswordPolicy } from './api/get-password-policy.ts'

/** The policy the api enforces; null while it loads (the api checks anyway). */
export function usePasswordPolicy(): PasswordPolicyResponse | null {
  const query = useQuery({
    queryKey: ['password-policy'],
    queryFn: getPasswordPolicy,
    staleTime: Number.POSITIVE_INFINITY,
  })
  return query.data ?? null
}

/** The hint under a new-password field: the pilot's rules in Danish; nothing under the demo rule. */
export const passwordHint = (policy: PasswordPolicyResponse | null): string | undefined =>
  policy?.policy === 'pilot' ? da.passwords.pilotHint : undefined

/** `{hint}` for a TextField, or nothing under the demo rule. */
export function passwordHintProps(policy: PasswordPolicyResponse | null): { hint?: string } {
  const hint = passwordHint(policy)
  return hint === undefined ? {} : { hint }
}

/** What is wrong with a new password under `policy` (null: nothing, or the policy is not known yet). */
export function newPasswordProblem(
  policy: PasswordPolicyResponse | null,
  password: string,
  email?: string | null,
): string | null {
  if (policy === null) return null
  return passwordProblem(password, { policy: policy.policy, email })
}

/** The policy for a form's resolver, read when it validates (it may arrive after the form was made). */
export function usePolicyRef(): { policy: PasswordPolicyResponse | null; get: () => PasswordPolicyResponse | null } {
  const policy = usePasswordPolicy()
  const ref = useRef(policy)
  ref.current = policy
  return { policy, get: useCallback(() => ref.current, []) }
}

/**
 * A form resolver that also checks the `password` field against the pilot policy (with the form's
 * `email`), after the form's own schema; the spec's rule is the schema's.
 */
export function withPasswordPolicy<T extends FieldValues & { password?: string; email?: string }, V>(
  resolver: Resolver<T, unknown, V>,
  getPolicy: () => PasswordPolicyResponse | null,
): Resolver<T, unknown, V> {
  return async (values, context, options) => {
    const result = await resolver(values, context, options)
    const policy = getPolicy()
    if (policy?.policy !== 'pilot' || 'password' in result.errors) return result
    const problem = newPasswordProblem(policy, values.password ?? '', values.email)
    if (problem === null) return result
    return { values: {}, errors: { ...result.errors, password: { type: 'policy', message: problem } } } as Awaited<
      ReturnType<Resolver<T, unknown, V>>
    >
  }
}
