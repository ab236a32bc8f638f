/**
 * Linear sum assignment by the shortest augmenting path method of Jonker & Volgenant (1987) in the
 * rectangular form of Crouse (2016), "On implementing 2D rectangular assignment algorithms" — the
 * algorithm behind scipy.optimize.linear_sum_assignment. O(n^2 m) for an n x m matrix, n <= m.
 */

export interface Assignment {
  /** rowToCol[r] = the column assigned to row r, or -1 (only when rows > cols) */
  readonly rowToCol: Int32Array;
  /** the total cost (or value, when maximizing) of the assignment */
  readonly total: number;
}

/**
 * Minimizes (or maximizes) the sum of cost[r * cols + c] over a matching that assigns
 * min(rows, cols) rows to distinct columns. Costs must be finite.
 */
export function linearSumAssignment(
  cost: ArrayLike<number>,
  rows: number,
  cols: number,
  maximize = false,
): Assignment {
  if (cost.length !== rows * cols) throw new RangeError(`cost has ${cost.length} entries, not ${rows} x ${cols}`);
  const transpose = rows > cols;
  const nr = transpose ? cols : rows;
  const nc = transpose ? rows : cols;
  const sign = maximize ? -1 : 1;
  const c = new Float64Array(nr * nc);
  for (let r = 0; r < rows; r++) {
    for (let k = 0; k < cols; k++) {
      const v = cost[r * cols + k];
      if (!Number.isFinite(v)) throw new RangeError(`cost[${r}][${k}] = ${v} is not finite`);
      c[transpose ? k * nc + r : r * nc + k] = sign * v;
    }
  }
  const u = new Float64Array(nr);
  const v = new Float64Array(nc);
  const shortest = new Float64Array(nc);
  const path = new Int32Array(nc).fill(-1);
  const col4row = new Int32Array(nr).fill(-1);
  const row4col = new Int32Array(nc).fill(-1);
  const SR = new Uint8Array(nr);
  const SC = new Uint8Array(nc);
  const remaining = new Int32Array(nc);

  for (let curRow = 0; curRow < nr; curRow++) {
    // Dijkstra over reduced costs from curRow to the nearest free column (the sink)
    let minVal = 0;
    let numRemaining = nc;
    for (let it = 0; it < nc; it++) remaining[it] = nc - it - 1;
    SR.fill(0);
    SC.fill(0);
    shortest.fill(Infinity);
    let sink = -1;
    let i = curRow;
    while (sink === -1) {
      let index = -1;
      let lowest = Infinity;
      SR[i] = 1;
      const base = i * nc;
      for (let it = 0; it < numRemaining; it++) {
        const j = remaining[it];
        const r = minVal + c[base + j] - u[i] - v[j];
        if (r < shortest[j]) {
          path[j] = i;
          shortest[j] = r;
        }
        if (shortest[j] < lowest || (shortest[j] === lowest && row4col[j] === -1)) {
          lowest = shortest[j];
          index = it;
        }
      }
      minVal = lowest;
      const j = remaining[index];
      if (row4col[j] === -1) sink = j;
      else i = row4col[j];
      SC[j] = 1;
      remaining[index] = remaining[--numRemaining];
    }
    // update the dual variables
    u[curRow] += minVal;
    for (let r = 0; r < nr; r++) if (SR[r] && r !== curRow) u[r] += minVal - shortest[col4row[r]];
    for (let j = 0; j < nc; j++) if (SC[j]) v[j] -= minVal - shortest[j];
    // augment along the path
    let j = sink;
    for (;;) {
      const r = path[j];
      row4col[j] = r;
      const prev = col4row[r];
      col4row[r] = j;
      j = prev;
      if (r === curRow) break;
    }
  }

  const rowToCol = new Int32Array(rows).fill(-1);
  let total = 0;
  for (let r = 0; r < nr; r++) {
    const k = col4row[r];
    if (transpose) rowToCol[k] = r;
    else rowToCol[r] = k;
    total += sign * c[r * nc + k];
  }
  return { rowToCol, total };
}
