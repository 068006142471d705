import { useId, useState, type ElementType } from 'react';
import Button from '@mui/material/Button';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import NewReleasesIcon from '@mui/icons-material/NewReleasesOutlined';
import { formatDate } from '../../domain/src/shared/format';
import { releaseTitle, type DeviceType } from '../../domain/src/releases/fields';

/** What the menu needs of a release (a row of GET /api/releases). */
export type WhatsNewEntry = { id: string; versionReleased: string; deviceType: DeviceType; releasedOn: string };

export const WHATS_NEW_LABEL = "What's New";
export const NO_UPDATES = 'No Updates found';

type LinkProps = { component: ElementType } & Record<string, unknown>;

export type WhatsNewMenuProps = {
  /** Loads the releases for the user's class, newest first; a failure shows the empty text (as an empty list). */
  load: () => Promise<readonly WhatsNewEntry[]>;
  /** How an entry links to its release page: an anchor in the console (a new tab), a router link in the portal. */
  linkProps: (entry: WhatsNewEntry) => LinkProps;
  /** The button's icon; off where the header's other entries are plain text. */
  icon?: boolean;
};

/**
 * The header's What's New (spec 000 §2): "BA Portal Release {version} - {device type}" per release, each
 * linking to its release page, "No Updates found" when there is none. The list is read each time the menu
 * opens: cheap, and a release published meanwhile shows up without a reload.
 */
export function WhatsNewMenu({ load, linkProps, icon = true }: WhatsNewMenuProps) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [entries, setEntries] = useState<readonly WhatsNewEntry[] | null>(null);
  const menuId = useId();

  const open = (target: HTMLElement) => {
    setAnchor(target);
    setEntries(null);
    void load().then(setEntries, () => setEntries([]));
  };
  const close = () => setAnchor(null);

  return (
    <>
      <Button
        color="inherit"
        startIcon={icon ? <NewReleasesIcon /> : undefined}
        aria-haspopup="menu"
        aria-controls={anchor ? menuId : undefined}
        aria-expanded={anchor ? 'true' : undefined}
        onClick={(e) => open(e.currentTarget)}
        sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}
      >
        {WHATS_NEW_LABEL}
      </Button>
      <Menu
        id={menuId}
        anchorEl={anchor}
        open={anchor !== null}
        onClose={close}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ paper: { sx: { maxHeight: 420, minWidth: 280 } } }}
      >
        {entries === null ? (
          <MenuItem disabled>Loading…</MenuItem>
        ) : entries.length === 0 ? (
          <MenuItem disabled>{NO_UPDATES}</MenuItem>
        ) : (
          entries.map((entry) => (
            <MenuItem key={entry.id} {...linkProps(entry)} onClick={close}>
              <ListItemText primary={releaseTitle(entry)} secondary={formatDate(entry.releasedOn)} />
            </MenuItem>
          ))
        )}
      </Menu>
    </>
  );
}
