import '../../test/setup.ts'
import { fireEvent, render, screen } from '@testing-library/react'
import { expect, test, vi } from 'vitest'
import { ReminderTimeForm } from './reminder-time-form.tsx'

function show(initial: string, canEdit = true) {
  const onSave = vi.fn()
  render(<ReminderTimeForm label="Påmindelse" initial={initial} canEdit={canEdit} onSave={onSave} />)
  return { onSave, input: screen.getByLabelText('Påmindelse') }
}

test('a valid time is saved as it is, an emptied field as no reminder', () => {
  const { onSave, input } = show('07:30')
  fireEvent.click(screen.getByRole('button', { name: 'Gem' }))
  expect(onSave).toHaveBeenLastCalledWith('07:30')
  fireEvent.change(input, { target: { value: '' } })
  fireEvent.click(screen.getByRole('button', { name: 'Gem' }))
  expect(onSave).toHaveBeenLastCalledWith(null)
})

test('without the right to edit the time is shown read-only and there is nothing to save', () => {
  const { input } = show('07:30', false)
  expect(input).toHaveAttribute('readonly')
  expect(screen.queryByRole('button', { name: 'Gem' })).toBeNull()
})
