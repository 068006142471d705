import type { ReactNode } from 'react';
import { Alert, Typography } from '@mui/material';

/** The loading, failed and empty states every item section shares, so they read alike. */
export const SectionState = ({
  isPending,
  error,
  empty,
  emptyText,
  what,
  children,
}: {
  isPending: boolean;
  error: unknown;
  empty: boolean;
  emptyText: string;
  /** "bank accounts": names the read in the failure message. */
  what: string;
  children: ReactNode;
}) => {
  if (error) return <Alert severity="error">The {what} could not be loaded.</Alert>;
  if (isPending) return <Typography color="text.secondary">Loading…</Typography>;
  if (empty) return <Typography color="text.secondary">{emptyText}</Typography>;
  return <>{children}</>;
};
