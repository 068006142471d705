import { Box, Tab, Tabs } from '@mui/material';
import { useListContext } from 'react-admin';
import { CountBadge } from '../layout/CountBadge';
import { useBaCounts } from '../layout/useBaCounts';
import { BA_VIEWS, filterForView, viewOfFilter, type BaViewKey } from './views';

/** The status tabs above the BA list, each with its count badge; switching keeps the other filters. */
export const StatusTabs = () => {
  const { filterValues, setFilters, displayedFilters } = useListContext();
  const counts = useBaCounts();
  const current = viewOfFilter(filterValues);
  // width 0 + minWidth 100%: the tab strip scrolls inside the card instead of widening the page.
  return (
    <Box sx={{ width: 0, minWidth: '100%' }}>
      <Tabs
        value={current}
        onChange={(_event, key: BaViewKey) => setFilters(filterForView(key, filterValues), displayedFilters)}
        variant="scrollable"
        scrollButtons="auto"
        aria-label="Business associate status"
        sx={{ borderBottom: 1, borderColor: 'divider' }}
      >
        {BA_VIEWS.map((view) => (
          <Tab
            key={view.key}
            value={view.key}
            label={
              <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center' }}>
                {view.label}
                <CountBadge count={counts?.[view.countKey]} label={view.label} />
              </Box>
            }
          />
        ))}
      </Tabs>
    </Box>
  );
};
