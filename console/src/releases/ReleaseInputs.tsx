import { ArrayInput, DateInput, SelectInput, SimpleFormIterator, TextInput } from 'react-admin';
import { Box, Typography } from '@mui/material';
import { DEVICE_TYPE_CHOICES, FEATURE_CLASS_CHOICES } from './ReleaseList';
import {
  validateDate,
  validateDeviceType,
  validateEntryDate,
  validateFeatureClass,
  validateFeatureDesc,
  validateSomethingListed,
  validateVersion,
} from './validation';

/** One repeatable list of entries: a description and, optionally, its own date (else the release date). */
const Entries = ({ source, title }: { source: 'newFeatures' | 'bugFixes'; title: string }) => (
  <>
    <Typography variant="subtitle2" sx={{ mt: 2 }}>
      {title}
    </Typography>
    <ArrayInput
      source={source}
      label={false}
      validate={source === 'newFeatures' ? validateSomethingListed : undefined}
    >
      <SimpleFormIterator inline disableReordering>
        <TextInput
          source="featureDesc"
          label="Description"
          validate={validateFeatureDesc}
          multiline
          sx={{ minWidth: { xs: '100%', md: 420 } }}
        />
        <DateInput source="releasedOn" label="Date (if not the release date)" validate={validateEntryDate} />
      </SimpleFormIterator>
    </ArrayInput>
  </>
);

/** Two inputs a row on a wide screen, one on a phone (react-admin inputs are full width by default). */
const half = { fullWidth: false, sx: { width: { xs: '100%', sm: 'calc(50% - 8px)' } } } as const;

/**
 * A release's fields (spec 000 §3 "Release entry"), shared by Create and Edit. Version and device type name
 * the release (and its public page): they are chosen once, at creation.
 */
export const ReleaseInputs = ({ mode }: { mode: 'create' | 'edit' }) => (
  <Box sx={{ width: '100%', maxWidth: 820 }}>
    <Box sx={{ display: 'flex', columnGap: 2, flexWrap: 'wrap' }}>
      <TextInput
        source="versionReleased"
        label="Version"
        helperText="e.g. 1.4.0"
        validate={validateVersion}
        disabled={mode === 'edit'}
        {...half}
      />
      <SelectInput
        source="deviceType"
        label="Device type"
        choices={DEVICE_TYPE_CHOICES}
        validate={validateDeviceType}
        disabled={mode === 'edit'}
        {...half}
      />
      <SelectInput
        source="featureClass"
        label="Shown to"
        choices={FEATURE_CLASS_CHOICES}
        validate={validateFeatureClass}
        {...half}
      />
      <DateInput source="releasedOn" label="Release date" validate={validateDate} {...half} />
    </Box>
    <Entries source="newFeatures" title="New features" />
    <Entries source="bugFixes" title="Bug fixes" />
  </Box>
);
