import { useCallback, useEffect, useState } from 'react';

/**
 * Seconds left until a moment, ticking every second (spec 000 §2: "a resend countdown that ticks every
 * second"). Counted against the clock rather than by decrements, so a throttled background tab still shows
 * the right number when it wakes up.
 */
export function useCountdown(initialSeconds = 0) {
  const [until, setUntil] = useState(() => Date.now() + initialSeconds * 1000);
  const left = () => Math.max(0, Math.ceil((until - Date.now()) / 1000));
  const [remaining, setRemaining] = useState(left);

  useEffect(() => {
    setRemaining(left());
    const timer = setInterval(() => {
      const next = left();
      setRemaining(next);
      if (next === 0) clearInterval(timer);
    }, 1000);
    return () => clearInterval(timer);
    // left() reads `until` only
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [until]);

  const restart = useCallback((seconds: number) => setUntil(Date.now() + seconds * 1000), []);
  return { remaining, restart };
}
