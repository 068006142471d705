import AssignmentIndIcon from '@mui/icons-material/AssignmentInd';
import { TaskList } from './TaskList';

/** "My Pending Task": list only; a row opens the business associate it is about. */
export const tasks = {
  name: 'tasks',
  list: TaskList,
  icon: AssignmentIndIcon,
  options: { label: 'My Pending Task' },
} as const;

export { TaskList };
export { hasReviewerRole } from './access';
