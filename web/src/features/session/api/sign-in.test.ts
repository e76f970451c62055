import { expect, test } from 'vitest'
import { ApiError } from '../../../lib/api-client.ts'
import { signInErrorMessage } from './sign-in.ts'

const authError = (code: string) => Object.assign(new Error(code), { code })

test('wrong credentials, unknown user, disabled user and too many attempts each get a Danish message', () => {
  expect(signInErrorMessage(authError('auth/invalid-credential'))).toBe('Forkert email eller adgangskode.')
  expect(signInErrorMessage(authError('auth/wrong-password'))).toBe('Forkert email eller adgangskode.')
  expect(signInErrorMessage(authError('auth/user-not-found'))).toBe('Der findes ingen bruger med denne email.')
  expect(signInErrorMessage(authError('auth/user-disabled'))).toBe(
    'Din bruger er deaktiveret. Kontakt din administrator.',
  )
  expect(signInErrorMessage(authError('auth/too-many-requests'))).toBe('For mange forsøg. Vent lidt, og prøv igen.')
})

test('a network failure, from Firebase or from our api, says so', () => {
  const message = 'Der er ingen forbindelse til serveren. Tjek din internetforbindelse, og prøv igen.'
  expect(signInErrorMessage(authError('auth/network-request-failed'))).toBe(message)
  expect(signInErrorMessage(new TypeError('Failed to fetch'))).toBe(message)
})

test('api refusals map by error code; anything else is a generic failure, never a stack trace', () => {
  expect(signInErrorMessage(new ApiError(403, 'forbidden', 'x'))).toBe(
    'Din bruger er deaktiveret. Kontakt din administrator.',
  )
  expect(signInErrorMessage(new ApiError(429, 'too_many_requests', 'x'))).toBe(
    'For mange forsøg. Vent lidt, og prøv igen.',
  )
  expect(signInErrorMessage(new ApiError(500, 'internal', 'x'))).toBe('Du kunne ikke logges ind. Prøv igen.')
  expect(signInErrorMessage(new Error('at foo (bar.js:1:1)'))).toBe('Du kunne ikke logges ind. Prøv igen.')
})
