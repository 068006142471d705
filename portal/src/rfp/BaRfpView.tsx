import { useCallback, useEffect, useMemo, useState, type ChangeEvent } from 'react';
import { useParams } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Chip from '@mui/material/Chip';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { saveBlob } from '../../../ui/src/saveBlob';
import { rfpFileNames, rfpMessages } from '../../../domain/src/rfp/messages';
import { formatDate, formatDateTime, formatInr } from '../../../domain/src/shared/format';
import { useApi } from '../api/ApiContext';
import { isApiError, messageOf } from '../api/client';
import { useFeedback } from '../shared/feedback';
import { rfpApi, rfpTexts, type RfpBaView, type RfpLanePage } from './api';
import { carryForward, laneProblemsText, quotesToSave, rowsOf, type LaneGridRow } from './laneColumns';
import { LaneGrid } from './LaneGrid';
import { RfpStatusChip } from './status';

/** `carried`: the earlier round whose quotes were filled into an open reopened round and how many, until saved. */
type Loaded = { rfp: RfpBaView; lanes: RfpLanePage; rows: LaneGridRow[]; carried: { round: number; lanes: number } | null };
/** The last refused bid upload: its message and the error workbook offered for download. */
type RefusedUpload = { message: string; workbook: Blob; fileName: string };

/**
 * '/rfp/BA/view/:id/:rfpType' (spec 001 §2, §7): the RFP's header, the lane grid with the BA's own quotes, Save
 * (only the changed lanes), the bid template and bid upload, and the BA's own award once there is one. Quoting is
 * open only while the RFP is floated; after the due date the API refuses and its message is shown.
 */
