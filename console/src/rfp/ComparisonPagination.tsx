import { TablePagination } from '@mui/material';

/** The page sizes of both comparisons (quotes by group, responses by BA). */
export const COMPARISON_PAGE_SIZES = [10, 25, 50];

/** The comparisons' pager (page from 0): a new page size starts again at the first page. */
export const ComparisonPagination = ({
  count,
  page,
  perPage,
  onPage,
}: {
  count: number;
  page: number;
  perPage: number;
  onPage: (page: number, perPage: number) => void;
}) => (
  <TablePagination
    component="div"
    count={count}
    page={page}
    rowsPerPage={perPage}
    rowsPerPageOptions={COMPARISON_PAGE_SIZES}
    onPageChange={(_e, next) => onPage(next, perPage)}
    onRowsPerPageChange={(e) => onPage(0, Number(e.target.value))}
  />
);
