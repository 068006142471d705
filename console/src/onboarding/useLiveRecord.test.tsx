import { act, renderHook } from '@testing-library/react';
import type { NotificationItem } from '../../../api/src/contract';
import { announceNotification } from '../../../ui/src/notifications/arrivals';
import { isAboutBa, useLiveRecord } from './useLiveRecord';

const refresh = jest.fn();
jest.mock('react-admin', () => ({ useRefresh: () => refresh }));

const about = (link: string) => ({ id: 'n1', link }) as unknown as NotificationItem;

describe('useLiveRecord', () => {
  beforeEach(() => {
    jest.useFakeTimers();
    refresh.mockClear();
  });
  afterEach(() => {
    document.body.innerHTML = '';
    jest.useRealTimers();
  });

  test('a notification about this BA reads the page again; one about another BA does not', () => {
    renderHook(() => useLiveRecord('ba-1'));
    act(() => announceNotification(about('/business-associates/ba-2/show')));
    expect(refresh).not.toHaveBeenCalled();
    act(() => announceNotification(about('/business-associates/ba-1/show')));
    expect(refresh).toHaveBeenCalledTimes(1);
  });

  test('while a dialog is open the refresh waits until it has closed', () => {
    renderHook(() => useLiveRecord('ba-1'));
    const dialog = document.createElement('div');
    dialog.setAttribute('role', 'dialog');
    document.body.appendChild(dialog);
    act(() => announceNotification(about('/business-associates/ba-1/show')));
    act(() => jest.advanceTimersByTime(2000));
    expect(refresh).not.toHaveBeenCalled();
    dialog.remove();
    act(() => jest.advanceTimersByTime(600));
    expect(refresh).toHaveBeenCalledTimes(1);
  });

  test('isAboutBa matches the id as a whole path part', () => {
    expect(isAboutBa('/business-associates/ba-1/show', 'ba-1')).toBe(true);
    expect(isAboutBa('/business-associates/ba-10/show', 'ba-1')).toBe(false);
    expect(isAboutBa(null, 'ba-1')).toBe(false);
  });
});
