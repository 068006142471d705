import { fields, messages } from '../../../domain/src/validation/fields';
import { PasswordField } from '../shared/PasswordField';
import { checkField, withoutEmpty, type Errors } from '../shared/validation';

export type NewPasswordValues = { newPassword: string; confirmPassword: string };

/** Spec 000 §5: the new-password rule, and a confirmation that must match ("Confirm Password Not Matching"). */
export function newPasswordErrors(v: NewPasswordValues): Errors<keyof NewPasswordValues> {
  return withoutEmpty({
    newPassword: checkField(fields.newPassword, v.newPassword),
    confirmPassword:
      v.confirmPassword === ''
        ? messages.required
        : v.confirmPassword !== v.newPassword
          ? messages.confirmPassword
          : undefined,
  });
}

/** New password and its confirmation, the rule shown as a hint until there is an error. */
export function NewPasswordFields({
  values,
  errors,
  onChange,
}: {
  values: NewPasswordValues;
  errors: Errors<keyof NewPasswordValues>;
  onChange: (field: keyof NewPasswordValues, value: string) => void;
}) {
  return (
    <>
      <PasswordField
        label="New Password"
        name="newPassword"
        required
        autoComplete="new-password"
        value={values.newPassword}
        onChange={(v) => onChange('newPassword', v)}
        errorText={errors.newPassword}
        helperText={messages.password}
        size="medium"
      />
      <PasswordField
        label="Confirm Password"
        name="confirmPassword"
        required
        autoComplete="new-password"
        value={values.confirmPassword}
        onChange={(v) => onChange('confirmPassword', v)}
        errorText={errors.confirmPassword}
        size="medium"
      />
    </>
  );
}
