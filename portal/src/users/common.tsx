import { useState, type ReactNode } from 'react';
import Chip from '@mui/material/Chip';
import TablePagination from '@mui/material/TablePagination';

/** Spec 000 §9: page-size options 5, 10 and 20, 10 rows by default. */
export const PAGE_SIZES = [5, 10, 20];
export const DEFAULT_PAGE_SIZE = 10;

/** Spec 000 §8 success messages, and ours where it gives none. */
export const userTexts = {
  added: 'User added successfully',
  updated: 'User updated successfully',
  blocked: 'Successfully Blocked',
  unblocked: 'Successfully Unblocked',
  noApplication: 'Please select at least one application',
  /** The API's words (api/src/ba-users/routes.ts). */
  departmentRequired: 'Please select a department',
  notVerified: 'Users can be added once your organisation is verified',
  contactLinkSent: (email: string) =>
    `A link to change the e-mail id and mobile number has been e-mailed to ${email}`,
} as const;

export function UserStatusChip({ status }: { status: 'Active' | 'Blocked' }) {
  return (
    <Chip size="small" label={status} color={status === 'Active' ? 'success' : 'default'} variant="outlined" />
  );
}

/** Client-side pages over a user list (a BA has few users): the rows of the page and its pagination footer. */
export function usePage<Row>(rows: readonly Row[] | null): { shown: Row[]; pagination: ReactNode } {
  const [page, setPage] = useState(0);
  const [pageSize, setPageSize] = useState(DEFAULT_PAGE_SIZE);
  const shown = rows?.slice(page * pageSize, page * pageSize + pageSize) ?? [];
  const pagination = (
    <TablePagination
      component="div"
      count={rows?.length ?? 0}
      page={page}
      rowsPerPage={pageSize}
      rowsPerPageOptions={PAGE_SIZES}
      onPageChange={(_e, p) => setPage(p)}
      onRowsPerPageChange={(e) => {
        setPageSize(Number(e.target.value));
        setPage(0);
      }}
    />
  );
  return { shown, pagination };
}
