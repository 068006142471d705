import { useCallback, useState, type ReactNode } from 'react';
import TablePagination from '@mui/material/TablePagination';

/** How a server-paged list pages: its first page, its page size at first and the sizes offered. */
export type ListPaging = { firstPage: number; pageSize: number; pageSizes: readonly number[] };

/** Spec 000 §9 and 001 §9 (the BA lists): 10 rows from page 0, 5/10/20 a page. */
export const LIST_PAGING: ListPaging = { firstPage: 0, pageSize: 10, pageSizes: [5, 10, 20] };

/**
 * The page and page size of a list the API pages, and its pagination footer for `count` rows in all. Choosing
 * another page size starts again at the first page; `toFirstPage` is for the list's own filters and tabs.
 */
export function useListPager(paging: ListPaging = LIST_PAGING): {
  page: number;
  pageSize: number;
  toFirstPage: () => void;
  pager: (count: number) => ReactNode;
} {
  const { firstPage } = paging;
  const [page, setPage] = useState(firstPage);
  const [pageSize, setPageSize] = useState(paging.pageSize);
  const toFirstPage = useCallback(() => setPage(firstPage), [firstPage]);
  const pager = (count: number) => (
    <TablePagination
      component="div"
      count={count}
      page={page}
      rowsPerPage={pageSize}
      rowsPerPageOptions={[...paging.pageSizes]}
      onPageChange={(_e, p) => setPage(p)}
      onRowsPerPageChange={(e) => {
        setPageSize(Number(e.target.value));
        setPage(firstPage);
      }}
    />
  );
  return { page, pageSize, toFirstPage, pager };
}
