import { useState } from 'react';
import {
  Alert,
  Box,
  CircularProgress,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TablePagination,
  TableRow,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from '@mui/material';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { MISSING } from '../../../domain/src/shared/format';
import { errorText } from '../providers/httpClient';
import { fetchComparison } from './api';
import type { ComparisonBy, ComparisonGroup } from './types';

/** Spec 001 §2 comparison types: all, locationWise, vehicleWise, locationAndVehicle. */
export const COMPARISON_CHOICES: readonly { by: ComparisonBy; label: string }[] = [
  { by: 'all', label: 'All lanes' },
  { by: 'location', label: 'Location' },
  { by: 'vehicle', label: 'Vehicle' },
  { by: 'location-vehicle', label: 'Location & vehicle' },
];

const GROUP_PAGE_SIZES = [10, 25, 50];

/** Rates in rupees with Indian grouping (spec 001 §9 "Currency INR, en-IN grouping"). */
const rupees = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR', maximumFractionDigits: 2 });
export const formatRate = (n: number | null) => (n === null ? MISSING : rupees.format(n));

const groupName = (g: ComparisonGroup, by: ComparisonBy): string => {
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

/**
 * The responses of the current round compared (GET /comparison): per group, the BAs lowest first with their
 * rank and rate (a BA's average over the group's lanes it quoted), and the group's min/avg/max.
 */
export const RfpComparisonTab = ({ code }: { code: string }) => {
  const [by, setBy] = useState<ComparisonBy>('all');
  const [page, setPage] = useState(0);
  const [perPage, setPerPage] = useState(GROUP_PAGE_SIZES[0]!);
  const result = useQuery({
    queryKey: ['rfps', code, 'comparison', by, page, perPage],
    queryFn: () => fetchComparison(code, by, page, perPage),
    placeholderData: keepPreviousData,
    retry: false,
  });
  return (
    <Box>
      <ToggleButtonGroup
        size="small"
        exclusive
        value={by}
        onChange={(_e, next: ComparisonBy | null) => {
          if (!next) return;
          setBy(next);
          setPage(0);
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
      {result.isPending ? (
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
                            {q.companyName ?? q.baId}: {formatRate(q.rate)}
                            {result.data.by !== 'all' && ` (${q.lanesQuoted} lane${q.lanesQuoted === 1 ? '' : 's'})`}
                          </li>
                        ))}
                      </Box>
                    )}
                  </TableCell>
                  <TableCell align="right">{formatRate(g.min)}</TableCell>
                  <TableCell align="right">{formatRate(g.avg)}</TableCell>
                  <TableCell align="right">{formatRate(g.max)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          <TablePagination
            component="div"
            count={result.data.total}
            page={page}
            rowsPerPage={perPage}
            rowsPerPageOptions={GROUP_PAGE_SIZES}
            onPageChange={(_e, next) => setPage(next)}
            onRowsPerPageChange={(e) => {
              setPerPage(Number(e.target.value));
              setPage(0);
            }}
          />
        </>
      )}
    </Box>
  );
};