export function BaRfpView() {
  const { id = '' } = useParams();
  const client = useApi();
  const api = useMemo(() => rfpApi(client), [client]);
  const { showError, notify, withLoading } = useFeedback();
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [changed, setChanged] = useState<ReadonlySet<string>>(new Set());
  const [refused, setRefused] = useState<RefusedUpload | null>(null);

  const report = useCallback(
    (e: unknown) => {
      // A session that cannot be renewed is handled by the session (back to login), not by a dialog.
      if (!(isApiError(e) && e.status === 401)) showError(messageOf(e));
    },
    [showError],
  );

  const load = useCallback(async () => {
    const [rfp, lanes] = await Promise.all([api.get(id), api.lanes(id)]);
    const rows = rowsOf(lanes.rows);
    // A reopened round: the BA revises its last quotes rather than typing every lane again.
    const carried =
      rfp.status === 'floated' && lanes.round > 1 ? carryForward(rows, (await api.myResponses(id, lanes.round - 1)).quotes) : new Set<string>();
    setLoaded({ rfp, lanes, rows, carried: carried.size > 0 ? { round: lanes.round - 1, lanes: carried.size } : null });
    setChanged(carried);
  }, [api, id]);

  useEffect(() => {
    load().catch((e: unknown) => {
      setFailed(messageOf(e));
      report(e);
    });
  }, [load, report]);

  const onLaneChanged = useCallback((laneId: string) => setChanged((s) => new Set(s).add(laneId)), []);

  if (failed && !loaded) return <Alert severity="error">{failed}</Alert>;
  if (!loaded) return null;
  const { rfp, lanes, rows, carried } = loaded;
  const open = rfp.status === 'floated';

  const save = async () => {
    if (changed.size === 0) return notify(rfpTexts.noChanges, 'info');
    try {
      const answer = await withLoading(() => api.saveResponses(rfp.rfpCode, lanes.round, quotesToSave(rows, changed, rfp.columns)));
      // The API's text as it is (spec 001 §8 keeps its trailing space).
      notify(answer.message ?? rfpMessages.laneResponseSaved, 'success');
      setChanged(new Set());
      setLoaded((l) => l && { ...l, carried: null });
    } catch (e) {
      const perLane = isApiError(e) ? laneProblemsText(e.fieldErrors) : null;
      if (perLane) showError(perLane);
      else report(e);
    }
  };

  const download = async (fetchFile: () => Promise<Blob>, fileName: string) => {
    try {
      saveBlob(await withLoading(fetchFile), fileName);
    } catch (e) {
      report(e);
    }
  };

  const upload = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    try {
      const outcome = await withLoading(() => api.uploadBids(rfp.rfpCode, file));
      if (outcome.ok) {
        setRefused(null);
        notify(outcome.answer.message, 'success');
        await withLoading(load);
      } else {
        setRefused(outcome);
        showError(outcome.message);
      }
    } catch (e) {
      report(e);
    }
  };

  return (
    <Stack spacing={2}>
      <Typography variant="h5" component="h1">
        RFP {rfp.rfpCode}
      </Typography>
      <Card variant="outlined">
        <CardContent>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={3} sx={{ flexWrap: 'wrap', alignItems: { sm: 'center' } }}>
            <Fact label="Customer" value={rfp.customerName} />
            <Fact label="Due Date" value={rfp.dueAt ? formatDateTime(rfp.dueAt) : formatDate(rfp.dueDate)} />
            <Fact label="Round" value={String(rfp.round)} />
            <RfpStatusChip status={rfp.status} />
            {/* Staff invite a BA for backhaul on the RFP's invited-BAs screen; the BA is told here and by a notice. */}
            {rfp.backhaulInvited && <Chip color="info" variant="outlined" label={rfpTexts.backhaulInvited} data-testid="backhaul-invited" />}
            {rfp.terms && (
              <Button size="small" onClick={() => void download(() => api.terms(rfp.rfpCode), rfpFileNames.terms(rfp.rfpCode))}>
                Download T&amp;C
              </Button>
            )}
          </Stack>
          {rfp.comment && (
            <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
              {rfp.comment}
            </Typography>
          )}
        </CardContent>
      </Card>
      {!open && <Alert severity="info">{rfpTexts.biddingClosed}</Alert>}
      {open && carried !== null && (
        <Alert severity="info" data-testid="carried-forward">
          {rfpTexts.carriedForward(carried.lanes, carried.round)}
        </Alert>
      )}
      {open && (
        <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap' }}>
          <Button variant="contained" onClick={() => void save()}>
            Save
          </Button>
          <Button onClick={() => void download(() => api.bidTemplate(rfp.rfpCode), rfpFileNames.baBidTemplate(rfp.rfpCode))}>
            Download Bid Template
          </Button>
          <Button component="label">
            Upload Bid
            <input
              hidden
              type="file"
              data-testid="bid-upload"
              accept=".xlsx,.xls,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet,application/vnd.ms-excel"
              onChange={(e) => void upload(e)}
            />
          </Button>
        </Stack>
      )}
      {refused && (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => saveBlob(refused.workbook, refused.fileName)}>
              Download {refused.fileName}
            </Button>
          }
        >
          {refused.message}
        </Alert>
      )}
      {rows.length === 0 ? (
        <Alert severity="info">{rfpMessages.noRecords}</Alert>
      ) : (
        <LaneGrid columns={rfp.columns} rows={rows} editable={open} onLaneChanged={onLaneChanged} />
      )}
      {(rfp.status === 'awarded' || rfp.status === 'closed') && <Outcome rfp={rfp} />}
    </Stack>
  );
}

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <Typography variant="caption" color="text.secondary" component="div">
        {label}
      </Typography>
      <Typography>{value}</Typography>
    </div>
  );
}

/** The RFP's outcome for this BA: the lanes awarded to it and its share of each (never other BAs'). */
function Outcome({ rfp }: { rfp: RfpBaView }) {
  return (
    <Card variant="outlined" data-testid="rfp-outcome">
      <CardContent>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
          Your awarded lanes
        </Typography>
        {rfp.awards.length === 0 ? (
          <Typography color="text.secondary">No lanes were awarded to you in this RFP.</Typography>
        ) : (
          <Table size="small" aria-label="Awarded lanes">
            <TableHead>
              <TableRow>
                <TableCell>Lane ID</TableCell>
                <TableCell align="right">Share %</TableCell>
                <TableCell align="right">Rate</TableCell>
                <TableCell align="right">Round</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rfp.awards.map((a) => (
                <TableRow key={`${a.round}-${a.laneId}`}>
                  <TableCell>{a.laneId}</TableCell>
                  <TableCell align="right">{a.sharePercent}</TableCell>
                  <TableCell align="right">{formatInr(a.rate)}</TableCell>
                  <TableCell align="right">{a.round}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}
