import { da } from '@bosted/domain/messages/da'
import type { Person } from '@bosted/domain/person'
import type { PromiseMessages } from '../../lib/toast.ts'

/** SPEC §8: 'Opdaterer borger' → 'Borgeren blev opdateret korrekt' / 'Der skete en fejl med at opdatere borgeren'. */
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

/** The general tab's fields as the update writes them: blank contact fields are stored as null. */
export function generalChanges(values: GeneralValues): Record<string, unknown> {
  return {
    firstName: values.firstName.trim(),
    lastName: values.lastName.trim(),
    contact: { email: values.email.trim() || null, phone: values.phone.trim() || null },
    locale: values.locale,
    'settings.disabled': values.disabled,
  }
}
