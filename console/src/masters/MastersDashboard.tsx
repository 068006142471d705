import { Box, Card, CardActionArea, CardContent, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { Title, useDataProvider } from 'react-admin';
import type { MasterDefinition } from '../../../domain/src/masters/definitions';
import type { ConsoleDataProvider } from '../providers/dataProvider';
import { MORE_MASTERS, SIDEBAR_MASTERS, masterListPath } from './paths';
import type { MasterCount } from './types';

/** The sidebar's order: the spec's masters first, then the others. */
const ORDER = [...SIDEBAR_MASTERS, ...MORE_MASTERS].map((e) => e.def);

const MasterCard = ({ def, count }: { def: MasterDefinition; count: MasterCount | undefined }) => (
  <Card variant="outlined" sx={{ height: '100%' }}>
    <CardActionArea component={Link} to={masterListPath(def)} sx={{ height: '100%' }} aria-label={def.label}>
      <CardContent>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1 }}>
          {def.label}
        </Typography>
        <Box sx={{ display: 'flex', gap: 3 }}>
          <Box>
            <Typography variant="h5" component="div" color="success.main" data-testid={`${def.resource}-active`}>
              {count ? count.active : '–'}
            </Typography>
            <Typography variant="caption" color="text.secondary">
              Active
            </Typography>
          </Box>
          <Box>
            <Typography variant="h5" component="div" color="text.secondary" data-testid={`${def.resource}-inactive`}>
              {count ? count.inactive : '–'}
            </Typography>
            <Typography variant="caption" color="text.secondary">
              Inactive
            </Typography>
          </Box>
        </Box>
      </CardContent>
    </CardActionArea>
  </Card>
);

/** /meta-data/dashboard: a card per master with its active and inactive counts, each opening its list. */
export const MastersDashboard = () => {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const { data } = useQuery({ queryKey: ['masters', 'counts'], queryFn: () => dataProvider.getMasterCounts() });
  const byMaster = new Map((data ?? []).map((c) => [c.master, c]));
  return (
    <Box sx={{ p: 2 }}>
      <Title title="Masters" />
      <Typography variant="body2" color="text.secondary" sx={{ mt: 1, mb: 2 }}>
        Active and inactive items of each master. Open one to add, change, deactivate, export or import its items.
      </Typography>
      <Box
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', md: 'repeat(3, 1fr)', lg: 'repeat(4, 1fr)' },
        }}
      >
        {ORDER.map((def) => (
          <MasterCard key={def.resource} def={def} count={byMaster.get(def.resource)} />
        ))}
      </Box>
    </Box>
  );
};
