import '../../../test/setup.ts'
import type { Answer } from '@bosted/domain/answer'
import { fireEvent, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { expect, test, vi } from 'vitest'
import { AnswerOptionsEditor } from './answer-options-editor.tsx'

const option = (id: string, text: string, value: number, hidden = false): Answer => ({
  id,
  text,
  value,
  hidden,
  entity: 'location',
  createdAt: '2026-01-01T00:00:00.000Z',
})
const OPTIONS = [option('a', 'Glad', 4), option('b', 'Rolig', 3), option('c', 'Urolig', 2, true)]

function renderEditor(canEdit = true) {
  const handlers = { onAdd: vi.fn(), onUpdate: vi.fn(), onReorder: vi.fn() }
  render(<AnswerOptionsEditor options={OPTIONS} canEdit={canEdit} {...handlers} />)
  return handlers
}

test('the Op and Ned buttons move an option without dragging', async () => {
  const { onReorder } = renderEditor()
  await userEvent.click(screen.getByRole('button', { name: 'Flyt Rolig op' }))
  expect(onReorder).toHaveBeenCalledWith(['b', 'a', 'c'])
  await userEvent.click(screen.getByRole('button', { name: 'Flyt Glad ned' }))
  expect(onReorder).toHaveBeenLastCalledWith(['b', 'a', 'c'])
  expect(screen.getByRole('button', { name: 'Flyt Glad op' })).toBeDisabled()
})

test('a hidden option is marked and can be shown again; a shown one hidden', async () => {
  const { onUpdate } = renderEditor()
  expect(screen.getByText('Skjult')).toBeInTheDocument()
  await userEvent.click(screen.getByRole('button', { name: 'Vis Urolig' }))
  expect(onUpdate).toHaveBeenCalledWith(OPTIONS[2], { hidden: false })
  await userEvent.click(screen.getByRole('button', { name: 'Skjul Glad' }))
  expect(onUpdate).toHaveBeenLastCalledWith(OPTIONS[0], { hidden: true })
})

test('a new option needs a text and a numeric value', async () => {
  const { onAdd } = renderEditor()
  await userEvent.click(screen.getByRole('button', { name: 'Tilføj svarmulighed' }))
  expect(screen.getByText('Tekst er påkrævet')).toBeInTheDocument()
  expect(screen.getByText('Værdien skal være et tal')).toBeInTheDocument()
  expect(onAdd).not.toHaveBeenCalled()
  await userEvent.type(screen.getByLabelText('Tekst'), 'Træt')
  await userEvent.type(screen.getByLabelText('Værdi'), '1,5')
  await userEvent.click(screen.getByRole('button', { name: 'Tilføj svarmulighed' }))
  expect(onAdd).toHaveBeenCalledWith({ text: 'Træt', value: 1.5 })
})

test('an option with the same text and value as another of the owner is refused; the same text with another value is not', async () => {
  const { onAdd, onUpdate } = renderEditor()
  await userEvent.type(screen.getByLabelText('Tekst'), ' glad ')
  await userEvent.type(screen.getByLabelText('Værdi'), '4')
  await userEvent.click(screen.getByRole('button', { name: 'Tilføj svarmulighed' }))
  expect(screen.getByText('Der findes allerede en svarmulighed med samme tekst og værdi')).toBeInTheDocument()
  expect(onAdd).not.toHaveBeenCalled()
  await userEvent.clear(screen.getByLabelText('Værdi'))
  await userEvent.type(screen.getByLabelText('Værdi'), '5')
  await userEvent.click(screen.getByRole('button', { name: 'Tilføj svarmulighed' }))
  expect(onAdd).toHaveBeenCalledWith({ text: 'glad', value: 5 })
  // Editing an option may keep its own text and value; taking another's is refused.
  await userEvent.click(screen.getByRole('button', { name: 'Rediger Rolig' }))
  const dialog = screen.getByRole('dialog')
  await userEvent.click(within(dialog).getByRole('button', { name: 'Gem' }))
  expect(onUpdate).toHaveBeenCalledWith(OPTIONS[1], { text: 'Rolig', value: 3 })
})

test('a reader sees the options but no way to change them', () => {
  renderEditor(false)
  expect(screen.getAllByRole('listitem')).toHaveLength(3)
  expect(screen.queryByRole('button')).toBeNull()
})

test('dragging an option onto another moves it there', () => {
  const { onReorder } = renderEditor()
  const [glad, , urolig] = screen.getAllByRole('listitem')
  const dataTransfer = { setData: () => {}, effectAllowed: 'none' }
  fireEvent.dragStart(urolig as HTMLElement, { dataTransfer })
  fireEvent.dragOver(glad as HTMLElement, { dataTransfer })
  fireEvent.drop(glad as HTMLElement, { dataTransfer })
  expect(onReorder).toHaveBeenCalledWith(['c', 'a', 'b'])
})
