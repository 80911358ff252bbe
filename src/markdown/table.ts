/**
 * The table model the renderer fills while walking a `<table>`, and the decision between a data
 * table (rendered as a grid) and a layout table (its cells rendered as ordinary blocks): a grid
 * of one column, one row, nested tables or `role="presentation"` is layout, not data.
 */

/** One cell: its rendered content (may hold blocks) and how it spans. */
export interface TableCell {
  content: string;
  header: boolean;
  colspan: number;
}

/** One row, and whether it came from `<thead>`. */
export interface TableRow {
  cells: TableCell[];
  inHead: boolean;
}

/** A table as collected from the DOM. */
export interface TableModel {
  rows: TableRow[];
  /** A `<table>` was found inside one of the cells. */
  hasNestedTable: boolean;
  /** `role="presentation"` or `role="none"`. */
  presentational: boolean;
}

/** Most columns one cell may span; `colspan="1000"` would otherwise blow up the grid. */
export const MAX_COLSPAN = 20;

/** Columns of the grid: the widest row, counting spans. */
export function columnCount(table: TableModel): number {
  let columns = 0;
  for (const row of table.rows) {
    const width = row.cells.reduce((sum, cell) => sum + cell.colspan, 0);
    if (width > columns) columns = width;
  }
  return columns;
}

/**
 * True when the table is for layout, not data, and its cells should read as plain blocks.
 *
 * @example
 * isLayoutTable({ rows: [row], hasNestedTable: false, presentational: false }); // true: one row
 */
export function isLayoutTable(table: TableModel): boolean {
  if (table.presentational || table.hasNestedTable) return true;
  if (table.rows.length < 2) return true;
  return columnCount(table) < 2;
}

/**
 * The grid of a data table: each row's cell texts, spans expanded into empty cells and short
 * rows padded, so every row has the same length. `toText` flattens each cell to one line.
 */
export function tableGrid(table: TableModel, toText: (content: string) => string): string[][] {
  const columns = columnCount(table);
  return table.rows.map((row) => {
    const cells: string[] = [];
    for (const cell of row.cells) {
      cells.push(toText(cell.content));
      for (let i = 1; i < cell.colspan; i++) cells.push("");
    }
    while (cells.length < columns) cells.push("");
    return cells;
  });
}
