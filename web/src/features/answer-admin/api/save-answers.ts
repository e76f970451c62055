import { ConcurrentEditError } from '../../../lib/concurrent-edit.ts'
import { firestoreLite, getDb } from '../../../lib/firestore.ts'
import { type AnswerOwner, answersPathOf, ownerPathOf } from './answer-owner.ts'

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
