import type { Answer } from '@bosted/domain/answer'
import { da } from '@bosted/domain/messages/da'
import type { Person } from '@bosted/domain/person'
import { useEffect, useState } from 'react'
import { onDemandCode, useOnDemandCode } from '../../../lib/on-demand-code.ts'
import { useCreateRegistration } from '../api/create-registration.ts'
import { useDeleteRegistration } from '../api/delete-registration.ts'
import type { StoredRegistration } from '../api/registration-document.ts'
import { useUpdateRegistration } from '../api/update-registration.ts'
import { ConfirmDialog } from './confirm-dialog.tsx'
import { FormUnavailable } from './form-unavailable.tsx'
import type { RegisterChoice } from './register-dialog.tsx'

// The form (react-hook-form) loads with the first registration, not with the page.
const registerDialog = onDemandCode(() => import('./register-dialog.tsx'))
/** After the page has shown its rows, fetch the form's code so the first "Registrer" opens at once. */
const PREFETCH_DELAY_MS = 1500

/** Who registers: the signed-in staff member. */
export type RegistrationAuthor = { id: string; name: string; isManager: boolean }
type OptionsLocation = { id: string; answerOptions: readonly string[] }
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
  /** The person whose answer options the open dialog needs (none for a deletion or no dialog). */
  asking: Person | null
  /** Where those options come from: the page's location, else the person's own. */
  optionsLocation: OptionsLocation
  open: Open
  /** Once shown, the dialog stays mounted, so closing it returns focus where it came from. */
  hasRegistered: boolean
  close: () => void
  choose: (choice: RegisterChoice) => void
  confirmDelete: () => void
}

/**
 * Registering, correcting and deleting, shared by /daily and /person/{id}/daily: which dialog is
 * open, and the writes with their promise toasts (each refreshes every registration list). The page
 * reads the options for `asking` and shows `RegistrationDialogs`.
 */
export function useRegistrationFlow(author: RegistrationAuthor, location: OptionsLocation | null): RegistrationFlow {
  const [open, setOpen] = useState<Open>(null)
  const [hasRegistered, setHasRegistered] = useState(false)
  useEffect(() => {
    const timer = setTimeout(() => void registerDialog.load().catch(() => {}), PREFETCH_DELAY_MS)
    return () => clearTimeout(timer)
  }, [])
  const create = useCreateRegistration()
  const update = useUpdateRegistration()
  const remove = useDeleteRegistration()
  const person = open?.person ?? null
  const optionsLocation = location ?? { id: person?.locationId ?? '', answerOptions: [] }
  const close = () => setOpen(null)

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
    canChange: (registration) => author.isManager || registration.createdBy === author.id,
    asking: open !== null && open.kind !== 'delete' ? open.person : null,
    optionsLocation,
    open,
    hasRegistered,
    close,
    choose: ({ answer, comment }) => {
      if (open === null || open.kind === 'delete') return
      if (open.kind === 'register') {
        create.mutate({
          personId: open.person.id,
          locationId: open.person.locationId ?? optionsLocation.id,
          day: open.day,
          answer,
          comment,
          createdBy: author.id,
          createdByName: author.name,
        })
      } else {
        update.mutate({
          personId: open.person.id,
          registrationId: open.registration.id,
          answer,
          comment,
          updatedBy: author.id,
        })
      }
      close()
    },
    confirmDelete: () => {
      if (open?.kind === 'delete') remove.mutate({ personId: open.person.id, registrationId: open.registration.id })
      close()
    },
  }
}

type DialogsProps = {
  flow: RegistrationFlow
  /** The answer options of `flow.asking` (the answers feature's query). */
  options: { data: Answer[] | undefined; isError: boolean; refetch: () => unknown }
  /** How a person is named in the dialog's title. */
  nameOf: (person: Person) => string
}

/**
 * The register / correct dialog and the delete confirmation of a `useRegistrationFlow`. Should the
 * form's code not have arrived when the tablet lost its wifi, a dialog says so instead, and the form
 * takes its place once the code has come (by itself when the tablet is online again).
 */
export function RegistrationDialogs({ flow, options, nameOf }: DialogsProps) {
  const { open, close } = flow
  const name = open === null ? '' : nameOf(open.person)
  const isFormOpen = open !== null && open.kind !== 'delete'
  const form = useOnDemandCode(registerDialog, flow.hasRegistered || isFormOpen)
  const title = open?.kind === 'correct' ? da.registration.correctTitle : da.registration.dialogTitle(name)
  const RegisterDialog = form.loaded?.RegisterDialog
  return (
    <>
      {RegisterDialog !== undefined ? (
        <RegisterDialog
          title={title}
          isOpen={isFormOpen}
          options={options.isError ? null : options.data}
          initial={
            open?.kind === 'correct'
              ? { answerId: open.registration.answerId, comment: open.registration.comment ?? '' }
              : undefined
          }
          onRetryOptions={() => void options.refetch()}
          onSubmit={flow.choose}
          onClose={close}
        />
      ) : (
        form.failed && <FormUnavailable title={title} isOpen={isFormOpen} onRetry={form.retry} onClose={close} />
      )}
      <ConfirmDialog
        isOpen={open?.kind === 'delete'}
        message={da.registration.deleteConfirm}
        confirmLabel={da.registration.delete}
        onConfirm={flow.confirmDelete}
        onClose={close}
      />
    </>
  )
}
