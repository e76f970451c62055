import { da } from '@bosted/domain/messages/da'
import {
  nameOrDefault,
  PERSON_DEFAULT_FIRST_NAME,
  PERSON_DEFAULT_LAST_NAME,
  type Person,
  type PersonUpdate,
} from '@bosted/domain/person'
import type { PromiseMessages } from '../../lib/toast.ts'

/** REQ-MSG-1: 'Opdaterer borger' → 'Borgeren blev opdateret korrekt' / 'Der skete en fejl med at opdatere borgeren'. */
export const PERSON_UPDATE_TOASTS: PromiseMessages<void> = {
  pending: da.person.updatePending,
  resolved: da.person.updateOk,
  rejected: da.person.updateFail,
}

export type GeneralValues = {
  firstName: string
  lastName: string
  email: string
  phone: string
  locale: string
  disabled: boolean
}

export function generalValuesOf(person: Person): GeneralValues {
  return {
    firstName: person.firstName,
    lastName: person.lastName,
    email: person.contact?.email ?? '',
    phone: person.contact?.phone ?? '',
    locale: person.locale,
    disabled: person.settings.disabled,
  }
}

/**
 * The general tab's fields as the update writes them: blank contact fields are stored as null, a
 * blank name as REQ-PERSON-2's default ('Ikke' 'Angivet').
 */
export function generalChanges(values: GeneralValues): PersonUpdate {
  return {
    firstName: nameOrDefault(values.firstName, PERSON_DEFAULT_FIRST_NAME),
    lastName: nameOrDefault(values.lastName, PERSON_DEFAULT_LAST_NAME),
    contact: { email: values.email.trim() || null, phone: values.phone.trim() || null },
    locale: values.locale,
    'settings.disabled': values.disabled,
  }
}
