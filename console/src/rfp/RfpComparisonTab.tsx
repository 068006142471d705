import { useState } from 'react';
import {
  Alert,
  Box,
  CircularProgress,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from '@mui/material';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { formatInr, MISSING } from '../../../domain/src/shared/format';
import { errorText } from '../providers/httpClient';
import { fetchComparison } from './api';
import { ComparisonPagination } from './ComparisonPagination';
import { RfpBaResponseComparison } from './RfpBaResponseComparison';
import type { ComparisonBy, ComparisonGroup } from './types';
import { useComparisonPage } from './useComparisonPage';

/** Spec 001 §2 comparison types: all, locationWise, vehicleWise, locationAndVehicle. */
export const COMPARISON_CHOICES: readonly { by: ComparisonBy; label: string }[] = [
  { by: 'all', label: 'All lanes' },
  { by: 'location', label: 'Location' },
  { by: 'vehicle', label: 'Vehicle' },
  { by: 'location-vehicle', label: 'Location & vehicle' },
];

/** A group's name; a BA-response entry carries the same key fields. */
const groupName = (g: Pick<ComparisonGroup, 'laneId' | 'fromCity' | 'toCity' | 'vehicleType'>, by: ComparisonBy): string => {
  const route = `${g.fromCity ?? MISSING} → ${g.toCity ?? MISSING}`;
  switch (by) {
    case 'all':
      return `${g.laneId ?? MISSING} · ${route} · ${g.vehicleType ?? MISSING}`;
    case 'location':
      return route;
    case 'vehicle':
      return g.vehicleType ?? MISSING;
    case 'location-vehicle':
      return `${route} · ${g.vehicleType ?? MISSING}`;
  }
};

/** Spec 001 §2: the quote comparison and "a BA-response comparison of the same structure". */
type ComparisonView = 'quotes' | 'bas';

/**
 * The responses of the current round compared (GET /comparison): per group, the BAs lowest first with their
 * rank and rate (a BA's average over the group's lanes it quoted), and the group's min/avg/max; or, as "BA
 * responses", the same groups per BA (RfpBaResponseComparison), with the same choice of grouping.
 */
export const RfpComparisonTab = ({ code }: { code: string }) => {
  const [view, setView] = useState<ComparisonView>('quotes');
  const [by, setBy] = useState<ComparisonBy>('all');
  const { page, perPage, onPage, firstPage } = useComparisonPage();
  const result = useQuery({
    queryKey: ['rfps', code, 'comparison', by, page, perPage],
    queryFn: () => fetchComparison(code, by, page, perPage),
    placeholderData: keepPreviousData,
    retry: false,
    enabled: view === 'quotes',
  });
  return (
    <Box>
      <ToggleButtonGroup
        size="small"
        exclusive
        value={view}
        onChange={(_e, next: ComparisonView | null) => next && setView(next)}
        aria-label="Compare"
        sx={{ mb: 1, mr: 2 }}
      >
        <ToggleButton value="quotes">Quotes</ToggleButton>
        <ToggleButton value="bas">BA responses</ToggleButton>
      </ToggleButtonGroup>
      <ToggleButtonGroup
        size="small"
        exclusive
        value={by}
        onChange={(_e, next: ComparisonBy | null) => {
          if (!next) return;
          setBy(next);
          firstPage();
        }}
        aria-label="Compare by"
        sx={{ mb: 1 }}
      >
        {COMPARISON_CHOICES.map((c) => (
          <ToggleButton key={c.by} value={c.by}>
            {c.label}
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
      {view === 'bas' ? (
        <RfpBaResponseComparison key={by} code={code} by={by} groupName={groupName} />
      ) : result.isPending ? (
        <CircularProgress size={20} />
      ) : result.isError ? (
        <Alert severity="error">{errorText(result.error)}</Alert>
      ) : result.data.total === 0 ? (
        <Typography color="text.secondary">No lanes to compare yet.</Typography>
      ) : (
        <>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            Round {result.data.round}
          </Typography>
          <Table size="small" aria-label="Comparison">
            <TableHead>
              <TableRow>
                <TableCell>Group</TableCell>
                <TableCell align="right">Lanes</TableCell>
                <TableCell>BAs, lowest first</TableCell>
                <TableCell align="right">Min</TableCell>
                <TableCell align="right">Avg</TableCell>
                <TableCell align="right">Max</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {result.data.groups.map((g, i) => (
                <TableRow key={`${g.laneId}|${g.fromCity}|${g.toCity}|${g.vehicleType}|${i}`}>
                  <TableCell>{groupName(g, result.data.by)}</TableCell>
                  <TableCell align="right">{g.lanes}</TableCell>
                  <TableCell>
                    {g.quotes.length === 0 ? (
                      <Typography variant="body2" color="text.secondary">
                        No quotes
                      </Typography>
                    ) : (
                      <Box component="ol" sx={{ m: 0, pl: 2.5 }}>
                        {g.quotes.map((q) => (
                          <li key={q.baId}>
                            {q.companyName ?? q.baId}: {formatInr(q.rate)}
                            {result.data.by !== 'all' && ` (${q.lanesQuoted} lane${q.lanesQuoted === 1 ? '' : 's'})`}
                          </li>
                        ))}
                      </Box>
                    )}
                  </TableCell>
                  <TableCell align="right">{formatInr(g.min)}</TableCell>
                  <TableCell align="right">{formatInr(g.avg)}</TableCell>
                  <TableCell align="right">{formatInr(g.max)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          <ComparisonPagination
            count={result.data.total}
            page={page}
            perPage={perPage}
            onPage={onPage}
          />
        </>
      )}
    </Box>
  );
};
