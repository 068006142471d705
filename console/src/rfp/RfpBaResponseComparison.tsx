import { useState } from 'react';
import { Alert, Box, CircularProgress, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import type { BaResponse, BaResponseEntry, ComparisonBy } from '../../../projections/src/rfps/comparison';
import { API_URL, errorText, httpClient } from '../providers/httpClient';
import { COMPARISON_PAGE_SIZES, ComparisonPagination } from './ComparisonPagination';

export type RfpBaResponses = { rfpCode: string; round: number; by: ComparisonBy; bas: BaResponse[] };

export const BA_RESPONSE_TEXTS = {
  none: 'No BA has quoted yet.',
  entries: (n: number) => `${n} group${n === 1 ? '' : 's'}`,
} as const;

/** GET /api/rfps/:code/comparison?by=&view=ba: every BA that quoted, with its standing in each group. */
export async function fetchBaResponses(code: string, by: ComparisonBy): Promise<RfpBaResponses> {
  const query = new URLSearchParams({ by, view: 'ba' }).toString();
  return (await httpClient(`${API_URL}/rfps/${encodeURIComponent(code)}/comparison?${query}`)).json as RfpBaResponses;
}

/**
 * The BA-response comparison (spec 001 §2 "a BA-response comparison of the same structure"): the quote
 * comparison's groups seen per BA, BAs paged (the API answers them all, ordered by how many groups each is
 * lowest in). Each BA's row lists its groups with rank of the BAs that quoted and how far above the lowest.
 * `groupName` and `formatRate` are the quote comparison's, so both read alike.
 */
export const RfpBaResponseComparison = ({
  code,
  by,
  groupName,
  formatRate,
}: {
  code: string;
  by: ComparisonBy;
  groupName: (entry: BaResponseEntry, by: ComparisonBy) => string;
  formatRate: (n: number | null) => string;
}) => {
  const [page, setPage] = useState(0);
  const [perPage, setPerPage] = useState(COMPARISON_PAGE_SIZES[0]!);
  const result = useQuery({ queryKey: ['rfps', code, 'comparison', by, 'ba'], queryFn: () => fetchBaResponses(code, by), retry: false });
  if (result.isPending) return <CircularProgress size={20} />;
  if (result.isError) return <Alert severity="error">{errorText(result.error)}</Alert>;
  const { bas, round } = result.data;
  if (bas.length === 0) return <Typography color="text.secondary">{BA_RESPONSE_TEXTS.none}</Typography>;
  // A change of grouping may leave fewer BAs than the page showed.
  const shownPage = Math.min(page, Math.max(0, Math.ceil(bas.length / perPage) - 1));
  return (
    <>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        Round {round}
      </Typography>
      <Table size="small" aria-label="BA responses">
        <TableHead>
          <TableRow>
            <TableCell>BA</TableCell>
            <TableCell align="right">Groups quoted</TableCell>
            <TableCell align="right">Lowest in</TableCell>
            <TableCell>Groups: rate, rank, above the lowest</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {bas.slice(shownPage * perPage, (shownPage + 1) * perPage).map((ba) => (
            <TableRow key={ba.baId}>
              <TableCell>{ba.companyName ?? ba.baId}</TableCell>
              <TableCell align="right">{ba.groupsQuoted}</TableCell>
              <TableCell align="right">{ba.firstRanks}</TableCell>
              <TableCell>
                <Box component="ul" sx={{ m: 0, pl: 2.5 }} aria-label={`${ba.companyName ?? ba.baId}: ${BA_RESPONSE_TEXTS.entries(ba.entries.length)}`}>
                  {ba.entries.map((e, i) => (
                    <li key={`${e.laneId}|${e.fromCity}|${e.toCity}|${e.vehicleType}|${i}`}>
                      {groupName(e, by)}: {formatRate(e.rate)}, rank {e.rank} of {e.of}
                      {e.aboveLowestPercent > 0 && `, ${e.aboveLowestPercent}% above the lowest`}
                    </li>
                  ))}
                </Box>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <ComparisonPagination
        count={bas.length}
        page={shownPage}
        perPage={perPage}
        onPage={(nextPage, nextPerPage) => {
          setPage(nextPage);
          setPerPage(nextPerPage);
        }}
      />
    </>
  );
};
