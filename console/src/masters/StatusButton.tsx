import { useState, type MouseEvent } from 'react';
import { Button } from '@mui/material';
import ToggleOffIcon from '@mui/icons-material/ToggleOff';
import ToggleOnIcon from '@mui/icons-material/ToggleOn';
import { Confirm, useNotify, useRecordContext, useRedirect, useRefresh, useUpdate } from 'react-admin';
import { displayOf, type MasterDefinition } from '../../../domain/src/masters/definitions';
import { errorText } from '../providers/httpClient';
import { masterListPath } from './paths';
import type { MasterItem } from './types';

type Verb = 'deactivate' | 'activate';

const LABEL: Record<Verb, string> = { deactivate: 'Deactivate', activate: 'Activate' };

/** "City deactivated successfully": the spec's wording of success messages (000 §8). */
export const statusMessage = (def: MasterDefinition, verb: Verb): string =>
  `${def.singular} ${verb}d successfully`;

const consequence = (def: MasterDefinition, verb: Verb): string =>
  verb === 'deactivate'
    ? `It will no longer be offered in forms and lists for business associates. Records that already use it keep it. You can activate it again at any time.`
    : `It will be offered again wherever ${def.label.toLowerCase()} are chosen.`;

/**
 * Deactivate or Activate one item (there is no delete: events refer to ids), after a confirmation. A row
 * action in the list (stays on the list) and an action of the edit page (then back to the list).
 */
export const StatusButton = ({ def, backToList = false }: { def: MasterDefinition; backToList?: boolean }) => {
  const item = useRecordContext<MasterItem>();
  const [open, setOpen] = useState(false);
  const notify = useNotify();
  const refresh = useRefresh();
  const redirect = useRedirect();
  const [update, { isPending }] = useUpdate<MasterItem>();
  if (!item) return null;
  const verb: Verb = item.status === 'inactive' ? 'activate' : 'deactivate';
  const name = displayOf(def, item) || String(item.id);

  const confirm = () =>
    update(
      def.resource,
      { id: item.id, data: { status: verb === 'activate' ? 'active' : 'inactive' }, previousData: item },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => {
          setOpen(false);
          notify(statusMessage(def, verb), { type: 'success' });
          if (backToList) redirect(masterListPath(def));
          else refresh();
        },
        onError: (error) => {
          setOpen(false);
          notify(errorText(error), { type: 'error' });
        },
      },
    );

  // The row opens the item on click: the button and its dialog must not.
  const stop = (e: MouseEvent) => e.stopPropagation();
  return (
    <span onClick={stop}>
      <Button
        size="small"
        // On the item's page it is the page's action; in a table, one per row, it stays quiet.
        variant={backToList ? 'outlined' : 'text'}
        color={backToList ? (verb === 'deactivate' ? 'error' : 'success') : 'inherit'}
        sx={backToList ? undefined : { color: 'text.secondary' }}
        startIcon={verb === 'deactivate' ? <ToggleOffIcon /> : <ToggleOnIcon color="success" />}
        onClick={() => setOpen(true)}
        aria-label={`${LABEL[verb]} ${name}`}
      >
        {LABEL[verb]}
      </Button>
      <Confirm
        isOpen={open}
        loading={isPending}
        title={`${LABEL[verb]} ${def.singular} "${name}"?`}
        content={consequence(def, verb)}
        confirm={LABEL[verb]}
        confirmColor={verb === 'deactivate' ? 'warning' : 'primary'}
        onConfirm={confirm}
        onClose={() => setOpen(false)}
      />
    </span>
  );
};
