import { da } from '@bosted/domain/messages/da'
import { displayName } from '@bosted/domain/names'
import { DEFAULT_LOCALE, type Person, PersonSchema } from '@bosted/domain/person'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { invalidateRoots } from '../../../lib/query-roots.ts'
import { reportError } from '../../../lib/report-error.ts'
import { type PromiseMessages, toastPromise } from '../../../lib/toast.ts'
import { type AnswerDraft, answerValue, type ValidPersonForm } from '../person-form.ts'
import { AuthCreateError, createAuthAccount, removeAuthAccount } from './auth-accounts.ts'
import { addPersonToLocation, newAnswerId, writePersonDocuments } from './person-documents.ts'

export type AddPersonSteps = {
  createAuthAccount: typeof createAuthAccount
  removeAuthAccount: typeof removeAuthAccount
  newAnswerId: (personId: string) => Promise<string>
  writePersonDocuments: (person: Person, answers: { id: string; text: string; value: number }[]) => Promise<void>
  addPersonToLocation: (locationId: string, personId: string) => Promise<void>
}

const steps: AddPersonSteps = {
  createAuthAccount,
  removeAuthAccount,
  newAnswerId,
  writePersonDocuments,
  addPersonToLocation,
}

/** The person document of REQ-PERSON with every default, createdAt as an ISO string. */
export function personDocument(
  id: string,
  form: ValidPersonForm,
  locationId: string,
  answerIds: string[],
  now: Date,
): Person {
  return PersonSchema.parse({
    id,
    firstName: form.firstName,
    lastName: form.lastName,
    createdAt: now.toISOString(),
    avatarUrl: null,
    contact: { email: form.email, phone: form.phone === '' ? null : form.phone },
    settings: {
      answerOptions: answerIds,
      disabled: form.disabled,
      includePlaceAnswers: form.includePlaceAnswers,
      features: form.features,
      notifications: form.reminderTime === '' ? null : { reminderTime: form.reminderTime },
    },
    locale: DEFAULT_LOCALE,
    locationId,
  })
}

/**
 * Adding a person (REQ-DATA-2): the auth account, then persons/{uid} (with the person's own answer
 * options), then the id array-unioned into the location's persons. A failure after the account
 * exists removes the account again, so no orphan is left. Rejects with AuthCreateError when the
 * create call fails; the caller shows the toasts of REQ-MSG-2.
 */
export async function addPerson(
  form: ValidPersonForm,
  locationId: string,
  now: Date = new Date(),
  run: AddPersonSteps = steps,
): Promise<string> {
  const userId = await run.createAuthAccount({
    email: form.email,
    password: form.password,
    displayName: displayName(form),
  })
  try {
    const answers = await Promise.all(
      form.answers.map(async (answer: AnswerDraft) => ({
        id: await run.newAnswerId(userId),
        text: answer.text,
        value: answerValue(answer.value),
      })),
    )
    const person = personDocument(
      userId,
      form,
      locationId,
      answers.map((answer) => answer.id),
      now,
    )
    await run.writePersonDocuments(person, answers)
    await run.addPersonToLocation(locationId, userId)
    return userId
  } catch (error) {
    await run.removeAuthAccount(userId).catch(() => {
      console.warn('a failed creation left an auth account behind')
    })
    throw error
  }
}

export const isAuthCreateFailure = (error: unknown) => error instanceof AuthCreateError

/** REQ-MSG-2's toasts for adding a person: the create call's failure has a text of its own. */
export const ADD_PERSON_TOASTS: PromiseMessages<string> = {
  pending: da.person.addPending,
  resolved: da.person.addOk,
  rejected: (error) => (isAuthCreateFailure(error) ? da.person.authCreateFail : da.person.addFail),
}

type AddOptions = {
  /** Runs once the person exists, before success is reported (their picture goes under persons/{id}/). */
  afterAdd?: (personId: string) => Promise<unknown>
  onAdded?: (personId: string) => unknown
  onError?: (error: unknown) => unknown
}

/**
 * Adds a person to a location with the toasts of REQ-MSG-2 (pending, done), REQ-MSG-3 (the create call
 * failed) and REQ-MSG-4 (any other failure); every person list follows.
 */
export function useAddPerson({ afterAdd, onAdded, onError }: AddOptions = {}) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async ({ values, locationId }: { values: ValidPersonForm; locationId: string }) => {
      const personId = await toastPromise(addPerson(values, locationId), ADD_PERSON_TOASTS)
      await afterAdd?.(personId)
      return personId
    },
    onSuccess: async (personId) => {
      await invalidateRoots(queryClient, ['persons'])
      await onAdded?.(personId)
    },
    onError: (error) => {
      reportError('a person could not be added')(error)
      onError?.(error)
    },
  })
}
