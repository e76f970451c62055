import '../../test/setup.ts'
import { render, screen } from '@testing-library/react'
import { expect, test } from 'vitest'
import { Field } from './field.tsx'

test('the control is named by its label and described by its hint and its error', () => {
  render(
    <Field label="Fornavn" hint="Højst 50 tegn" error="Fornavn skal udfyldes">
      {(control) => <input {...control} />}
    </Field>,
  )
  const input = screen.getByRole('textbox', { name: 'Fornavn' })
  expect(input).toHaveAccessibleDescription('Højst 50 tegn Fornavn skal udfyldes')
  expect(input).toHaveAttribute('aria-invalid', 'true')
  expect(screen.getByRole('alert')).toHaveTextContent('Fornavn skal udfyldes')
})

test('extra ids describe the control after the hint and the error; empty ones are left out', () => {
  render(
    <Field label="Tekst" error="Teksten er for lang" describedBy={['count', null, false, '', 'dictation']}>
      {(control) => (
        <>
          <textarea {...control} />
          <p id="count">10 tegn tilbage</p>
          <p id="dictation">Tryk for at diktere</p>
        </>
      )}
    </Field>,
  )
  const area = screen.getByRole('textbox', { name: 'Tekst' })
  expect(area.getAttribute('aria-describedby')?.split(' ')).toEqual([
    expect.stringMatching(/-error$/),
    'count',
    'dictation',
  ])
  expect(area).toHaveAccessibleDescription('Teksten er for lang 10 tegn tilbage Tryk for at diktere')
})

test('with nothing to describe it the control has no aria-describedby', () => {
  render(
    <Field label="Efternavn" describedBy={[null]}>
      {(control) => <input {...control} />}
    </Field>,
  )
  const input = screen.getByRole('textbox', { name: 'Efternavn' })
  expect(input).not.toHaveAttribute('aria-describedby')
  expect(input).toHaveAttribute('aria-invalid', 'false')
})

test('an error not announced on its own still describes the control, without an alert', () => {
  render(
    <Field label="Email" error="Email er påkrævet" announceError={false} className="step">
      {(control) => <input {...control} />}
    </Field>,
  )
  const input = screen.getByRole('textbox', { name: 'Email' })
  expect(input).toHaveAccessibleDescription('Email er påkrævet')
  expect(screen.queryByRole('alert')).toBeNull()
  expect(input.parentElement).toHaveClass('step')
})
