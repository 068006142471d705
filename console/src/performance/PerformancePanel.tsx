import { lazy, Suspense, useState } from 'react';
import { Button } from '@mui/material';
import { SectionCard } from '../shared/SectionCard';

// The charts library is large: the figures load with their own chunk, and only when asked for.
const PerformanceFigures = lazy(() => import('./PerformanceFigures').then((m) => ({ default: m.PerformanceFigures })));

/**
 * The BA page's Performance card (issue 11): the same figures the BA sees on its dashboard, from
 * GET /api/performance/:baId (staff of the BA's company codes). Closed until opened, so the BA page itself
 * asks for nothing more.
 */
export const PerformancePanel = ({ baId }: { baId: string }) => {
  const [open, setOpen] = useState(false);
  return (
    <SectionCard
      title="Performance"
      action={
        <Button size="small" onClick={() => setOpen((o) => !o)} aria-expanded={open}>
          {open ? 'Hide performance' : 'Show performance'}
        </Button>
      }
    >
      {open && (
        <Suspense fallback={null}>
          <PerformanceFigures baId={baId} />
        </Suspense>
      )}
    </SectionCard>
  );
};
