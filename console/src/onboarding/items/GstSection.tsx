import { Box, Table, TableBody, TableCell, TableHead, TableRow } from '@mui/material';
import { display } from '../../../../domain/src/shared/format';
import { SectionCard } from '../../shared/SectionCard';
import type { BusinessAssociate } from '../../shared/types';
import { SectionState } from './SectionState';
import { useBaItems } from './useBaItems';

/** The spec's label for a GST type code, when the read carries none ('0' is "Not Registered"). */
const GST_TYPE_FALLBACK: Record<string, string> = {
  '': 'GST Registered',
  '0': 'Not Registered',
  '1': 'Composition Dealer',
  '2': 'Registered with RCM',
  '3': 'Special Economic Zone',
};

/** GST registrations / places of business, one per state; reviewed with the documents that prove them. */
export const GstSection = ({ record }: { record: BusinessAssociate }) => {
  const { data, isPending, error } = useBaItems(record.id, 'gst-registrations');
  const accounts = useBaItems(record.id, 'bank-accounts');
  const rows = data ?? [];
  // No account chosen means the primary one, if the BA has saved it yet.
  const primary = accounts.data?.find((a) => a.primary);
  const accountNo = (id: string | null) =>
    id === null
      ? primary
        ? `Primary account (${primary.accountNo})`
        : 'No bank account yet'
      : (accounts.data?.find((a) => a.id === id)?.accountNo ?? id);
  return (
    <SectionCard title="GST / places of business">
      <SectionState isPending={isPending} error={error} empty={rows.length === 0} emptyText="No place of business yet." what="places of business">
        <Box sx={{ overflowX: 'auto' }}>
          <Table size="small" aria-label="GST / places of business">
            <TableHead>
              <TableRow>
                <TableCell>State</TableCell>
                <TableCell>GST type</TableCell>
                <TableCell>GSTIN</TableCell>
                <TableCell>Address</TableCell>
                <TableCell>City</TableCell>
                <TableCell>Pincode</TableCell>
                <TableCell>Bank account</TableCell>
                <TableCell>Vendor category</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((gst) => (
                <TableRow key={gst.id}>
                  <TableCell>{display(gst.stateName ?? gst.stateId)}</TableCell>
                  <TableCell>{gst.gstTypeLabel ?? GST_TYPE_FALLBACK[gst.gstType] ?? gst.gstType}</TableCell>
                  <TableCell>{display(gst.gstNo)}</TableCell>
                  <TableCell>{[gst.addressLine1, gst.addressLine2].filter(Boolean).join(', ')}</TableCell>
                  <TableCell>{display(gst.cityName ?? gst.cityId)}</TableCell>
                  <TableCell>{gst.pinCode}</TableCell>
                  <TableCell>{accountNo(gst.bankAccountId)}</TableCell>
                  <TableCell>{display(gst.vendorCategory)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
      </SectionState>
    </SectionCard>
  );
};
