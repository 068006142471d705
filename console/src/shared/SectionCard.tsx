import type { ReactNode } from 'react';
import { Card, CardContent, CardHeader } from '@mui/material';

/** A titled card: the building block of the BA page. */
type SectionCardProps = { title: string; action?: ReactNode; children: ReactNode };

export const SectionCard = ({ title, action, children }: SectionCardProps) => (
  <Card variant="outlined">
    <CardHeader title={title} action={action} slotProps={{ title: { variant: 'h6', component: 'h2' } }} />
    <CardContent sx={{ pt: 0 }}>{children}</CardContent>
  </Card>
);
