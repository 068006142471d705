import type { ReactNode } from 'react';
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { Title } from 'react-admin';
import { Link as RouterLink, useParams } from 'react-router-dom';
import { formatDateTime } from '../../../domain/src/shared/format';
import { BlockButton } from '../block/BlockButton';
import type { BlockTarget } from '../block/BlockDialog';
import { errorText } from '../providers/httpClient';
import { SectionCard } from '../shared/SectionCard';
import { sapDashboardPath } from '../vendor-code/paths';
import type { NucleusVendorDetail } from '../vendor-code/types';
import { BlockedChip } from '../vendor-code/VendorCodeStatusChip';
import { fetchNucleusVendor } from './api';

const Field = ({ label, children }: { label: string; children: ReactNode }) => (
  <Box>
    <Typography variant="caption" color="text.secondary" component="div">
      {label}
    </Typography>
    <Typography variant="body2" component="div">
      {children ?? 'NA'}
    </Typography>
  </Box>
);

export function nucleusBlockTarget(v: NucleusVendorDetail): BlockTarget | null {
  if (!v.parentCode || !v.companyCode) return null;
  return {
    target: { pan: v.pan },
    label: v.name ?? v.pan,
    companyCodes: [v.companyCode],
    childCodes: (v.childCodes ?? [])
      .filter((c) => c.childCode)
      .map((c) => ({ code: c.childCode!, label: [c.childCode, c.stateCode ?? c.gstin].filter(Boolean).join(' – '), companyCode: v.companyCode! })),
    blocked: v.blocked,
  };
}

/**
 * /sap/nucleus/view/:panNo (and /onboard/nucleus/view/:panNo): one Nucleus vendor — the ERP's data for the PAN,
 * its codes, its history, and Block / Unblock for the roles that may ask for it.
 */
export const NucleusVendorShow = () => {
  const { panNo = '' } = useParams<{ panNo: string }>();
  const vendor = useQuery({ queryKey: ['nucleus-vendors', 'one', panNo], queryFn: () => fetchNucleusVendor(panNo), retry: false });
  const v = vendor.data;
  return (
    <Box sx={{ mt: 1, display: 'grid', gap: 2 }}>
      <Title title="Nucleus vendor" />
      <Box sx={{ display: 'flex', gap: 2, alignItems: 'center', flexWrap: 'wrap' }}>
        <Typography variant="h5" component="h1">
          {v?.name ?? panNo} — Nucleus vendor
        </Typography>
        {v && <BlockedChip blocked={v.blocked} />}
        <Box sx={{ flex: 1 }} />
        {v && <BlockButton target={nucleusBlockTarget(v)} />}
        <Button component={RouterLink} to={sapDashboardPath('nucleus-vendor')} size="small">
          Nucleus Vendor Codes
        </Button>
      </Box>
      {vendor.isPending && <CircularProgress />}
      {vendor.isError && <Alert severity="error">{errorText(vendor.error)}</Alert>}
      {v && (
        <>
          <SectionCard title="Vendor">
            <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr 1fr', md: 'repeat(4, 1fr)' } }}>
              <Field label="PAN">{v.pan}</Field>
              <Field label="Name">{v.name}</Field>
              <Field label="Company code">{v.companyCode}</Field>
              <Field label="Vendor code">{v.parentCode ?? '—'}</Field>
              <Field label="City">{v.city}</Field>
              <Field label="Region">{v.region}</Field>
              <Field label="Mobile">{v.mobile}</Field>
              <Field label="E-mail">{v.email}</Field>
              <Field label="GSTIN">{v.gstin}</Field>
              <Field label="Source">{v.source === 'sap-verified' ? 'SAP verified' : 'Nucleus'}</Field>
              <Field label="Status">{v.blocked ? 'Blocked' : 'Active'}</Field>
              <Field label="Last change">{formatDateTime(v.updatedAt)}</Field>
            </Box>
          </SectionCard>
          <SectionCard title="Child codes">
            {(v.childCodes ?? []).length === 0 ? (
              <Typography color="text.secondary">No child codes.</Typography>
            ) : (
              <Table size="small" aria-label="Child codes">
                <TableHead>
                  <TableRow>
                    <TableCell>Region / state</TableCell>
                    <TableCell>GSTIN</TableCell>
                    <TableCell>Child code</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {(v.childCodes ?? []).map((c, i) => (
                    <TableRow key={i}>
                      <TableCell>{c.stateCode ?? 'NA'}</TableCell>
                      <TableCell>{c.gstin ?? 'NA'}</TableCell>
                      <TableCell>{c.childCode ?? '—'}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            )}
          </SectionCard>
          <SectionCard title="History">
            {(v.history ?? []).length === 0 ? (
              <Typography color="text.secondary">No changes recorded.</Typography>
            ) : (
              <Table size="small" aria-label="History">
                <TableHead>
                  <TableRow>
                    <TableCell>Time</TableCell>
                    <TableCell>By</TableCell>
                    <TableCell>What</TableCell>
                    <TableCell>Detail</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {(v.history ?? []).map((h, i) => (
                    <TableRow key={String(h.id ?? i)}>
                      <TableCell>{h.time ? formatDateTime(h.time) : 'NA'}</TableCell>
                      <TableCell>{h.actor ?? 'System'}</TableCell>
                      <TableCell>{h.what}</TableCell>
                      <TableCell>{h.detail ?? '—'}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            )}
          </SectionCard>
        </>
      )}
    </Box>
  );
};
