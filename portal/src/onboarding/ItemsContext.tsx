import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useApi } from '../api/ApiContext';
import type { BaStatus } from '../api/client';
import {
  onboardingApi,
  onboardingMasters,
  type BankAccountRow,
  type ConcessionRow,
  type DocumentRow,
  type GstRegistrationRow,
  type OnboardingApi,
  type OnboardingMasters,
  type ReviewStatus,
  type VerticalMappingRow,
} from '../api/onboarding';
import { useBa } from './BaContext';
import { useFailure } from './itemFields';

/**
 * The BA's onboarding items, loaded once for the tabbed page (and the status page's list of rejected items):
 * each tab reads its list from here and asks for a reload after a command, so tabs that depend on another's
 * items (GST rows name a bank account, documents belong to GST states) see the same data.
 */
export type ItemLists = {
  bankAccounts: BankAccountRow[] | null;
  gstRegistrations: GstRegistrationRow[] | null;
  documents: DocumentRow[] | null;
  concessions: ConcessionRow[] | null;
  verticalMapping: VerticalMappingRow | null;
};
export type ItemListName = keyof ItemLists;

/** Spec 000 §4: the application may change before submission and after a rejection, never under review. */
export const EDITABLE_STATUSES: readonly BaStatus[] = ['pending', 'rejected'];

type ItemsState = {
  lists: ItemLists;
  reload: (...which: ItemListName[]) => Promise<void>;
  api: OnboardingApi;
  masters: CachedMasters;
  /** The application may change (pending or rejected) and the page is not a read-only view. */
  editable: boolean;
  /** A read-only view (View Profile, the status page): nothing changes here whatever the status. */
  readOnly: boolean;
};

type MasterName = Exclude<keyof OnboardingMasters, 'bankByCode'>;
type MasterRows<N extends MasterName> = Awaited<ReturnType<OnboardingMasters[N]>>;
export type CachedMasters = OnboardingMasters & { get: <N extends MasterName>(name: N) => Promise<MasterRows<N>> };

const ItemsContext = createContext<ItemsState | null>(null);

const EMPTY: ItemLists = {
  bankAccounts: null,
  gstRegistrations: null,
  documents: null,
  concessions: null,
  verticalMapping: null,
};
const ALL: ItemListName[] = ['bankAccounts', 'gstRegistrations', 'documents', 'concessions', 'verticalMapping'];

export function ItemsProvider({ readOnly = false, children }: { readOnly?: boolean; children: ReactNode }) {
  const client = useApi();
  const { ba } = useBa();
  const failed = useFailure();
  const api = useMemo(() => onboardingApi(client, ba.id), [client, ba.id]);
  const cache = useRef(new Map<string, Promise<unknown>>());
  const masters = useMemo<CachedMasters>(() => {
    const plain = onboardingMasters(client);
    return {
      ...plain,
      // Reference lists change rarely: one request per page visit, shared by every tab.
      get: <N extends MasterName>(name: N) => {
        let hit = cache.current.get(name) as Promise<MasterRows<N>> | undefined;
        if (!hit) {
          hit = plain[name]() as Promise<MasterRows<N>>;
          hit.catch(() => cache.current.delete(name));
          cache.current.set(name, hit);
        }
        return hit;
      },
    };
  }, [client]);
  const [lists, setLists] = useState<ItemLists>(EMPTY);

  const reload = useCallback(
    async (...which: ItemListName[]) => {
      const names = which.length > 0 ? which : ALL;
      const loaders: Record<ItemListName, () => Promise<unknown>> = {
        bankAccounts: api.bankAccounts,
        gstRegistrations: api.gstRegistrations,
        documents: () => api.documents('onboarding'),
        concessions: api.concessions,
        verticalMapping: api.verticalMapping,
      };
      await Promise.all(
        names.map(async (name) => {
          try {
            const rows = await loaders[name]();
            setLists((l) => ({ ...l, [name]: rows }));
          } catch (e) {
            failed(e);
          }
        }),
      );
    },
    [api, failed],
  );

  useEffect(() => {
    void reload();
  }, [reload]);

  const editable = !readOnly && EDITABLE_STATUSES.includes(ba.status);
  const value = useMemo(
    () => ({ lists, reload, api, masters, editable, readOnly }),
    [lists, reload, api, masters, editable, readOnly],
  );
  return <ItemsContext.Provider value={value}>{children}</ItemsContext.Provider>;
}

export function useItems(): ItemsState & { canChange: (review: ReviewStatus | null | undefined) => boolean } {
  const state = useContext(ItemsContext);
  if (!state) throw new Error('useItems must be used inside <ItemsProvider>');
  // After a rejection only what staff did not approve may change (the API refuses the rest).
  const canChange = (review: ReviewStatus | null | undefined) => state.editable && review !== 'approved';
  return { ...state, canChange };
}

/** A reference list from the page's cache; null until it arrives. */
export function useMaster<N extends MasterName>(name: N): MasterRows<N> | null {
  const { masters } = useItems();
  const failed = useFailure();
  const [rows, setRows] = useState<MasterRows<N> | null>(null);
  useEffect(() => {
    let live = true;
    masters
      .get(name)
      .then((r) => live && setRows(r))
      .catch((e: unknown) => live && failed(e));
    return () => {
      live = false;
    };
  }, [masters, name, failed]);
  return rows;
}
