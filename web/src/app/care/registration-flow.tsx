import { da } from '@bosted/domain/messages/da'
import type { Person } from '@bosted/domain/person'
import { canManage, roleOfClaims } from '@bosted/domain/user'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { lazy, type ReactNode, Suspense, useEffect, useState } from 'react'
import { getAnswerOptions } from '../../features/answers/api/get-answer-options.ts'
import { personName } from '../../features/persons/person-name.ts'
import { createRegistration } from '../../features/registrations/api/create-registration.ts'
import { deleteRegistration } from '../../features/registrations/api/delete-registration.ts'
import type { StoredRegistration } from '../../features/registrations/api/registration-document.ts'
import { updateRegistration } from '../../features/registrations/api/update-registration.ts'
import { ConfirmDialog } from '../../features/registrations/components/confirm-dialog.tsx'
import type { RegisterChoice } from '../../features/registrations/components/register-dialog.tsx'
import { fullName, type SessionUser } from '../../features/session/session-store.ts'
import { queryKeys } from '../../lib/query-keys.ts'
import { toastPromise } from '../../lib/toast.ts'

// The form (react-hook-form) loads with the first registration, not with the page.
const loadRegisterDialog = () => import('../../features/registrations/components/register-dialog.tsx')
const RegisterDialog = lazy(async () => ({ default: (await loadRegisterDialog()).RegisterDialog }))
/** After the page has shown its rows, fetch the form's code so the first "Registrer" opens at once. */
const PREFETCH_DELAY_MS = 1500

type Location = { id: string; answerOptions: readonly string[] }
type Open =
  | { kind: 'register'; person: Person; day: string }
  | { kind: 'correct'; person: Person; registration: StoredRegistration }
  | { kind: 'delete'; person: Person; registration: StoredRegistration }
  | null

export type RegistrationFlow = {
  register: (person: Person, day: string) => void
  correct: (person: Person, registration: StoredRegistration) => void
  remove: (person: Person, registration: StoredRegistration) => void
  /** Its author, a superuser or an admin may correct or delete a registration (the rules agree). */
  canChange: (registration: StoredRegistration) => boolean
  dialogs: ReactNode
}

/**
 * Registering, correcting and deleting, shared by /daily and /person/{id}/daily: the dialogs, the
 * writes with their promise toasts, and a refresh of every registration list afterwards.
 */
export function useRegistrationFlow(user: SessionUser, location: Location | null): RegistrationFlow {
  const queryClient = useQueryClient()
  const [open, setOpen] = useState<Open>(null)
  // Once shown, the dialog stays mounted, so closing it returns focus where it came from.
  const [hasRegistered, setHasRegistered] = useState(false)
  useEffect(() => {
    const timer = setTimeout(() => void loadRegisterDialog().catch(() => {}), PREFETCH_DELAY_MS)
    return () => clearTimeout(timer)
  }, [])
  const person = open?.person ?? null
  const wantsOptions = open !== null && open.kind !== 'delete'
  const optionsLocation = location ?? { id: person?.locationId ?? '', answerOptions: [] }
  const options = useQuery({
    queryKey: queryKeys.answerOptions(person?.id ?? '', optionsLocation.id),
    queryFn: () => getAnswerOptions(person as Person, optionsLocation),
    enabled: wantsOptions && person !== null,
    staleTime: 5 * 60_000,
  })

  const refresh = () => queryClient.invalidateQueries({ queryKey: queryKeys.registrations })
  const onError = (error: unknown) => console.warn('a registration could not be written', (error as Error).name)
  const create = useMutation({
    mutationFn: (input: Parameters<typeof createRegistration>[0]) =>
      toastPromise(createRegistration(input), {
        pending: da.registration.pending,
        resolved: da.registration.ok,
        rejected: da.registration.fail,
      }),
    onSettled: refresh,
    onError,
  })
  const update = useMutation({
    mutationFn: (input: Parameters<typeof updateRegistration>[0]) =>
      toastPromise(updateRegistration(input), {
        pending: da.registration.updatePending,
        resolved: da.registration.updateOk,
        rejected: da.registration.updateFail,
      }),
    onSettled: refresh,
    onError,
  })
  const remove = useMutation({
    mutationFn: ({ personId, registrationId }: { personId: string; registrationId: string }) =>
      toastPromise(deleteRegistration(personId, registrationId), {
        pending: da.registration.deletePending,
        resolved: da.registration.deleteOk,
        rejected: da.registration.deleteFail,
      }),
    onSettled: refresh,
    onError,
  })

  const close = () => setOpen(null)
  const handleChoice = ({ answer, comment }: RegisterChoice) => {
    if (open === null || open.kind === 'delete') return
    if (open.kind === 'register') {
      create.mutate({
        personId: open.person.id,
        locationId: open.person.locationId ?? optionsLocation.id,
        day: open.day,
        answer,
        comment,
        createdBy: user.id,
        createdByName: fullName(user),
      })
    } else {
      update.mutate({
        personId: open.person.id,
        registrationId: open.registration.id,
        answer,
        comment,
        updatedBy: user.id,
      })
    }
    close()
  }

  const isManager = canManage(roleOfClaims(user.customClaims), user.customClaims)
  const name = person === null ? '' : personName(person)
  const dialogs = (
    <>
      {(hasRegistered || (open !== null && open.kind !== 'delete')) && (
        <Suspense fallback={null}>
          <RegisterDialog
            title={open?.kind === 'correct' ? da.registration.correctTitle : da.registration.dialogTitle(name)}
            isOpen={open !== null && open.kind !== 'delete'}
            options={options.isError ? null : options.data}
            initial={
              open?.kind === 'correct'
                ? { answerId: open.registration.answerId, comment: open.registration.comment ?? '' }
                : undefined
            }
            onRetryOptions={() => void options.refetch()}
            onSubmit={handleChoice}
            onClose={close}
          />
        </Suspense>
      )}
      <ConfirmDialog
        isOpen={open?.kind === 'delete'}
        message={da.registration.deleteConfirm}
        confirmLabel={da.registration.delete}
        onConfirm={() => {
          if (open?.kind === 'delete') remove.mutate({ personId: open.person.id, registrationId: open.registration.id })
          close()
        }}
        onClose={close}
      />
    </>
  )
  return {
    register: (target, day) => {
      setHasRegistered(true)
      setOpen({ kind: 'register', person: target, day })
    },
    correct: (target, registration) => {
      setHasRegistered(true)
      setOpen({ kind: 'correct', person: target, registration })
    },
    remove: (target, registration) => setOpen({ kind: 'delete', person: target, registration }),
    canChange: (registration) => isManager || registration.createdBy === user.id,
    dialogs,
  }
}
