/** The performance dashboard's routes (spec 001 §2: "/performance-dashboard and /performance-dashboard/:role"). */
export const PERFORMANCE_PATH = '/performance-dashboard';
export const PERFORMANCE_ROLE_PATH = '/performance-dashboard/:role';
