import { Link as RouterLink } from 'react-router-dom';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import type { ItemLists } from './ItemsContext';
import { useItems } from './ItemsContext';
import { TAB_LABELS, tabPath, type TabKey } from './tabs';

export type RejectedItem = { key: string; tab: TabKey; item: string; remarks: string | null };

/** Every item staff rejected, in tab order, with the reviewer's remarks (spec 000 §4 "rejected": remarks shown). */
export function rejectedItems(lists: ItemLists): RejectedItem[] {
  const out: RejectedItem[] = [];
  for (const a of lists.bankAccounts ?? [])
    if (a.reviewStatus === 'rejected')
      out.push({
        key: `bank-${a.id}`,
        tab: 'bankDetails',
        item: `${a.primary ? 'Primary bank account' : 'Bank account'} ${a.accountNo}`,
        remarks: a.reviewRemarks,
      });
  for (const d of lists.documents ?? [])
    if (d.reviewStatus === 'rejected')
      out.push({
        key: `doc-${d.id}`,
        tab: 'documents',
        item: `${d.documentTypeName}${d.stateName ? ` (${d.stateName})` : ''}`,
        remarks: d.reviewRemarks,
      });
  for (const c of lists.concessions ?? [])
    if (c.reviewStatus === 'rejected')
      out.push({ key: `con-${c.id}`, tab: 'concessions', item: `Concession ${c.exemptionNumber}`, remarks: c.reviewRemarks });
  const vm = lists.verticalMapping;
  if (vm?.reviewStatus === 'rejected')
    out.push({ key: 'vertical', tab: 'verticalMapping', item: 'Vertical mapping', remarks: vm.reviewRemarks });
  return out;
}

/** The rejected items, each linking to its tab; approved items are not listed (they stay as they are). */
export function RejectedItems({ linkTo = true }: { linkTo?: boolean }) {
  const { lists } = useItems();
  const items = rejectedItems(lists);
  if (items.length === 0) return null;
  return (
    <>
      <Typography variant="body2" sx={{ mt: 1, fontWeight: 600 }}>
        Items to correct ({items.length}):
      </Typography>
      <List dense disablePadding aria-label="Rejected items" data-testid="rejected-items">
        {items.map((i) => (
          <ListItem key={i.key} disableGutters data-testid={`rejected-${i.key}`}>
            <ListItemText
              primary={
                linkTo ? (
                  <Link component={RouterLink} to={tabPath('edit', i.tab)}>
                    {TAB_LABELS[i.tab]}: {i.item}
                  </Link>
                ) : (
                  `${TAB_LABELS[i.tab]}: ${i.item}`
                )
              }
              secondary={i.remarks ? `Reason: ${i.remarks}` : 'No remarks were given.'}
              slotProps={{ secondary: { sx: { whiteSpace: 'pre-wrap' } } }}
            />
          </ListItem>
        ))}
      </List>
    </>
  );
}
