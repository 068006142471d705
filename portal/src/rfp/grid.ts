import {
  ClientSideRowModelModule,
  ModuleRegistry,
  NumberFilterModule,
  SelectEditorModule,
  TextEditorModule,
  TextFilterModule,
  CellStyleModule,
} from 'ag-grid-community';

/**
 * AG Grid Community (v33+ is modular): the grid renders only what is registered, so the lane grid's features
 * are registered once here — client-side rows, text and number filters, text and select editors, cell classes.
 * Sorting, resizing and pinning are in the grid's core. Imported for its effect by LaneGrid.
 */
ModuleRegistry.registerModules([
  ClientSideRowModelModule,
  TextFilterModule,
  NumberFilterModule,
  TextEditorModule,
  SelectEditorModule,
  CellStyleModule,
]);
