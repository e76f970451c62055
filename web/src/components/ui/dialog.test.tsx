import '../../test/setup.ts'
import { render, screen } from '@testing-library/react'
import { expect, test, vi } from 'vitest'
import { Dialog } from './dialog.tsx'

test('an open dialog is modal, named by its title, and styled to fit the screen', () => {
  render(
    <Dialog title="Registrer svar" isOpen onClose={() => {}}>
      <p>Indhold</p>
    </Dialog>,
  )
  const dialog = screen.getByRole('dialog', { name: 'Registrer svar' }) as HTMLDialogElement
  expect(dialog.open).toBe(true)
  expect(dialog).toHaveClass('dialog')
  expect(dialog).toContainElement(screen.getByText('Indhold'))
})

test('a dialog its owner closes is closed, and the owner hears of it', () => {
  const onClose = vi.fn()
  const { rerender } = render(
    <Dialog title="Registrer svar" isOpen onClose={onClose}>
      <p>Indhold</p>
    </Dialog>,
  )
  const dialog = screen.getByRole('dialog', { name: 'Registrer svar' }) as HTMLDialogElement
  rerender(
    <Dialog title="Registrer svar" isOpen={false} onClose={onClose}>
      <p>Indhold</p>
    </Dialog>,
  )
  expect(dialog.open).toBe(false)
  expect(onClose).toHaveBeenCalled()
})
