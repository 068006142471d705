import TextField, { type TextFieldProps } from '@mui/material/TextField';

export const OTP_LENGTH = 6;

type Props = Omit<TextFieldProps, 'onChange' | 'error' | 'value'> & {
  value: string;
  onChange: (value: string) => void;
  errorText?: string | undefined;
  length?: number;
};

/**
 * One field for a 6-digit code (spec 000 §5: OTP length 6). One input rather than six boxes: a pasted code,
 * the phone's one-time-code autofill and a screen reader all see a single field. Anything but digits is
 * dropped, so "123 456" pasted from an SMS works.
 */
export function OtpField({ value, onChange, errorText, helperText, length = OTP_LENGTH, ...rest }: Props) {
  return (
    <TextField
      {...rest}
      value={value}
      onChange={(e) => onChange(e.target.value.replace(/\D/g, '').slice(0, length))}
      error={Boolean(errorText)}
      helperText={errorText ?? helperText}
      autoComplete="one-time-code"
      slotProps={{
        htmlInput: {
          inputMode: 'numeric',
          // No maxLength: the browser would cut "123 456" to "123 45" before the spaces are dropped.
          spellCheck: false,
          style: { letterSpacing: '0.5em', fontVariantNumeric: 'tabular-nums', fontSize: '1.2rem' },
        },
      }}
    />
  );
}
