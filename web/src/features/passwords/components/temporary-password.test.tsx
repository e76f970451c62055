import '../../../test/setup.ts'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, expect, test, vi } from 'vitest'
import { TemporaryPassword } from './temporary-password.tsx'

const api = vi.hoisted(() => ({
  policy: { policy: 'demo' as 'demo' | 'pilot', minLength: 6, resetByMail: false },
  setTemporaryPassword: vi.fn(async (_userId: string, _password: string) => {}),
}))
vi.mock('../api/get-password-policy.ts', () => ({ getPasswordPolicy: async () => api.policy }))
vi.mock('../api/set-temporary-password.ts', () => ({ setTemporaryPassword: api.setTemporaryPassword }))

beforeEach(() => {
  api.policy = { policy: 'demo', minLength: 6, resetByMail: false }
  api.setTemporaryPassword.mockReset()
})

function renderForm() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  render(
    <QueryClientProvider client={client}>
      <TemporaryPassword userId="u1" name="Signe Berg" email="signe@kommune.dk" />
    </QueryClientProvider>,
  )
  return { field: screen.getByLabelText('Midlertidig adgangskode'), user: userEvent.setup() }
}

const submit = () => screen.getByRole('button', { name: 'Sæt midlertidig adgangskode' })

test('an empty temporary password is refused on submit, announced at the field, and the focus stays', async () => {
  const { field, user } = renderForm()
  await user.click(submit())
  expect(await screen.findByRole('alert')).toHaveTextContent('Adgangskode er påkrævet')
  expect(field).toHaveAttribute('aria-invalid', 'true')
  expect(field.getAttribute('aria-describedby')).toBe(screen.getByRole('alert').id)
  expect(submit()).toHaveFocus()
  expect(api.setTemporaryPassword).not.toHaveBeenCalled()
})

test("the policy's rule is checked before the api is asked, and the message stays until the next submit", async () => {
  api.policy = { policy: 'pilot', minLength: 12, resetByMail: false }
  const { field, user } = renderForm()
  expect(await screen.findByText('Mindst 12 tegn. Ikke emailen og ikke en almindelig adgangskode.')).toBeVisible()
  await user.type(field, 'kort')
  await user.click(submit())
  expect(await screen.findByRole('alert')).toHaveTextContent('Adgangskoden skal være mindst 12 tegn')
  await user.type(field, '-nu-er-den-lang-nok')
  expect(screen.getByRole('alert')).toHaveTextContent('Adgangskoden skal være mindst 12 tegn')
  await user.click(submit())
  await waitFor(() => expect(api.setTemporaryPassword).toHaveBeenCalledWith('u1', 'kort-nu-er-den-lang-nok'))
  await waitFor(() => expect(field).toHaveValue(''))
  expect(screen.queryByRole('alert')).toBeNull()
})

test("the api's refusal is shown at the field", async () => {
  api.setTemporaryPassword.mockRejectedValue(new Error('Adgangskoden er for almindelig'))
  const { field, user } = renderForm()
  await user.type(field, 'hest-kaffe-vindue-7')
  await user.click(submit())
  expect(await screen.findByRole('alert')).toHaveTextContent('Adgangskoden er for almindelig')
  expect(field).toHaveValue('hest-kaffe-vindue-7')
})
