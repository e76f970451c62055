import { da } from '@bosted/domain/messages/da'
import { QueryState } from '../../../components/ui/query-state.tsx'
import { SkippedNotice } from '../../../components/ui/skipped-notice.tsx'
import { sortByOrder } from '../answer-order.ts'
import type { AnswerOwner } from '../api/answer-owner.ts'
import { useOwnerAnswers } from '../api/get-owner-answers.ts'
import { useAddAnswer, useSaveAnswerOrder, useUpdateAnswer } from '../api/save-answers.ts'
import { AnswerOptionsEditor } from './answer-options-editor.tsx'

type Props = {
  owner: AnswerOwner
  canEdit: boolean
}

/** A location's or person's answer options, read and written here; the editor gets them through props. */
export function AnswerAdmin({ owner, canEdit }: Props) {
  const answers = useOwnerAnswers(owner)
  const add = useAddAnswer(owner)
  const update = useUpdateAnswer(owner)
  const reorder = useSaveAnswerOrder(owner)

  return (
    <QueryState query={answers} errorMessage={da.answersAdmin.loadFailed}>
      {(data) => {
        const options = sortByOrder(data.options, data.order)
        const order = options.map((option) => option.id)
        return (
          <>
            <SkippedNotice kind="answers" count={data.skipped} />
            <AnswerOptionsEditor
              options={options}
              canEdit={canEdit}
              onAdd={(input) => add.mutate({ input, order })}
              onUpdate={(answer, changes) => update.mutate({ answerId: answer.id, changes })}
              onReorder={(next) => reorder.mutate({ order: next, seen: data.order })}
            />
          </>
        )
      }}
    </QueryState>
  )
}
