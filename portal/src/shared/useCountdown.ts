import { useCallback, useEffect, useState } from 'react';

/**
 * Seconds left until a deadline, ticking once a second (spec 000 §2: the OTP resend countdown "ticks every
 * second"). It counts against the clock, not by summing ticks, so a throttled background tab still shows the
 * right number when it wakes.
 */
export function useCountdown(initialSeconds: number) {
  const [deadline, setDeadline] = useState(() => Date.now() + Math.max(0, initialSeconds) * 1000);
  const [secondsLeft, setSecondsLeft] = useState(() => Math.max(0, Math.ceil(initialSeconds)));

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = () => {
      const ms = deadline - Date.now();
      const left = Math.max(0, Math.ceil(ms / 1000));
      setSecondsLeft(left);
      // Wake when the shown number next changes.
      if (left > 0) timer = setTimeout(tick, ms - (left - 1) * 1000);
    };
    tick();
    return () => clearTimeout(timer);
  }, [deadline]);

  const restart = useCallback((seconds: number) => {
    setSecondsLeft(Math.max(0, Math.ceil(seconds)));
    setDeadline(Date.now() + Math.max(0, seconds) * 1000);
  }, []);

  return { secondsLeft, restart };
}

/** 75 → "01:15". */
export const mmss = (seconds: number): string =>
  `${String(Math.floor(seconds / 60)).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}`;
