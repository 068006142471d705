/**
 * The Approve/Reject column of an item table stays in view: the tables are wider than their cards on a laptop
 * screen, and a reviewer should not have to scroll sideways to reach the decision.
 */
export const stickyActionsCell = {
  position: 'sticky',
  right: 0,
  bgcolor: 'background.paper',
  whiteSpace: 'nowrap',
  boxShadow: '-4px 0 4px -4px rgba(0, 0, 0, 0.2)',
} as const;
