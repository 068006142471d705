import { Chip } from '@mui/material';

/** The number beside a sidebar entry or a tab; nothing while the counts are unknown. */
export const CountBadge = ({ count, label }: { count: number | undefined; label: string }) =>
  count === undefined ? null : (
    <Chip
      component="span"
      size="small"
      label={count}
      aria-label={`${label}: ${count}`}
      color={count > 0 ? 'primary' : 'default'}
      sx={{ ml: 1, height: 20, minWidth: 28, fontSize: '0.75rem' }}
    />
  );
