import { Create, SimpleForm, useNotify, useRedirect } from 'react-admin';
import { ReleaseInputs } from './ReleaseInputs';

export const RELEASE_PUBLISHED_MESSAGE = 'Release published successfully';
export const RELEASE_SAVED_MESSAGE = 'Release saved successfully';

type Entry = { featureDesc?: unknown; releasedOn?: unknown };

/** What POST/PUT /api/releases take: empty entry dates left out (they take the release date). */
export const releaseBody = (data: Record<string, unknown>) => {
  const entries = (list: unknown) =>
    ((list as Entry[] | undefined) ?? []).map((e) => ({
      featureDesc: String(e?.featureDesc ?? '').trim(),
      ...(e?.releasedOn ? { releasedOn: String(e.releasedOn) } : {}),
    }));
  return {
    versionReleased: String(data['versionReleased'] ?? '').trim(),
    deviceType: data['deviceType'],
    featureClass: data['featureClass'],
    releasedOn: data['releasedOn'],
    newFeatures: entries(data['newFeatures']),
    bugFixes: entries(data['bugFixes']),
  };
};

const today = () => new Date().toLocaleDateString('en-CA', { timeZone: 'Asia/Kolkata' });

/** A new release note; then back to the list. */
export const ReleaseCreate = () => {
  const notify = useNotify();
  const redirect = useRedirect();
  return (
    <Create
      title="New release"
      transform={releaseBody}
      mutationOptions={{
        onSuccess: () => {
          notify(RELEASE_PUBLISHED_MESSAGE, { type: 'success' });
          redirect('list', 'releases');
        },
      }}
    >
      <SimpleForm
        defaultValues={() => ({
          deviceType: 'web',
          featureClass: 'ba',
          releasedOn: today(),
          newFeatures: [{}],
          bugFixes: [],
        })}
      >
        <ReleaseInputs mode="create" />
      </SimpleForm>
    </Create>
  );
};
