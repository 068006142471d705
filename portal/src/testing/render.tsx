import { configure, render } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { createApiClient } from '../api/client';
import { App } from '../App';
import type { Leave } from '../shared/external';
import type { FakeApi } from './fakeApi';

// findBy*/waitFor wait up to 1 s by default: too short for a whole-app render on a busy 2-core machine.
configure({ asyncUtilTimeout: 10_000 });

/** Shows the current path and query, so tests can check where the portal navigated. */
function Location() {
  const { pathname, search } = useLocation();
  return (
    <>
      <div data-testid="location" hidden>{pathname}</div>
      <div data-testid="location-search" hidden>{search}</div>
    </>
  );
}

export type RenderOptions = {
  /** Receives the URL when the portal sends the browser to another application (the staff console). */
  leave?: Leave;
};

/** The whole portal at `path`, talking to the fake API through the real client. */
export function renderPortal(api: FakeApi, path = '/', options: RenderOptions = {}) {
  const client = createApiClient({ fetch: api.fetch });
  return render(
    <MemoryRouter initialEntries={[path]}>
      <App client={client} leave={options.leave ?? (() => undefined)} />
      <Location />
    </MemoryRouter>,
  );
}
