import type { ReactNode } from 'react';
import { Button, Tooltip, type ButtonProps } from '@mui/material';

/**
 * A button that is disabled with its reason: the reason shows as a tooltip (on a wrapper, because a disabled
 * button gets no pointer events) and as the button's accessible description.
 */
export const ReasonButton = ({
  reason,
  children,
  ...props
}: Omit<ButtonProps, 'disabled'> & { reason: string | null; children: ReactNode }) => {
  const button = (
    <Button {...props} disabled={reason !== null} aria-description={reason ?? undefined}>
      {children}
    </Button>
  );
  return reason === null ? (
    button
  ) : (
    <Tooltip title={reason}>
      <span>{button}</span>
    </Tooltip>
  );
};
