export { EventHistory } from './EventHistory';
export { EVENT_HISTORY_ROLES, mayReadEventHistory } from './access';
