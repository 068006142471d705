import { useId, useState, type UIEvent } from 'react';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import Popover from '@mui/material/Popover';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import NotificationsIcon from '@mui/icons-material/NotificationsOutlined';
import { formatDateTime } from '../../../domain/src/shared/format';
import { useNotifications, type NotificationItem, type NotificationsApi } from './useNotifications';

/** How close to the bottom (px) a scroll must come for the next page to load. */
const BOTTOM_SLACK_PX = 24;

export type NotificationCentreProps = {
  api: NotificationsApi;
  /** Opens a notification's link, a path inside the application the bell sits in. */
  onNavigate: (link: string) => void;
};

/**
 * The header's notification bell (spec 000 §2 "Header", spec 001 §2 "Notifications"): the unread count as a
 * badge (0 at first), live from the event stream; a popover list, newest first, that loads the next page when
 * scrolled to its bottom; unread items in bold; a click marks the item read and opens its link.
 */
export function NotificationCentre({ api, onNavigate }: NotificationCentreProps) {
  const state = useNotifications(api);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const id = useId();
  const titleId = `${id}-title`;

  const open = (target: HTMLElement) => {
    setAnchor(target);
    state.reload();
  };

  const onScroll = (e: UIEvent<HTMLElement>) => {
    const el = e.currentTarget;
    if (el.scrollTop + el.clientHeight >= el.scrollHeight - BOTTOM_SLACK_PX && state.hasMore && !state.loading)
      state.loadMore();
  };

  const choose = (item: NotificationItem) => {
    void state.markRead(item);
    setAnchor(null);
    if (item.link) onNavigate(item.link);
  };

  const label = state.unread === 1 ? 'Notifications: 1 unread' : `Notifications: ${state.unread} unread`;

  return (
    <>
      <Tooltip title="Notifications">
        <IconButton
          color="inherit"
          aria-label={label}
          aria-haspopup="dialog"
          aria-expanded={anchor ? 'true' : undefined}
          onClick={(e) => open(e.currentTarget)}
        >
          <Badge badgeContent={state.unread} color="error" showZero max={99} data-testid="notification-count">
            <NotificationsIcon />
          </Badge>
        </IconButton>
      </Tooltip>
      <Popover
        open={anchor !== null}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ paper: { role: 'dialog', 'aria-labelledby': titleId, sx: { width: 380, maxWidth: 'calc(100vw - 16px)' } } }}
      >
        <Box sx={{ display: 'flex', alignItems: 'center', px: 2, py: 1 }}>
          <Typography id={titleId} variant="subtitle1" sx={{ flex: 1, fontWeight: 600 }}>
            Notifications
          </Typography>
          <Button size="small" onClick={() => void state.markAllRead()} disabled={state.unread === 0}>
            Mark all as read
          </Button>
        </Box>
        <Divider />
        <List
          dense
          disablePadding
          aria-label="Notification list"
          data-testid="notification-list"
          onScroll={onScroll}
          sx={{ maxHeight: 420, overflowY: 'auto' }}
        >
          {state.items.map((item) => (
            <ListItemButton
              key={item.id}
              onClick={() => choose(item)}
              divider
              aria-label={`${item.read ? '' : 'Unread: '}${item.title}`}
              sx={{ display: 'block', py: 1, bgcolor: item.read ? undefined : 'action.hover' }}
            >
              <Typography variant="body2" sx={{ fontWeight: item.read ? 400 : 700 }} data-read={item.read}>
                {item.title}
              </Typography>
              <Typography variant="body2" color="text.secondary" sx={{ whiteSpace: 'normal' }}>
                {item.body}
              </Typography>
              <Typography variant="caption" color="text.secondary">
                {formatDateTime(item.createdAt)}
              </Typography>
            </ListItemButton>
          ))}
          {state.loading && (
            <Box sx={{ display: 'flex', justifyContent: 'center', py: 1.5 }}>
              <CircularProgress size={20} aria-label="Loading more notifications" />
            </Box>
          )}
          {!state.loading && state.items.length === 0 && (
            <Typography variant="body2" color="text.secondary" sx={{ px: 2, py: 3, textAlign: 'center' }}>
              No notifications
            </Typography>
          )}
        </List>
      </Popover>
    </>
  );
}

export type { NotificationsApi, NotificationItem };
