import { da } from '@bosted/domain/messages/da'
import type { ReactNode } from 'react'
import { SkippedNotice } from '../../../components/ui/skipped-notice.tsx'
import { sortByOrder } from '../answer-order.ts'
import type { AnswerOwner } from '../api/answer-owner.ts'
import { useOwnerAnswers } from '../api/get-owner-answers.ts'
import { useAddAnswer, useSaveAnswerOrder, useUpdateAnswer } from '../api/save-answers.ts'
import { AnswerOptionsEditor } from './answer-options-editor.tsx'

type Props = {
  owner: AnswerOwner
  canEdit: boolean
  /** After the order changed (the location's order also lives in the active-location store). */
  onOrderSaved?: (order: string[]) => void
  /** Shown while the options load (the page's loading state). */
  loading: ReactNode
}

/** A location's or person's answer options, read and written here; the editor gets them through props. */
export function AnswerAdmin({ owner, canEdit, onOrderSaved, loading }: Props) {
  const answers = useOwnerAnswers(owner)
  const add = useAddAnswer(owner, { onOrderSaved })
  const update = useUpdateAnswer(owner)
  const reorder = useSaveAnswerOrder(owner, { onOrderSaved })

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
  if (answers.data === undefined) return loading
  const options = sortByOrder(answers.data.options, answers.data.order)
  const order = options.map((option) => option.id)
  return (
    <>
      <SkippedNotice kind="answers" count={answers.data.skipped} />
      <AnswerOptionsEditor
        options={options}
        canEdit={canEdit}
        onAdd={(input) => add.mutate({ input, order })}
        onUpdate={(answer, changes) => update.mutate({ answerId: answer.id, changes })}
        onReorder={(next) => reorder.mutate({ order: next, seen: answers.data?.order ?? [] })}
      />
    </>
  )
}
