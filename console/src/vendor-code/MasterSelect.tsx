import { MenuItem, TextField } from '@mui/material';
import { useGetList } from 'react-admin';

type Item = { id: number | string; status?: string } & Record<string, unknown>;

export type MasterSelectProps = {
  /** The master's API resource (block-reasons, erp-reject-reasons, payment-terms, …). */
  resource: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  optionText: (item: Item) => string;
  required?: boolean;
  error?: string | null;
  disabled?: boolean;
  testId?: string;
};

/** A select over one master's active items (masters are small: one page of 100 holds them). */
export const MasterSelect = ({ resource, label, value, onChange, optionText, required, error, disabled, testId }: MasterSelectProps) => {
  const { data, isPending } = useGetList<Item>(resource, {
    pagination: { page: 1, perPage: 100 },
    sort: { field: 'id', order: 'ASC' },
    filter: { status: 'active' },
  });
  const items = data ?? [];
  return (
    <TextField
      select
      label={label}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      required={required}
      error={Boolean(error)}
      helperText={error ?? (isPending ? 'Loading…' : ' ')}
      disabled={disabled}
      fullWidth
      slotProps={{ htmlInput: { 'data-testid': testId } }}
    >
      {items.map((item) => (
        <MenuItem key={String(item.id)} value={String(item.id)}>
          {optionText(item)}
        </MenuItem>
      ))}
    </TextField>
  );
};

const text = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : '');

/** "NT30 – Net 30 days": code and description when there is one. */
export const codeAndDescription = (code: string) => (item: Item) =>
  [text(item[code]), text(item['description'])].filter(Boolean).join(' – ');
