import '../../../test/setup.ts'
import type { Answer } from '@bosted/domain/answer'
import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { expect, test, vi } from 'vitest'
import { RegisterDialog } from './register-dialog.tsx'

const option = (id: string, text: string, value: number): Answer => ({
  id,
  text,
  value,
  hidden: false,
  entity: 'person',
  createdAt: '2026-01-01T00:00:00.000Z',
})
const options = [option('a', 'Sov godt', 3), option('b', 'Sov uroligt', 2)]

function open(props: Partial<Parameters<typeof RegisterDialog>[0]> = {}) {
  const onSubmit = vi.fn()
  render(
    <RegisterDialog
      title="Registrer svar for Anna Holm"
      isOpen
      options={options}
      onRetryOptions={() => {}}
      onSubmit={onSubmit}
      onClose={() => {}}
      {...props}
    />,
  )
  return { onSubmit }
}

test('the options are offered in the order given, each with its value', () => {
  open()
  expect(screen.getByRole('dialog', { name: 'Registrer svar for Anna Holm' })).toBeInTheDocument()
  expect(screen.getAllByRole('radio').map((radio) => radio.closest('label')?.textContent)).toEqual([
    'Sov godt3',
    'Sov uroligt2',
  ])
})

test('saving without choosing an answer says Vælg et svar and saves nothing', async () => {
  const { onSubmit } = open()
  await userEvent.click(screen.getByRole('button', { name: 'Gem' }))
  expect(await screen.findByText('Vælg et svar')).toBeInTheDocument()
  expect(onSubmit).not.toHaveBeenCalled()
})

test('saving hands over the chosen answer and the comment, trimmed', async () => {
  const { onSubmit } = open()
  await userEvent.click(screen.getByRole('radio', { name: /Sov uroligt/ }))
  await userEvent.type(screen.getByLabelText('Kommentar (valgfri)'), '  Vågnede kl. 3  ')
  await userEvent.click(screen.getByRole('button', { name: 'Gem' }))
  await vi.waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ answer: options[1], comment: 'Vågnede kl. 3' }))
})

test('a correction starts from the registration as it is', async () => {
  open({ title: 'Ret registrering', initial: { answerId: 'b', comment: 'Før' } })
  expect(screen.getByRole('dialog', { name: 'Ret registrering' })).toBeInTheDocument()
  await vi.waitFor(() => expect(screen.getByRole('radio', { name: /Sov uroligt/ })).toBeChecked())
  expect(screen.getByLabelText('Kommentar (valgfri)')).toHaveValue('Før')
})

test('options that could not be loaded show Prøv igen, which asks again', async () => {
  const onRetryOptions = vi.fn()
  open({ options: null, onRetryOptions })
  expect(screen.getByText('Svarmulighederne kunne ikke hentes.')).toBeInTheDocument()
  await userEvent.click(screen.getByRole('button', { name: 'Prøv igen' }))
  expect(onRetryOptions).toHaveBeenCalled()
  expect(screen.getByRole('button', { name: 'Gem' })).toBeDisabled()
})
