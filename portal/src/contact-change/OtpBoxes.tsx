import { useRef, useState, type ClipboardEvent, type KeyboardEvent } from 'react';
import Box from '@mui/material/Box';
import FormLabel from '@mui/material/FormLabel';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import { styled } from '@mui/material/styles';
import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';

export const CONTACT_OTP_LENGTH = 4;

const DigitBox = styled('input')(({ theme }) => ({
  width: 48,
  height: 52,
  textAlign: 'center',
  fontSize: '1.4rem',
  fontVariantNumeric: 'tabular-nums',
  border: `1px solid ${theme.palette.divider}`,
  borderRadius: theme.shape.borderRadius,
  outline: 'none',
  '&:focus': { borderColor: theme.palette.primary.main, boxShadow: `0 0 0 2px ${theme.palette.primary.light}` },
}));

/** `digits` holds one entry per box ('' = empty). */
export const emptyDigits = (): string[] => Array.from({ length: CONTACT_OTP_LENGTH }, () => '');
export const isComplete = (digits: readonly string[]): boolean => digits.every((d) => /^\d$/.test(d));

/**
 * Spec 000 §2 "OTP page for contact change": four single-character boxes with a show/hide toggle. Typing a
 * digit moves to the next box, Backspace in an empty box moves back (and clears it), and a pasted code fills
 * the boxes from the one pasted into. Hidden by default, like a password: the code is a secret.
 */
export function OtpBoxes({
  label,
  digits,
  onChange,
  disabled = false,
}: {
  label: string;
  digits: readonly string[];
  onChange: (digits: string[]) => void;
  disabled?: boolean;
}) {
  const [shown, setShown] = useState(false);
  const boxes = useRef<(HTMLInputElement | null)[]>([]);
  const focus = (i: number) => {
    const box = boxes.current[Math.max(0, Math.min(CONTACT_OTP_LENGTH - 1, i))];
    box?.focus();
    box?.select();
  };

  const set = (i: number, value: string) => {
    const next = [...digits];
    next[i] = value;
    onChange(next);
  };

  const onType = (i: number, raw: string) => {
    const typed = raw.replace(/\D/g, '');
    if (typed === '') return set(i, '');
    // A box holding a digit gets the new one: the last typed character wins.
    set(i, typed.slice(-1));
    if (i < CONTACT_OTP_LENGTH - 1) focus(i + 1);
  };

  const onKeyDown = (i: number, event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Backspace' && digits[i] === '' && i > 0) {
      event.preventDefault();
      set(i - 1, '');
      focus(i - 1);
    } else if (event.key === 'ArrowLeft' && i > 0) {
      event.preventDefault();
      focus(i - 1);
    } else if (event.key === 'ArrowRight' && i < CONTACT_OTP_LENGTH - 1) {
      event.preventDefault();
      focus(i + 1);
    }
  };

  const onPaste = (i: number, event: ClipboardEvent<HTMLInputElement>) => {
    const pasted = event.clipboardData.getData('text').replace(/\D/g, '');
    event.preventDefault();
    if (pasted === '') return;
    const next = [...digits];
    const room = CONTACT_OTP_LENGTH - i;
    [...pasted.slice(0, room)].forEach((d, k) => {
      next[i + k] = d;
    });
    onChange(next);
    focus(i + Math.min(pasted.length, room));
  };

  return (
    <Box role="group" aria-label={label}>
      <FormLabel component="div" sx={{ mb: 1, fontSize: '0.875rem' }}>
        {label}
      </FormLabel>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        {digits.map((digit, i) => (
          <DigitBox
            key={i}
            ref={(el) => {
              boxes.current[i] = el;
            }}
            aria-label={`${label} digit ${i + 1}`}
            type={shown ? 'text' : 'password'}
            inputMode="numeric"
            autoComplete={i === 0 ? 'one-time-code' : 'off'}
            value={digit}
            disabled={disabled}
            onChange={(e) => onType(i, e.target.value)}
            onKeyDown={(e) => onKeyDown(i, e)}
            onPaste={(e) => onPaste(i, e)}
            onFocus={(e) => e.target.select()}
          />
        ))}
        <IconButton aria-label={shown ? `Hide ${label}` : `Show ${label}`} onClick={() => setShown((v) => !v)} edge="end">
          {shown ? <VisibilityOff /> : <Visibility />}
        </IconButton>
      </Stack>
    </Box>
  );
}
