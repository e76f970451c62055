import { da } from '@bosted/domain/messages/da'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { ConcurrentEditError, isConcurrentEdit } from '../../../lib/concurrent-edit.ts'
import { firestoreLite, getDb } from '../../../lib/firestore.ts'
import { invalidateRoots } from '../../../lib/query-roots.ts'
import { reportError } from '../../../lib/report-error.ts'
import { toastPromise } from '../../../lib/toast.ts'
import { type AnswerOwner, answersPathOf, ownerPathOf } from './answer-owner.ts'
import type { OwnerAnswers } from './get-owner-answers.ts'
import { answerAdminKeys } from './keys.ts'

/**
 * A new option at the end of the order: its document, then the order that lists it, appended on
 * the server (arrayUnion) so an option a colleague added meanwhile is kept. `order` is the order
 * the editor saw; it is kept for callers and no longer written back.
 */
export async function addAnswer(
  owner: AnswerOwner,
  option: { text: string; value: number },
  order: readonly string[],
  now: Date = new Date(),
): Promise<string> {
  const [db, { arrayUnion, collection, doc, setDoc, updateDoc }] = await Promise.all([getDb(), firestoreLite()])
  void order
  const reference = doc(collection(db, answersPathOf(owner)))
  await setDoc(reference, {
    id: reference.id,
    text: option.text,
    value: option.value,
    hidden: false,
    entity: owner.entity,
    createdAt: now.toISOString(),
  })
  await updateDoc(doc(db, ownerPathOf(owner)), { 'settings.answerOptions': arrayUnion(reference.id) })
  return reference.id
}

/** Changes an option's text, value or visibility (options in use are hidden, never deleted). */
export async function updateAnswer(
  owner: AnswerOwner,
  answerId: string,
  changes: Partial<{ text: string; value: number; hidden: boolean }>,
): Promise<void> {
  const [db, { doc, updateDoc }] = await Promise.all([getDb(), firestoreLite()])
  await updateDoc(doc(db, `${answersPathOf(owner)}/${answerId}`), changes)
}

/**
 * Rewrites `settings.answerOptions`, the display order, in a transaction that first checks the
 * stored order is still `seen`, the one the editor reordered: an option a colleague added (or a
 * reorder a colleague saved) meanwhile is never overwritten from an older list (ConcurrentEditError
 * instead; the page then shows the stored order).
 */
export async function saveAnswerOrder(
  owner: AnswerOwner,
  order: readonly string[],
  seen: readonly string[],
): Promise<void> {
  const [db, { doc, runTransaction }] = await Promise.all([getDb(), firestoreLite()])
  const reference = doc(db, ownerPathOf(owner))
  await runTransaction(db, async (transaction) => {
    const snapshot = await transaction.get(reference)
    const value: unknown = snapshot.get('settings.answerOptions')
    // As getOwnerAnswers reads it: the string entries of the stored list.
    const stored = Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string') : []
    const unchanged = stored.length === seen.length && stored.every((id, index) => id === seen[index])
    if (!unchanged) throw new ConcurrentEditError('the answer options')
    transaction.update(reference, { 'settings.answerOptions': [...order] })
  })
}

const ANSWER_TOASTS = { pending: da.answersAdmin.pending, resolved: da.answersAdmin.ok, rejected: da.answersAdmin.fail }
const ORDER_TOASTS = {
  pending: da.answersAdmin.orderPending,
  resolved: da.answersAdmin.orderOk,
  rejected: (error: unknown) => (isConcurrentEdit(error) ? da.answersAdmin.orderConflict : da.answersAdmin.orderFail),
}

type AnswerChanges = Partial<{ text: string; value: number; hidden: boolean }>

const warn = reportError('an answer option could not be saved')

/** Every list of options (the register dialog's too) is read again after a change. */
function useRefreshAnswers() {
  const queryClient = useQueryClient()
  return () => queryClient.invalidateQueries({ queryKey: answerAdminKeys.all })
}

/**
 * A location's order is also part of the user's locations list (/daily's register dialog reads it
 * there): after its order changed, that list is read again. A person's order lives on the person only.
 */
function useRefreshOwnerOrder(owner: AnswerOwner) {
  const queryClient = useQueryClient()
  return () => (owner.entity === 'location' ? invalidateRoots(queryClient, ['locations']) : undefined)
}

export function useAddAnswer(owner: AnswerOwner) {
  const refresh = useRefreshAnswers()
  const orderSaved = useRefreshOwnerOrder(owner)
  return useMutation({
    mutationFn: ({ input, order }: { input: { text: string; value: number }; order: string[] }) =>
      toastPromise(addAnswer(owner, input, order), ANSWER_TOASTS),
    onSuccess: orderSaved,
    onSettled: refresh,
    onError: warn,
  })
}

export function useUpdateAnswer(owner: AnswerOwner) {
  const refresh = useRefreshAnswers()
  return useMutation({
    mutationFn: ({ answerId, changes }: { answerId: string; changes: AnswerChanges }) =>
      toastPromise(updateAnswer(owner, answerId, changes), ANSWER_TOASTS),
    onSettled: refresh,
    onError: warn,
  })
}

export function useSaveAnswerOrder(owner: AnswerOwner) {
  const queryClient = useQueryClient()
  const refresh = useRefreshAnswers()
  const orderSaved = useRefreshOwnerOrder(owner)
  return useMutation({
    // `seen`: the stored order the editor reordered, checked before the write (a colleague's change wins).
    mutationFn: ({ order, seen }: { order: string[]; seen: string[] }) =>
      toastPromise(saveAnswerOrder(owner, order, seen), ORDER_TOASTS),
    onMutate: ({ order }) => {
      // Shown in its new place at once; a failure puts it back on the refresh.
      queryClient.setQueryData(answerAdminKeys.owner(owner), (current: OwnerAnswers | undefined) =>
        current ? { ...current, order } : current,
      )
    },
    onSuccess: orderSaved,
    onSettled: refresh,
    onError: warn,
  })
}
