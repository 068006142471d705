import { useMemo } from 'react';
import { AgGridReact } from 'ag-grid-react';
import type { CellValueChangedEvent } from 'ag-grid-community';
import Box from '@mui/material/Box';
import { alpha } from '@mui/material/styles';
import type { LaneColumn } from '../../../domain/src/rfp/model';
import './grid';
import { defaultLaneColDef, laneColumnDefs, type LaneGridRow } from './laneColumns';

export type LaneGridProps = {
  columns: readonly LaneColumn[];
  rows: LaneGridRow[];
  editable: boolean;
  /** A BA cell of this lane was changed (the row object holds the new value). */
  onLaneChanged: (laneId: string) => void;
};

/** The BA lane grid (AG Grid Community): the rows are edited in place, the page keeps which lanes changed. */
export function LaneGrid({ columns, rows, editable, onLaneChanged }: LaneGridProps) {
  const columnDefs = useMemo(() => laneColumnDefs(columns, { editable }), [columns, editable]);
  return (
    <Box
      // The BA's own columns are tinted while they may be edited: where to type is seen at a glance.
      sx={{ height: 480, width: '100%', '& .rfp-ba-cell': { bgcolor: (theme) => alpha(theme.palette.primary.main, 0.06) } }}
      data-testid="lane-grid"
    >
      <AgGridReact<LaneGridRow>
        rowData={rows}
        columnDefs={columnDefs}
        defaultColDef={defaultLaneColDef}
        getRowId={(p) => p.data.laneId}
        singleClickEdit
        stopEditingWhenCellsLoseFocus
        onCellValueChanged={(e: CellValueChangedEvent<LaneGridRow>) => {
          if (e.data) onLaneChanged(e.data.laneId);
        }}
      />
    </Box>
  );
}
