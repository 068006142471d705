import { useState } from 'react';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import TextField, { type TextFieldProps } from '@mui/material/TextField';
import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';

type Props = Omit<TextFieldProps, 'type' | 'onChange' | 'error'> & {
  value: string;
  onChange: (value: string) => void;
  errorText?: string | undefined;
};

/** A password input with a show/hide toggle; the error, if any, is its accessible description. */
export function PasswordField({ value, onChange, errorText, helperText, ...rest }: Props) {
  const [shown, setShown] = useState(false);
  const label = String(rest.label ?? 'password');
  return (
    <TextField
      {...rest}
      type={shown ? 'text' : 'password'}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      error={Boolean(errorText)}
      helperText={errorText ?? helperText}
      slotProps={{
        input: {
          endAdornment: (
            <InputAdornment position="end">
              <IconButton
                aria-label={shown ? `Hide ${label}` : `Show ${label}`}
                onClick={() => setShown((v) => !v)}
                edge="end"
              >
                {shown ? <VisibilityOff /> : <Visibility />}
              </IconButton>
            </InputAdornment>
          ),
        },
      }}
    />
  );
}
