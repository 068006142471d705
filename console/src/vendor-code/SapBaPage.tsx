import { useState, type ReactNode } from 'react';
import {
  Alert,
  AlertTitle,
  Box,
  Button,
  Card,
  CardContent,
  CircularProgress,
  Tab,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Tabs,
  Typography,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { Title, useGetIdentity, usePermissions } from 'react-admin';
import { Link as RouterLink, Navigate, useParams, useSearchParams } from 'react-router-dom';
import { formatDate, formatDateTime } from '../../../domain/src/shared/format';
import { BlockButton } from '../block/BlockButton';
import type { BlockTarget } from '../block/BlockDialog';
import { errorText } from '../providers/httpClient';
import { SectionCard } from '../shared/SectionCard';
import { mayRequestSap } from './access';
import { sapActions, type SapActionKey } from './actions';
import { fetchVendorCodeHistory, fetchVendorCodesOfBa } from './api';
import {
  approveCategorySpec,
  paymentTermsSpec,
  reconAccountSpec,
  rejectCategorySpec,
  rejectRequestSpec,
  requestChildSpec,
  requestParentSpec,
  setCategorySpec,
  withholdingTaxSpec,
} from './commands';
import { CATEGORY_STATUS_LABELS, CHILD_STATUS_LABELS } from './labels';
import { sapDashboardPath, sapViewPath } from './paths';
import { SapCommandDialog, type CommandSpec } from './SapCommandDialog';
import type { VendorCodeRow } from './types';
import { BlockedChip, VendorCodeStatusChip } from './VendorCodeStatusChip';

/** The page's texts that tests and people look for. */
export const SAP_PAGE_TEXTS = {
  waitingForErp: 'Waiting for ERP',
  noRows: 'No vendor-code record for this BA in your company codes. A BA gets one once it is verified.',
} as const;

const ACTION_LABELS: Record<SapActionKey, string> = {
  'request-parent': 'Request SAP Code',
  'request-child': 'Request child code',
  'set-category': 'Set vendor category',
  'approve-category': 'Approve vendor category',
  'reject-category': 'Reject vendor category',
  'recon-account': 'Change recon account',
  'withholding-tax': 'Withholding tax',
  'reject-request': 'Reject request',
};

function specOf(key: SapActionKey, row: VendorCodeRow): CommandSpec {
  switch (key) {
    case 'request-parent':
      return requestParentSpec(row);
    case 'request-child':
      return requestChildSpec(row);
    case 'set-category':
      return setCategorySpec;
    case 'approve-category':
      return approveCategorySpec(row);
    case 'reject-category':
      return rejectCategorySpec;
    case 'recon-account':
      return reconAccountSpec;
    case 'withholding-tax':
      return withholdingTaxSpec;
    case 'reject-request':
      return rejectRequestSpec;
  }
}

const Field = ({ label, children }: { label: string; children: ReactNode }) => (
  <Box>
    <Typography variant="caption" color="text.secondary" component="div">
      {label}
    </Typography>
    <Typography variant="body2" component="div">
      {children}
    </Typography>
  </Box>
);

/** The block dialog's target: the BA with its parent code per company code and its created child codes. */
export function blockTargetOf(rows: VendorCodeRow[]): BlockTarget | null {
  const withCodes = rows.filter((r) => r.parentCode);
  if (withCodes.length === 0) return null;
  const first = withCodes[0]!;
  return {
    target: { baId: first.baId },
    label: first.companyName ?? first.panNumber ?? first.baId,
    companyCodes: withCodes.map((r) => r.companyCode),
    childCodes: withCodes.flatMap((r) =>
      r.childCodes
        .filter((c) => c.childCode)
        .map((c) => ({
          code: c.childCode!,
          label: `${c.childCode} – ${c.stateName ?? `State ${c.stateId}`}`,
          companyCode: r.companyCode,
        })),
    ),
    blocked: withCodes.some((r) => r.blocked),
  };
}

const History = ({ id }: { id: string }) => {
  const history = useQuery({ queryKey: ['vendor-codes', 'history', id], queryFn: () => fetchVendorCodeHistory(id), retry: false });
  if (history.isPending) return <CircularProgress size={20} />;
  if (history.isError) return <Alert severity="error">{errorText(history.error)}</Alert>;
  if (history.data.length === 0) return <Typography color="text.secondary">No changes yet.</Typography>;
  return (
    <Table size="small" aria-label="SAP history">
      <TableHead>
        <TableRow>
          <TableCell>Time</TableCell>
          <TableCell>By</TableCell>
          <TableCell>What</TableCell>
          <TableCell>Detail</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {history.data.map((entry, i) => (
          <TableRow key={String(entry.id ?? i)}>
            <TableCell>{formatDateTime(entry.time)}</TableCell>
            <TableCell>{entry.actor ?? 'System'}</TableCell>
            <TableCell>{entry.what}</TableCell>
            <TableCell>{entry.detail ?? '—'}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
};

const ChildCodes = ({ row, onPaymentTerms }: { row: VendorCodeRow; onPaymentTerms?: (spec: CommandSpec) => void }) =>
  row.childCodes.length === 0 ? (
    <Typography color="text.secondary">No approved GST registrations.</Typography>
  ) : (
    <Table size="small" aria-label="Child codes">
      <TableHead>
        <TableRow>
          <TableCell>State</TableCell>
          <TableCell>GSTIN</TableCell>
          <TableCell>Child code</TableCell>
          <TableCell>Payment term</TableCell>
          <TableCell>Status</TableCell>
          {onPaymentTerms && <TableCell />}
        </TableRow>
      </TableHead>
      <TableBody>
        {row.childCodes.map((c) => (
          <TableRow key={c.stateId}>
            <TableCell>{c.stateName ?? `State ${c.stateId}`}</TableCell>
            <TableCell>{c.gstNo ?? 'NA'}</TableCell>
            <TableCell>{c.childCode ?? '—'}</TableCell>
            <TableCell>{c.paymentTermsCode ?? '—'}</TableCell>
            <TableCell>{CHILD_STATUS_LABELS[c.status] ?? c.status}</TableCell>
            {onPaymentTerms && (
              <TableCell>
                {c.childCode && (
                  <Button size="small" onClick={() => onPaymentTerms(paymentTermsSpec(c.stateId, c.stateName))}>
                    Change payment term
                  </Button>
                )}
              </TableCell>
            )}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );

const CompanyCodeView = ({ row, block }: { row: VendorCodeRow; block: BlockTarget | null }) => {
  const { permissions } = usePermissions<string[]>();
  const { identity } = useGetIdentity();
  const [spec, setSpec] = useState<CommandSpec | null>(null);
  const actions = sapActions(row, permissions, identity ? String(identity.id) : undefined);
  const canChangeTerms = mayRequestSap(permissions) && Boolean(row.parentCode);
  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      {row.waitingForErp && (
        <Alert severity="warning" data-testid="waiting-for-erp">
          <AlertTitle>{SAP_PAGE_TEXTS.waitingForErp}</AlertTitle>
          The ERP did not answer; the request is retried automatically.
          {row.lastErpError && <Box component="span" sx={{ display: 'block' }}>Last error: {row.lastErpError}</Box>}
        </Alert>
      )}
      {row.rejection && (
        <Alert severity="error" data-testid="sap-rejection">
          <AlertTitle>Request rejected on {formatDate(row.rejection.at)}</AlertTitle>
          {row.rejection.reason}
          {row.rejection.remarks ? ` — ${row.rejection.remarks}` : ''}
          {row.rejection.sendToBa ? ' (sent to the BA for correction)' : ''}
        </Alert>
      )}
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }} data-testid="sap-actions">
        {actions.map((key) => (
          <Button
            key={key}
            size="small"
            variant={key === 'request-parent' || key === 'approve-category' ? 'contained' : 'outlined'}
            color={key.startsWith('reject') ? 'error' : 'primary'}
            onClick={() => setSpec(specOf(key, row))}
          >
            {ACTION_LABELS[key]}
          </Button>
        ))}
        <BlockButton target={block && { ...block, companyCodes: block.companyCodes.includes(row.companyCode) ? [row.companyCode] : block.companyCodes }} />
      </Box>
      <SectionCard title="Parent code">
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr 1fr', md: 'repeat(4, 1fr)' } }}>
          <Field label="Parent code">{row.parentCode ?? '—'}</Field>
          <Field label="Company code">{row.companyCode}</Field>
          <Field label="Status">
            <VendorCodeStatusChip status={row.status} /> <BlockedChip blocked={row.blocked} />
          </Field>
          <Field label="Requested">{row.requestedAt ? formatDateTime(row.requestedAt) : '—'}</Field>
          <Field label="Vendor category">
            {row.vendorCategory ?? '—'} ({CATEGORY_STATUS_LABELS[row.vendorCategoryStatus] ?? row.vendorCategoryStatus})
          </Field>
          <Field label="Reconciliation account">{row.reconAccount ?? '—'}</Field>
          <Field label="Withholding tax">
            {row.withholdingTax ? `${row.withholdingTax.taxType} / ${row.withholdingTax.taxCode}` : '—'}
          </Field>
          <Field label="Last change">{formatDateTime(row.updatedAt)}</Field>
        </Box>
      </SectionCard>
      <SectionCard title="Child codes">
        <ChildCodes row={row} onPaymentTerms={canChangeTerms ? setSpec : undefined} />
      </SectionCard>
      <SectionCard title="History">
        <History id={row.id} />
      </SectionCard>
      {spec && (
        <SapCommandDialog
          key={`${spec.verb}-${spec.title}`}
          baId={row.baId}
          companyCode={row.companyCode}
          spec={spec}
          open
          onClose={() => setSpec(null)}
        />
      )}
    </Box>
  );
};

/**
 * /sap/view/:baId — the BA's ERP page (issue 9): per company code in the user's scope the parent code and its
 * details, the child codes per GST state, vendor category, reconciliation account, withholding tax, the
 * "Waiting for ERP" banner with the last error, the history, and the actions the user's roles allow.
 */
export const SapBaPage = () => {
  const { baId = '' } = useParams<{ baId: string }>();
  const [search, setSearch] = useSearchParams();
  const rows = useQuery({ queryKey: ['vendor-codes', 'ba', baId], queryFn: () => fetchVendorCodesOfBa(baId), retry: false });
  const list = rows.data ?? [];
  const chosen = list.find((r) => r.companyCode === search.get('companyCode')) ?? list[0];
  const first = list[0];
  return (
    <Box sx={{ mt: 1, display: 'grid', gap: 2 }}>
      <Title title="SAP" />
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
        <Typography variant="h5" component="h1">
          {first?.companyName ?? first?.panNumber ?? 'Business associate'} — SAP / ERP
        </Typography>
        {first?.panNumber && <Typography color="text.secondary">PAN {first.panNumber}</Typography>}
        <Box sx={{ flex: 1 }} />
        <Button component={RouterLink} to={`/business-associates/${encodeURIComponent(baId)}/show`} size="small">
          BA page
        </Button>
        <Button component={RouterLink} to={sapDashboardPath('all')} size="small">
          SAP Dashboard
        </Button>
      </Box>
      {rows.isPending && <CircularProgress />}
      {rows.isError && <Alert severity="error">{errorText(rows.error)}</Alert>}
      {rows.isSuccess && list.length === 0 && <Alert severity="info">{SAP_PAGE_TEXTS.noRows}</Alert>}
      {list.length > 1 && chosen && (
        <Card variant="outlined">
          <Tabs
            value={chosen.companyCode}
            onChange={(_e, code: string) => setSearch({ companyCode: code }, { replace: true })}
            aria-label="Company code"
          >
            {list.map((r) => (
              <Tab key={r.companyCode} value={r.companyCode} label={`Company code ${r.companyCode}`} />
            ))}
          </Tabs>
        </Card>
      )}
      {chosen && (
        <Card variant="outlined">
          <CardContent>
            <CompanyCodeView key={chosen.id} row={chosen} block={blockTargetOf(list)} />
          </CardContent>
        </Card>
      )}
    </Box>
  );
};

/** /sap/parent-code/:baId and /sap/child-code/:baId: sections of the one ERP page. */
export const ToSapView = () => {
  const { baId = '' } = useParams<{ baId: string }>();
  return <Navigate to={sapViewPath(baId)} replace />;
};
