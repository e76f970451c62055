import { type Answer, isDuplicateAnswer } from '@bosted/domain/answer'
import { formatNumber, parseDanishNumber } from '@bosted/domain/danish-format'
import { da } from '@bosted/domain/messages/da'
import { ANSWER_TEXT_MAX_LENGTH } from '@bosted/domain/validation'
import { type FormEvent, useId, useState } from 'react'
import { Dialog } from '../../../components/ui/dialog.tsx'
import { Field } from '../../../components/ui/field.tsx'

export type AnswerInput = { text: string; value: number }

type Props = {
  /** In display order, hidden ones included. */
  options: readonly Answer[]
  canEdit: boolean
  onAdd: (input: AnswerInput) => void
  onUpdate: (answer: Answer, changes: Partial<AnswerInput & { hidden: boolean }>) => void
  onReorder: (ids: string[]) => void
}

/**
 * A list of answer options: add, edit, hide/show, and reorder by dragging or with the Op/Ned
 * buttons (the keyboard alternative). Options are never deleted: registrations may use them.
 */
export function AnswerOptionsEditor({ options, canEdit, onAdd, onUpdate, onReorder }: Props) {
  const [editing, setEditing] = useState<Answer | null>(null)
  const [dragged, setDragged] = useState<string | null>(null)
  const listId = useId()
  const ids = options.map((option) => option.id)
  const moveTo = (from: number, to: number) => {
    if (to < 0 || to >= ids.length || from === to) return
    const next = [...ids]
    const [moved] = next.splice(from, 1)
    if (moved !== undefined) next.splice(to, 0, moved)
    onReorder(next)
  }

  return (
    <>
      {options.length === 0 ? (
        <p className="muted">{da.answersAdmin.empty}</p>
      ) : (
        <>
          {canEdit && (
            <p className="muted" id={listId}>
              {da.answersAdmin.orderHint}
            </p>
          )}
          <ol
            className="settings-order"
            aria-label={da.answersAdmin.list}
            aria-describedby={canEdit ? listId : undefined}
          >
            {options.map((option, index) => (
              <li
                key={option.id}
                className="settings-order__item"
                draggable={canEdit}
                data-dragging={dragged === option.id}
                onDragStart={(event) => {
                  setDragged(option.id)
                  event.dataTransfer.effectAllowed = 'move'
                  event.dataTransfer.setData('text/plain', option.id)
                }}
                onDragOver={(event) => {
                  if (dragged !== null) event.preventDefault()
                }}
                onDrop={(event) => {
                  event.preventDefault()
                  if (dragged !== null) moveTo(ids.indexOf(dragged), index)
                  setDragged(null)
                }}
                onDragEnd={() => setDragged(null)}
              >
                <span className="settings-order__text">
                  {option.text} <span className="muted">({option.value})</span>
                  {option.hidden && <span className="badge"> {da.answersAdmin.hidden}</span>}
                </span>
                {canEdit && (
                  <>
                    <button
                      type="button"
                      className="button button--secondary button--small"
                      aria-label={da.answersAdmin.moveUp(option.text)}
                      disabled={index === 0}
                      onClick={() => moveTo(index, index - 1)}
                    >
                      {da.answersAdmin.up}
                    </button>
                    <button
                      type="button"
                      className="button button--secondary button--small"
                      aria-label={da.answersAdmin.moveDown(option.text)}
                      disabled={index === options.length - 1}
                      onClick={() => moveTo(index, index + 1)}
                    >
                      {da.answersAdmin.down}
                    </button>
                    <button
                      type="button"
                      className="button button--secondary button--small"
                      aria-label={da.answersAdmin.edit(option.text)}
                      onClick={() => setEditing(option)}
                    >
                      {da.answersAdmin.editShort}
                    </button>
                    <button
                      type="button"
                      className="button button--secondary button--small"
                      aria-label={option.hidden ? da.answersAdmin.show(option.text) : da.answersAdmin.hide(option.text)}
                      onClick={() => onUpdate(option, { hidden: !option.hidden })}
                    >
                      {option.hidden ? da.answersAdmin.showShort : da.answersAdmin.hideShort}
                    </button>
                  </>
                )}
              </li>
            ))}
          </ol>
        </>
      )}
      {canEdit && (
        <AnswerForm
          title={da.answersAdmin.newOption}
          submitLabel={da.answersAdmin.add}
          existing={options}
          onSubmit={onAdd}
          resetOnSubmit
        />
      )}
      <Dialog title={da.answersAdmin.editTitle} isOpen={editing !== null} onClose={() => setEditing(null)}>
        {editing !== null && (
          <AnswerForm
            key={editing.id}
            initial={editing}
            existing={options.filter((option) => option.id !== editing.id)}
            submitLabel={da.form.save}
            onCancel={() => setEditing(null)}
            onSubmit={(input) => {
              onUpdate(editing, input)
              setEditing(null)
            }}
          />
        )}
      </Dialog>
    </>
  )
}

