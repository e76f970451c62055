import { da } from '@bosted/domain/messages/da'
import { displayName } from '@bosted/domain/names'
import { userPath } from '@bosted/domain/paths'
import { type User, UserSchema } from '@bosted/domain/user'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiSend } from '../../../lib/api-client.ts'
import { firestoreLite, getDb } from '../../../lib/firestore.ts'
import { invalidateRoots } from '../../../lib/query-roots.ts'
import { reportError } from '../../../lib/report-error.ts'
import { type PromiseMessages, toastPromise } from '../../../lib/toast.ts'
import type { ValidUserForm } from '../user-form.ts'
import { AuthCreateError, createAuthAccount, removeAuthAccount } from './auth-accounts.ts'

export type AddUserSteps = {
  createAuthAccount: typeof createAuthAccount
  removeAuthAccount: typeof removeAuthAccount
  writeUser: (user: User) => Promise<void>
  deleteUser: (userId: string) => Promise<void>
  setAdminRole: (userId: string) => Promise<void>
}

async function writeUser(user: User): Promise<void> {
  const [db, { doc, setDoc }] = await Promise.all([getDb(), firestoreLite()])
  await setDoc(doc(db, userPath(user.id)), user)
}

/** Only admins may delete a staff document (firestore.rules), and only admins create admins. */
async function deleteUser(userId: string): Promise<void> {
  const [db, { deleteDoc, doc }] = await Promise.all([getDb(), firestoreLite()])
  await deleteDoc(doc(db, userPath(userId)))
}

/** The api's role call keeps the admin claim and userRole together (ADR 0004); only admins may. */
async function setAdminRole(userId: string): Promise<void> {
  await apiSend(`/user/${encodeURIComponent(userId)}/role`, { method: 'PUT', body: { userRole: 'admin', admin: true } })
}

const steps: AddUserSteps = { createAuthAccount, removeAuthAccount, writeUser, deleteUser, setAdminRole }

/** users/{uid} as REQ-USER has it; an admin is written as a superuser until the role call makes it one. */
export function userDocument(id: string, form: ValidUserForm, now: Date): User {
  return UserSchema.parse({
    id,
    firstName: form.firstName,
    lastName: form.lastName,
    createdAt: now.toISOString(),
    avatarUrl: null,
    contact: { email: form.email, phone: form.phone === '' ? null : form.phone },
    jobRole: form.jobRole,
    locations: form.locations,
    userRole: form.userRole === 'admin' ? 'superuser' : form.userRole,
    settings: { disabled: false },
    locale: null,
  })
}

/**
 * Adding a staff member: the auth account, then users/{uid} with the chosen locations (and, for an
 * admin, the role call). A failure after the account exists removes it again.
 */
export async function addUser(form: ValidUserForm, now: Date = new Date(), run: AddUserSteps = steps) {
  const userId = await run.createAuthAccount({
    email: form.email,
    password: form.password,
    displayName: displayName(form),
  })
  const undo = async (written: boolean) => {
    // The api removes only an account no staff document uses: the document goes first.
    if (written) await run.deleteUser(userId)
    await run.removeAuthAccount(userId)
  }
  let written = false
  try {
    await run.writeUser(userDocument(userId, form, now))
    written = true
    if (form.userRole === 'admin') await run.setAdminRole(userId)
  } catch (error) {
    await undo(written).catch(() => {
      console.warn('a failed creation left an auth account behind')
    })
    throw error
  }
  return userId
}

/** The same toasts as for a person (REQ-MSG-2), worded for a staff member. */
export const ADD_USER_TOASTS: PromiseMessages<string> = {
  pending: da.user.addPending,
  resolved: da.user.addOk,
  rejected: (error) => (error instanceof AuthCreateError ? da.user.authCreateFail : da.user.addFail),
}

type AddOptions = {
  /** Runs once the user exists, before success is reported (their picture: storage.rules need users/{uid}). */
  afterAdd?: (userId: string) => Promise<unknown>
  onAdded?: (userId: string) => unknown
  onError?: (error: unknown) => unknown
}

/**
 * Adds a colleague with promise-style toasts (REQ-FLOW-1) worded as REQ-MSG-2 to REQ-MSG-4 word adding
 * a person (REQ-MSG has no texts for users); every staff list follows.
 */
export function useAddUser({ afterAdd, onAdded, onError }: AddOptions = {}) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (values: ValidUserForm) => {
      const userId = await toastPromise(addUser(values), ADD_USER_TOASTS)
      await afterAdd?.(userId)
      return userId
    },
    onSuccess: async (userId) => {
      await invalidateRoots(queryClient, ['staff'])
      await onAdded?.(userId)
    },
    onError: (error) => {
      reportError('a user could not be added')(error)
      onError?.(error)
    },
  })
}
