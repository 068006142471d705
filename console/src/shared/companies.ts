import { useGetList } from 'react-admin';

/**
 * The company codes as the Companies master names them (GET /api/companies, public and small): "1000 – MLL
 * Logistics". A code the list does not (yet) hold is shown as the bare code. Cached by react-admin's query
 * cache, so every select and summary on a page shares one request.
 */
export function useCompanyLabel(): (code: string) => string {
  const { data } = useGetList<{ id: string; companyCode: string; name: string }>(
    'companies',
    { pagination: { page: 1, perPage: 100 }, sort: { field: 'companyCode', order: 'ASC' } },
    { staleTime: 5 * 60_000 },
  );
  return (code) => {
    const company = data?.find((c) => c.companyCode === code);
    return company ? `${code} – ${company.name}` : code;
  };
}
