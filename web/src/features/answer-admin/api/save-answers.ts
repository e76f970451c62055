import { firestoreLite, getDb } from '../../../lib/firestore.ts'
import { type AnswerOwner, answersPathOf, ownerPathOf } from './answer-owner.ts'

/** A new option at the end of the order: its document, then the order that lists it. */
export async function addAnswer(
  owner: AnswerOwner,
  option: { text: string; value: number },
  order: readonly string[],
  now: Date = new Date(),
): Promise<string> {
  const [db, { collection, doc, setDoc, updateDoc }] = await Promise.all([getDb(), firestoreLite()])
  const reference = doc(collection(db, answersPathOf(owner)))
  await setDoc(reference, {
    id: reference.id,
    text: option.text,
    value: option.value,
    hidden: false,
    entity: owner.entity,
    createdAt: now.toISOString(),
  })
  await updateDoc(doc(db, ownerPathOf(owner)), { 'settings.answerOptions': [...order, reference.id] })
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

/** Rewrites `settings.answerOptions`, the display order. */
export async function saveAnswerOrder(owner: AnswerOwner, order: readonly string[]): Promise<void> {
  const [db, { doc, updateDoc }] = await Promise.all([getDb(), firestoreLite()])
  await updateDoc(doc(db, ownerPathOf(owner)), { 'settings.answerOptions': [...order] })
}
