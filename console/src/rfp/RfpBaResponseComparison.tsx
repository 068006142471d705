import { Alert, Box, CircularProgress, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import type { BaResponse, BaResponseEntry, ComparisonBy } from '../../../projections/src/rfps/comparison';
import { formatInr } from '../../../domain/src/shared/format';
import { API_URL, errorText, httpClient } from '../providers/httpClient';
import { ComparisonPagination } from './ComparisonPagination';
import { useComparisonPage } from './useComparisonPage';

/** One page of BAs (`total`: how many BAs quoted in the round). */
export type RfpBaResponses = { rfpCode: string; round: number; by: ComparisonBy; total: number; bas: BaResponse[] };

export const BA_RESPONSE_TEXTS = {
  none: 'No BA has quoted yet.',
  entries: (n: number) => `${n} group${n === 1 ? '' : 's'}`,
  more: (n: number) => `… and ${n} more group${n === 1 ? '' : 's'}`,
} as const;

/** Groups listed per BA: with "all" a BA's groups are its lanes, thousands of them; the quote comparison pages those. */
export const ENTRIES_SHOWN = 20;

/** GET /api/rfps/:code/comparison?by=&view=ba: a page of the BAs that quoted, with their standing in each group. */
export async function fetchBaResponses(code: string, by: ComparisonBy, page: number, perPage: number): Promise<RfpBaResponses> {
  const query = new URLSearchParams({ by, view: 'ba', page: String(page), perPage: String(perPage) }).toString();
  return (await httpClient(`${API_URL}/rfps/${encodeURIComponent(code)}/comparison?${query}`)).json as RfpBaResponses;
}

/**
 * The BA-response comparison (spec 001 §2 "a BA-response comparison of the same structure"): the quote
 * comparison's groups seen per BA, BAs paged by the API (ordered by how many groups each is lowest in). Each BA's row lists its groups with rank of the BAs that quoted and how far above the lowest.
 * `groupName` is the quote comparison's, so both read alike.
 */
export const RfpBaResponseComparison = ({
  code,
  by,
  groupName,
}: {
  code: string;
  by: ComparisonBy;
  groupName: (entry: BaResponseEntry, by: ComparisonBy) => string;
}) => {
  // Remounted per grouping (key={by} in RfpComparisonTab), so a new grouping starts at the first page.
  const { page, perPage, onPage } = useComparisonPage();
  const result = useQuery({
    queryKey: ['rfps', code, 'comparison', by, 'ba', page, perPage],
    queryFn: () => fetchBaResponses(code, by, page, perPage),
    retry: false,
  });
  if (result.isPending) return <CircularProgress size={20} />;
  if (result.isError) return <Alert severity="error">{errorText(result.error)}</Alert>;
  const { bas, round, total } = result.data;
  if (total === 0) return <Typography color="text.secondary">{BA_RESPONSE_TEXTS.none}</Typography>;
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
          {bas.map((ba) => (
            <TableRow key={ba.baId}>
              <TableCell>{ba.companyName ?? ba.baId}</TableCell>
              <TableCell align="right">{ba.groupsQuoted}</TableCell>
              <TableCell align="right">{ba.firstRanks}</TableCell>
              <TableCell>
                <Box component="ul" sx={{ m: 0, pl: 2.5 }} aria-label={`${ba.companyName ?? ba.baId}: ${BA_RESPONSE_TEXTS.entries(ba.entries.length)}`}>
                  {ba.entries.slice(0, ENTRIES_SHOWN).map((e, i) => (
                    <li key={`${e.laneId}|${e.fromCity}|${e.toCity}|${e.vehicleType}|${i}`}>
                      {groupName(e, by)}: {formatInr(e.rate)}, rank {e.rank} of {e.of}
                      {e.aboveLowestPercent > 0 && `, ${e.aboveLowestPercent}% above the lowest`}
                    </li>
                  ))}
                  {ba.entries.length > ENTRIES_SHOWN && <li>{BA_RESPONSE_TEXTS.more(ba.entries.length - ENTRIES_SHOWN)}</li>}
                </Box>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <ComparisonPagination
        count={total}
        page={page}
        perPage={perPage}
        onPage={onPage}
      />
    </>
  );
};
