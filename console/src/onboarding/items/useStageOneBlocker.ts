import type { Identifier } from 'react-admin';
import { stageOneBlocker, tallyReviews } from './review';
import { useBaItems } from './useBaItems';

/**
 * Why stage 1 of the first application cannot be approved yet (an item not reviewed or rejected), or null.
 * Reads the same item queries as the sections, so it changes the moment a review lands. Null while they
 * load: the API refuses an early approval anyway, and its message is then shown.
 */
export function useStageOneBlocker(baId: Identifier | undefined, enabled: boolean): string | null {
  const documents = useBaItems(baId, 'documents', enabled);
  const bankAccounts = useBaItems(baId, 'bank-accounts', enabled);
  const concessions = useBaItems(baId, 'concessions', enabled);
  const verticalMapping = useBaItems(baId, 'vertical-mapping', enabled);
  if (!enabled) return null;
  return stageOneBlocker(
    tallyReviews({
      documents: documents.data,
      bankAccounts: bankAccounts.data,
      concessions: concessions.data,
      verticalMapping: verticalMapping.data,
    }),
  );
}
