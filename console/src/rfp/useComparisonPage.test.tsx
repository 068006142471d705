import { act, renderHook } from '@testing-library/react';
import { COMPARISON_PAGE_SIZES } from './ComparisonPagination';
import { useComparisonPage } from './useComparisonPage';

describe('useComparisonPage (both comparisons’ pager)', () => {
  it('starts at the first page with the smallest size', () => {
    const { result } = renderHook(() => useComparisonPage());
    expect([result.current.page, result.current.perPage]).toEqual([0, COMPARISON_PAGE_SIZES[0]]);
  });

  it('takes a page and size from the pager, and goes back to the first page keeping the size', () => {
    const { result } = renderHook(() => useComparisonPage());
    act(() => result.current.onPage(3, 25));
    expect([result.current.page, result.current.perPage]).toEqual([3, 25]);
    act(() => result.current.firstPage());
    expect([result.current.page, result.current.perPage]).toEqual([0, 25]);
  });

  it('keeps the same callbacks across renders (safe in effects and memoised children)', () => {
    const { result, rerender } = renderHook(() => useComparisonPage());
    const { onPage, firstPage } = result.current;
    act(() => onPage(1, 10));
    rerender();
    expect(result.current.onPage).toBe(onPage);
    expect(result.current.firstPage).toBe(firstPage);
  });
});
