import { createContext, useContext, type ReactNode } from 'react';

/**
 * Leaving the single-page app for another application (the staff console). Behind a context so tests, where
 * jsdom cannot navigate, can see where the portal sent the user.
 */
export type Leave = (url: string) => void;

const browserLeave: Leave = (url) => window.location.assign(url);

const LeaveContext = createContext<Leave>(browserLeave);

export function LeaveProvider({ leave, children }: { leave?: Leave | undefined; children: ReactNode }) {
  return <LeaveContext.Provider value={leave ?? browserLeave}>{children}</LeaveContext.Provider>;
}

export const useLeave = (): Leave => useContext(LeaveContext);