type FormProps = {
  title?: string
  initial?: AnswerInput
  /** The owner's other options: the same text and value again is refused. */
  existing: readonly Answer[]
  submitLabel: string
  resetOnSubmit?: boolean
  onSubmit: (input: AnswerInput) => void
  onCancel?: () => void
}

/** Text (required) and value (a number), validated on submit with the form's Danish messages. */
function AnswerForm({ title, initial, existing, submitLabel, resetOnSubmit = false, onSubmit, onCancel }: FormProps) {
  const [text, setText] = useState(initial?.text ?? '')
  const [value, setValue] = useState(initial === undefined ? '' : formatNumber(initial.value, 20))
  const [errors, setErrors] = useState<{ text?: string; value?: string }>({})
  const handleSubmit = (event: FormEvent) => {
    event.preventDefault()
    const number = parseDanishNumber(value)
    const next: { text?: string; value?: string } = {
      ...(text.trim() === '' ? { text: da.form.answerTextRequired } : {}),
      ...(text.trim().length > ANSWER_TEXT_MAX_LENGTH ? { text: da.validation.tooLong(ANSWER_TEXT_MAX_LENGTH) } : {}),
      ...(number.ok ? {} : { value: da.form.answerValueNumber }),
    }
    if (Object.keys(next).length === 0 && number.ok && isDuplicateAnswer(existing, { text, value: number.value }))
      next.text = da.form.answerDuplicate
    setErrors(next)
    if (!number.ok || Object.keys(next).length > 0) return
    onSubmit({ text: text.trim(), value: number.value })
    if (resetOnSubmit) {
      setText('')
      setValue('')
    }
  }
  const body = (
    <>
      <Field label={da.form.answerText} error={errors.text} hint={da.validation.maxLengthHint(ANSWER_TEXT_MAX_LENGTH)}>
        {(control) => (
          <input
            {...control}
            maxLength={ANSWER_TEXT_MAX_LENGTH}
            value={text}
            onChange={(event) => setText(event.target.value)}
          />
        )}
      </Field>
      <Field label={da.form.answerValue} error={errors.value}>
        {(control) => (
          <input {...control} inputMode="decimal" value={value} onChange={(event) => setValue(event.target.value)} />
        )}
      </Field>
      <div className="form__actions">
        {onCancel !== undefined && (
          <button type="button" className="button button--secondary" onClick={onCancel}>
            {da.form.cancel}
          </button>
        )}
        <button type="submit" className="button button--action">
          {submitLabel}
        </button>
      </div>
    </>
  )
  return (
    <form className="form" noValidate onSubmit={handleSubmit}>
      {title === undefined ? (
        body
      ) : (
        <fieldset className="form__group">
          <legend>{title}</legend>
          {body}
        </fieldset>
      )}
    </form>
  )
}
