import { useEffect, useMemo, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  IconButton,
  MenuItem,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TablePagination,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import { useQuery } from '@tanstack/react-query';
import { formatInr } from '../../../domain/src/shared/format';
import { errorText } from '../providers/httpClient';
import { fetchLaneQuotes, rfpCommand } from './api';
import { awardBody, awardProblems, initialAward, type AwardDraft, type ShareInput } from './award';
import type { ComparisonGroup } from './types';
import { useRfpCommand } from './useRfpCommand';

const LANES_PER_PAGE = 10;
export const AWARD_TEXTS = {
  success: 'RFP awarded successfully',
  fix: 'Please correct the shares of the lanes marked below',
} as const;

const laneTitle = (g: ComparisonGroup) => `${g.laneId} · ${g.fromCity ?? 'NA'} → ${g.toCity ?? 'NA'} · ${g.vehicleType ?? 'NA'}`;

/** One lane's shares: a BA of those that quoted it (lowest first) and its share in percent. */
const LaneShares = ({
  lane,
  shares,
  problem,
  onChange,
}: {
  lane: ComparisonGroup;
  shares: ShareInput[];
  problem: string | null;
  onChange: (next: ShareInput[]) => void;
}) => {
  const laneId = lane.laneId ?? '';
  const set = (i: number, patch: Partial<ShareInput>) => onChange(shares.map((s, j) => (j === i ? { ...s, ...patch } : s)));
  return (
    <TableRow data-testid={`award-lane-${laneId}`}>
      <TableCell sx={{ verticalAlign: 'top', width: '35%' }}>{laneTitle(lane)}</TableCell>
      <TableCell>
        {lane.quotes.length === 0 ? (
          <Typography variant="body2" color="text.secondary">
            No quotes: not awarded
          </Typography>
        ) : (
          <Box sx={{ display: 'grid', gap: 1 }}>
            {shares.map((s, i) => (
              <Box key={i} sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
                {/* The select is named by its visible label (aria-labelledby), so each share's label must differ. */}
                <TextField
                  select
                  size="small"
                  label={`BA for share ${i + 1}`}
                  value={s.baId}
                  onChange={(e) => set(i, { baId: e.target.value })}
                  sx={{ minWidth: 240 }}
                >
                  {lane.quotes.map((q) => (
                    <MenuItem key={q.baId} value={q.baId}>
                      {`L${q.rank} ${q.companyName ?? q.baId} (${formatInr(q.rate)})`}
                    </MenuItem>
                  ))}
                </TextField>
                <TextField
                  size="small"
                  label="Share %"
                  value={s.share}
                  onChange={(e) => set(i, { share: e.target.value })}
                  sx={{ width: 110 }}
                  slotProps={{ htmlInput: { inputMode: 'decimal', 'aria-label': `Share ${i + 1} of lane ${laneId}` } }}
                />
                <IconButton aria-label={`Remove share ${i + 1} of lane ${laneId}`} onClick={() => onChange(shares.filter((_, j) => j !== i))}>
                  <DeleteIcon fontSize="small" />
                </IconButton>
              </Box>
            ))}
            {shares.length < lane.quotes.length && (
              <Box>
                <Button size="small" onClick={() => onChange([...shares, { baId: '', share: '' }])}>
                  Add BA
                </Button>
              </Box>
            )}
            {problem && (
              <Typography variant="body2" color="error" role="alert">
                {problem}
              </Typography>
            )}
          </Box>
        )}
      </TableCell>
    </TableRow>
  );
};

/**
 * Award (spec 001 §4; the rules are ours, see award.ts): per lane the BAs that quoted it with their shares,
 * starting from the lowest bidder at 100%. Shares that do not add up to 100 are refused here before anything is
 * sent; a lane left without shares is not awarded. The API's refusal is shown as it comes (useRfpCommand).
 */
export const AwardDialog = ({ code, open, onClose }: { code: string; open: boolean; onClose: () => void }) => {
  const lanes = useQuery({ queryKey: ['rfps', code, 'award-lanes'], queryFn: () => fetchLaneQuotes(code), enabled: open, retry: false });
  const [draft, setDraft] = useState<AwardDraft>({});
  const [checked, setChecked] = useState(false);
  const [page, setPage] = useState(0);
  const award = useRfpCommand((body: ReturnType<typeof awardBody>, key) => rfpCommand(code, 'award', body, key), onClose);

  useEffect(() => {
    if (open && lanes.data) {
      setDraft(initialAward(lanes.data));
      setChecked(false);
      setPage(0);
    }
  }, [open, lanes.data]);

  const problems = useMemo(() => awardProblems(draft), [draft]);
  const problemCount = Object.keys(problems).length;
  const laneRows = lanes.data?.filter((l) => l.laneId) ?? [];

  const submit = () => {
    setChecked(true);
    if (award.isPending) return;
    if (problemCount > 0) {
      // Go to the first lane to correct.
      const first = laneRows.findIndex((l) => problems[l.laneId ?? '']);
      if (first >= 0) setPage(Math.floor(first / LANES_PER_PAGE));
      return;
    }
    award.run({ ...awardBody(draft), success: AWARD_TEXTS.success });
  };

  return (
    <Dialog
      open={open}
      onClose={award.isPending ? undefined : onClose}
      fullWidth
      maxWidth="md"
      aria-labelledby="rfp-award-title"
      slotProps={{ transition: { onEnter: () => award.reset() } }}
    >
      <DialogTitle id="rfp-award-title">Award RFP {code}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 1 }}>
          Choose the BAs of each lane and their shares; the shares of a lane must add up to 100%. A lane without BAs is not
          awarded.
        </DialogContentText>
        {lanes.isPending ? (
          <CircularProgress size={20} />
        ) : lanes.isError ? (
          <Alert severity="error">{errorText(lanes.error)}</Alert>
        ) : (
          <>
            {checked && problemCount > 0 && (
              <Alert severity="error" sx={{ mb: 1 }}>
                {AWARD_TEXTS.fix} ({problemCount})
              </Alert>
            )}
            <Table size="small" aria-label="Award lanes">
              <TableHead>
                <TableRow>
                  <TableCell>Lane</TableCell>
                  <TableCell>BAs and shares</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {laneRows.slice(page * LANES_PER_PAGE, (page + 1) * LANES_PER_PAGE).map((lane) => {
                  const laneId = lane.laneId ?? '';
                  return (
                    <LaneShares
                      key={laneId}
                      lane={lane}
                      shares={draft[laneId] ?? []}
                      problem={checked ? (problems[laneId] ?? null) : null}
                      onChange={(next) => setDraft((old) => ({ ...old, [laneId]: next }))}
                    />
                  );
                })}
              </TableBody>
            </Table>
            <TablePagination
              component="div"
              count={laneRows.length}
              page={page}
              rowsPerPage={LANES_PER_PAGE}
              rowsPerPageOptions={[LANES_PER_PAGE]}
              onPageChange={(_e, next) => setPage(next)}
            />
          </>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={award.isPending}>
          Cancel
        </Button>
        <Button variant="contained" onClick={submit} disabled={award.isPending || !lanes.data}>
          Award
        </Button>
      </DialogActions>
    </Dialog>
  );
};
