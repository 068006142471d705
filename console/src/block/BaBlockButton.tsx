import { useQuery } from '@tanstack/react-query';
import { usePermissions, useRecordContext } from 'react-admin';
import type { BusinessAssociate } from '../shared/types';
import { mayRequestBlock } from '../vendor-code/access';
import { fetchVendorCodesOfBa } from '../vendor-code/api';
import { blockTargetOf } from '../vendor-code/SapBaPage';
import { BlockButton } from './BlockButton';

/** Block / Unblock on the BA page: a verified BA with a parent code, for the roles that may ask for it. */
export const BaBlockButton = () => {
  const record = useRecordContext<BusinessAssociate>();
  const { permissions } = usePermissions<string[]>();
  const baId = record ? String(record.id) : '';
  const enabled = Boolean(record) && record?.status === 'verified' && mayRequestBlock(permissions);
  const rows = useQuery({
    queryKey: ['vendor-codes', 'ba', baId],
    queryFn: () => fetchVendorCodesOfBa(baId),
    enabled,
    retry: false,
  });
  if (!enabled || !rows.data) return null;
  return <BlockButton target={blockTargetOf(rows.data)} />;
};
