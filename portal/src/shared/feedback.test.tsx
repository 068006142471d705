import { act, render, screen } from '@testing-library/react';
import { FeedbackProvider, useFeedback, type Feedback } from './feedback';
import { SNACKBAR_AUTO_HIDE_MS } from './Snackbar';

/** The provider's snackbar, driven through `notify` as pages do; fake timers stand for a busy machine. */
function renderFeedback(): Feedback {
  let feedback: Feedback | null = null;
  function Probe() {
    feedback = useFeedback();
    return null;
  }
  render(
    <FeedbackProvider>
      <Probe />
    </FeedbackProvider>,
  );
  return feedback!;
}

/** Lets `ms` pass, then lets the closing transition (its own timer, started once React rendered the close) end. */
function elapse(ms: number) {
  act(() => jest.advanceTimersByTime(ms));
  act(() => jest.advanceTimersByTime(1_000));
}

describe('the snackbar of the feedback provider', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('hides a message after 2.5 s', () => {
    const feedback = renderFeedback();
    act(() => feedback.notify('Successfully Blocked'));
    expect(screen.getByText('Successfully Blocked')).toBeInTheDocument();
    act(() => jest.advanceTimersByTime(SNACKBAR_AUTO_HIDE_MS - 100));
    expect(screen.getByText('Successfully Blocked')).toBeInTheDocument();
    elapse(100);
    expect(screen.queryByText('Successfully Blocked')).not.toBeInTheDocument();
  });

  it("a late auto-hide of the previous message does not close the new one before it is seen", () => {
    const feedback = renderFeedback();
    act(() => feedback.notify('Successfully Blocked'));
    // The new message is set, and before React renders it the old message's (delayed) timer fires.
    act(() => {
      feedback.notify('Successfully Unblocked');
      jest.advanceTimersByTime(SNACKBAR_AUTO_HIDE_MS);
    });
    expect(screen.getByText('Successfully Unblocked')).toBeInTheDocument();
    expect(screen.queryByText('Successfully Blocked')).not.toBeInTheDocument();
    // …and the new message still hides itself on its own time.
    elapse(SNACKBAR_AUTO_HIDE_MS);
    expect(screen.queryByText('Successfully Unblocked')).not.toBeInTheDocument();
  });
});
