import { PersonSchema } from '@bosted/domain/person'
import { expect, test } from 'vitest'
import { generalChanges, generalValuesOf, PERSON_UPDATE_TOASTS } from './person-changes.ts'

test('the person update toasts are the spec texts', () => {
  expect(PERSON_UPDATE_TOASTS).toEqual({
    pending: 'Opdaterer borger',
    resolved: 'Borgeren blev opdateret korrekt',
    rejected: 'Der skete en fejl med at opdatere borgeren',
  })
})

test('the general tab starts from the person and writes blank contact fields as null', () => {
  const person = PersonSchema.parse({ id: 'p1', createdAt: '2026-01-01', contact: { email: 'a@demo.dk' } })
  const values = generalValuesOf(person)
  expect(values).toEqual({
    firstName: 'Ikke',
    lastName: 'Angivet',
    email: 'a@demo.dk',
    phone: '',
    locale: 'da',
    disabled: false,
  })
  expect(generalChanges({ ...values, firstName: ' Astrid ', email: ' ', disabled: true })).toEqual({
    firstName: 'Astrid',
    lastName: 'Angivet',
    contact: { email: null, phone: null },
    locale: 'da',
    'settings.disabled': true,
  })
})
