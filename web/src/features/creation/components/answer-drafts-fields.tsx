import { da } from '@bosted/domain/messages/da'
import { ANSWER_TEXT_MAX_LENGTH } from '@bosted/domain/validation'
import { useFieldArray, useFormContext } from 'react-hook-form'
import { Choice } from '../../../components/ui/choice.tsx'
import { Field } from '../../../components/ui/field.tsx'
import type { PersonForm } from '../person-form.ts'

/** The person's own new answer options (text and value) and `includePlaceAnswers`. */
export function AnswerDraftsFields() {
  const { control, register, formState, watch } = useFormContext<PersonForm>()
  const { fields, append, remove } = useFieldArray({ control, name: 'answers' })
  return (
    <>
      <fieldset className="form__group">
        <legend>{da.form.answerOptions}</legend>
        {fields.length > 0 && (
          <ol className="answer-drafts">
            {fields.map((field, index) => {
              const errors = formState.errors.answers?.[index]
              return (
                <li key={field.id} className="answer-drafts__row">
                  <Field
                    label={da.form.answerText}
                    error={errors?.text?.message}
                    hint={da.validation.maxLengthHint(ANSWER_TEXT_MAX_LENGTH)}
                  >
                    {(props) => (
                      <input {...props} maxLength={ANSWER_TEXT_MAX_LENGTH} {...register(`answers.${index}.text`)} />
                    )}
                  </Field>
                  <Field label={da.form.answerValue} error={errors?.value?.message}>
                    {(props) => <input {...props} inputMode="decimal" {...register(`answers.${index}.value`)} />}
                  </Field>
                  <button
                    type="button"
                    className="button button--secondary button--small"
                    onClick={() => remove(index)}
                  >
                    {da.form.removeAnswer(watch(`answers.${index}.text`) ?? '')}
                  </button>
                </li>
              )
            })}
          </ol>
        )}
        <button type="button" className="button button--secondary" onClick={() => append({ text: '', value: '' })}>
          {da.form.addAnswer}
        </button>
      </fieldset>
      <Choice label={da.form.includePlaceAnswers} {...register('includePlaceAnswers')} />
    </>
  )
}
