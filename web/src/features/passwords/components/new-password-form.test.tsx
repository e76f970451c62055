import '../../../test/setup.ts'
import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { expect, test, vi } from 'vitest'
import { ApiError } from '../../../lib/api-client.ts'
import { NewPasswordForm } from './new-password-form.tsx'

const PILOT = { policy: 'pilot' as const, minLength: 12, resetByMail: false }

function renderForm(onSubmit = vi.fn(async () => {})) {
  render(
    <NewPasswordForm
      policy={PILOT}
      email="signe@kommune.dk"
      askCurrent
      submitLabel="Skift adgangskode"
      onSubmit={onSubmit}
    />,
  )
  return onSubmit
}

async function fill(current: string, next: string, repeat = next) {
  const user = userEvent.setup()
  if (current !== '') await user.type(screen.getByLabelText('Nuværende adgangskode'), current)
  if (next !== '') await user.type(screen.getByLabelText('Ny adgangskode'), next)
  if (repeat !== '') await user.type(screen.getByLabelText('Gentag ny adgangskode'), repeat)
  await user.click(screen.getByRole('button', { name: 'Skift adgangskode' }))
}

test('the pilot policy is said under the new password and checked before the api is asked', async () => {
  const onSubmit = renderForm()
  expect(screen.getByText('Mindst 12 tegn. Ikke emailen og ikke en almindelig adgangskode.')).toBeInTheDocument()
  await fill('gammel-kode-1', 'kort')
  expect(await screen.findByText('Adgangskoden skal være mindst 12 tegn')).toBeInTheDocument()
  expect(onSubmit).not.toHaveBeenCalled()
})

test('two different new passwords are refused', async () => {
  const onSubmit = renderForm()
  await fill('gammel-kode-1', 'hest-kaffe-vindue-7', 'hest-kaffe-vindue-8')
  expect(await screen.findByText('De to adgangskoder er ikke ens')).toBeInTheDocument()
  expect(onSubmit).not.toHaveBeenCalled()
})

test("the api's wrong-current-password answer is shown at the current password", async () => {
  const onSubmit = renderForm(
    vi.fn(async () => {
      throw new ApiError(400, 'invalid_request', 'Den nuværende adgangskode er forkert')
    }),
  )
  await fill('forkert-kode-1', 'hest-kaffe-vindue-7')
  expect(onSubmit).toHaveBeenCalledWith({ current: 'forkert-kode-1', next: 'hest-kaffe-vindue-7' })
  expect(await screen.findByText('Den nuværende adgangskode er forkert')).toBeInTheDocument()
  expect(screen.getByLabelText('Nuværende adgangskode')).toHaveAttribute('aria-invalid', 'true')
})
