import { useCallback, useState } from 'react';
import { COMPARISON_PAGE_SIZES } from './ComparisonPagination';

export type ComparisonPage = {
  /** The page shown, from 0. */
  page: number;
  perPage: number;
  /** ComparisonPagination's `onPage`: a page, or a new size with the page it starts at. */
  onPage: (page: number, perPage: number) => void;
  /** Back to the first page, keeping the size: another grouping's pages are other groups. */
  firstPage: () => void;
};

/** The paging state both comparisons (quotes by group, responses by BA) keep for ComparisonPagination. */
export function useComparisonPage(): ComparisonPage {
  const [page, setPage] = useState(0);
  const [perPage, setPerPage] = useState(COMPARISON_PAGE_SIZES[0]!);
  const onPage = useCallback((nextPage: number, nextPerPage: number) => {
    setPage(nextPage);
    setPerPage(nextPerPage);
  }, []);
  const firstPage = useCallback(() => setPage(0), []);
  return { page, perPage, onPage, firstPage };
}
