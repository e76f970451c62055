import '../test/setup.ts'
import { render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import { signIn } from '../features/session/api/sign-in.ts'
import { setRuntimeConfig } from '../lib/config.ts'
import { LoginPage } from './login-page.tsx'

// The sign-in call is Firebase Auth and the api: stood in for here (the e2e sign-in journey runs it).
vi.mock('../features/session/api/sign-in.ts', () => ({
  signIn: vi.fn(),
  signInErrorMessage: () => 'Forkert email eller adgangskode',
}))

beforeEach(() => {
  setRuntimeConfig({
    firebase: { apiKey: 'k', authDomain: 'd', projectId: 'p', appId: 'a', storageBucket: 'b' },
    missingKeys: [],
    emulators: { auth: null, firestore: null, storage: null },
  })
})
afterEach(() => {
  setRuntimeConfig(null)
  vi.mocked(signIn).mockReset()
})

function show() {
  const props = { preload: vi.fn(), onSubmitted: vi.fn(), onSignedIn: vi.fn(async () => {}) }
  // No router around it: a first visit to /login shows the form alone (main.tsx).
  render(<LoginPage {...props} />)
  return props
}

async function submit(email: string, password: string) {
  const user = userEvent.setup()
  if (email !== '') await user.type(screen.getByLabelText('Email'), email)
  if (password !== '') await user.type(screen.getByLabelText('Adgangskode'), password)
  await user.click(screen.getByRole('button', { name: 'Log ind' }))
}

test('the form works without a router, and fetches what a sign-in leads to once it shows', async () => {
  const props = show()
  expect(screen.getByRole('heading', { level: 1 })).toBeInTheDocument()
  expect(screen.getByRole('button', { name: 'Log ind' })).toBeEnabled()
  await waitFor(() => expect(props.preload).toHaveBeenCalled())
})

test('an empty form says what is missing and starts nothing', async () => {
  const props = show()
  await submit('', '')
  expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true')
  expect(screen.getByLabelText('Adgangskode')).toHaveAttribute('aria-invalid', 'true')
  expect(screen.getByLabelText('Email')).toHaveAccessibleDescription('Email er påkrævet')
  expect(screen.getByLabelText('Adgangskode')).toHaveAccessibleDescription('Adgangskode er påkrævet')
  // The form's one alert region says what the sign-in answered; the field messages are not announced each.
  expect(screen.getAllByRole('alert')).toHaveLength(1)
  expect(props.onSubmitted).not.toHaveBeenCalled()
  expect(signIn).not.toHaveBeenCalled()
})

test('a valid form starts the landing page while signing in, then hands over the signed-in user', async () => {
  vi.mocked(signIn).mockResolvedValue('u1')
  const props = show()
  await submit('anna@example.dk', 'hemmelig')
  await waitFor(() => expect(props.onSignedIn).toHaveBeenCalledWith('u1'))
  expect(props.onSubmitted).toHaveBeenCalledTimes(1)
  expect(signIn).toHaveBeenCalledWith('anna@example.dk', 'hemmelig')
})

test('a refused sign-in shows its message and hands over nothing', async () => {
  vi.mocked(signIn).mockRejectedValue(new Error('auth/invalid-credential'))
  const props = show()
  await submit('anna@example.dk', 'forkert')
  expect(await screen.findByText('Forkert email eller adgangskode')).toBeInTheDocument()
  expect(props.onSignedIn).not.toHaveBeenCalled()
  expect(screen.getByRole('button', { name: 'Log ind' })).toBeEnabled()
})
