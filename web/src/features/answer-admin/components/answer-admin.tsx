import type { Answer } from '@bosted/domain/answer'
import { da } from '@bosted/domain/messages/da'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { RouteLoading } from '../../../app/layout/route-loading.tsx'
import { SkippedNotice } from '../../../components/ui/skipped-notice.tsx'
import { isConcurrentEdit } from '../../../lib/concurrent-edit.ts'
import { toastPromise } from '../../../lib/toast.ts'
import { sortByOrder } from '../answer-order.ts'
import type { AnswerOwner } from '../api/answer-owner.ts'
import { getOwnerAnswers } from '../api/get-owner-answers.ts'
import { addAnswer, saveAnswerOrder, updateAnswer } from '../api/save-answers.ts'
import { type AnswerInput, AnswerOptionsEditor } from './answer-options-editor.tsx'

const ANSWER_TOASTS = { pending: da.answersAdmin.pending, resolved: da.answersAdmin.ok, rejected: da.answersAdmin.fail }
const ORDER_TOASTS = {
  pending: da.answersAdmin.orderPending,
  resolved: da.answersAdmin.orderOk,
  rejected: (error: unknown) => (isConcurrentEdit(error) ? da.answersAdmin.orderConflict : da.answersAdmin.orderFail),
}

export const ownerAnswersKey = (owner: AnswerOwner) => ['answers', 'admin', owner.entity, owner.id] as const

type Props = {
  owner: AnswerOwner
  canEdit: boolean
  /** After the order changed (the location's order also lives in the active-location store). */
  onOrderSaved?: (order: string[]) => void
}

/** A location's or person's answer options, read and written here; the editor gets them through props. */
export function AnswerAdmin({ owner, canEdit, onOrderSaved }: Props) {
  const queryClient = useQueryClient()
  const key = ownerAnswersKey(owner)
  const answers = useQuery({ queryKey: key, queryFn: () => getOwnerAnswers(owner) })
  // Every list of options (the register dialog's too) is read again after a change.
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['answers'] })
  const onError = (error: unknown) => console.warn('an answer option could not be saved', (error as Error).name)

  const add = useMutation({
    mutationFn: ({ input, order }: { input: AnswerInput; order: string[] }) =>
      toastPromise(addAnswer(owner, input, order), ANSWER_TOASTS),
    onSuccess: (id, { order }) => onOrderSaved?.([...order, id]),
    onSettled: refresh,
    onError,
  })
  const update = useMutation({
    mutationFn: ({ answer, changes }: { answer: Answer; changes: Partial<AnswerInput & { hidden: boolean }> }) =>
      toastPromise(updateAnswer(owner, answer.id, changes), ANSWER_TOASTS),
    onSettled: refresh,
    onError,
  })
  const reorder = useMutation({
    // `seen`: the stored order the editor reordered, checked before the write (a colleague's change wins).
    mutationFn: ({ order, seen }: { order: string[]; seen: string[] }) =>
      toastPromise(saveAnswerOrder(owner, order, seen), ORDER_TOASTS),
    onMutate: ({ order }) => {
      // Shown in its new place at once; a failure puts it back on the refresh.
      queryClient.setQueryData(key, (current: typeof answers.data) => (current ? { ...current, order } : current))
    },
    onSuccess: (_, { order }) => onOrderSaved?.(order),
    onSettled: refresh,
    onError,
  })

  if (answers.isError) {
    return (
      <div className="notice notice--error" role="alert">
        <p>{da.answersAdmin.loadFailed}</p>
        <button type="button" className="button button--secondary" onClick={() => void answers.refetch()}>
          {da.daily.retry}
        </button>
      </div>
    )
  }
  if (answers.data === undefined) return <RouteLoading />
  const options = sortByOrder(answers.data.options, answers.data.order)
  const order = options.map((option) => option.id)
  return (
    <>
      <SkippedNotice kind="answers" count={answers.data.skipped} />
      <AnswerOptionsEditor
        options={options}
        canEdit={canEdit}
        onAdd={(input) => add.mutate({ input, order })}
        onUpdate={(answer, changes) => update.mutate({ answer, changes })}
        onReorder={(next) => reorder.mutate({ order: next, seen: answers.data?.order ?? [] })}
      />
    </>
  )
}
