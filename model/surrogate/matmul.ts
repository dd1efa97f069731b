/**
 * c (m × n) = a (m × k) · bᵀ, where b is n × k; all row-major. Both operands are read along k, so every
 * product is a contiguous dot product; a 4 × 2 block of outputs is accumulated at once so each loaded
 * value is used several times (V8 does not vectorise, so register reuse is what makes this fast).
 */
export function multiplyTransposed(
  a: Float32Array,
  m: number,
  b: Float32Array,
  n: number,
  k: number,
  c: Float32Array,
): void {
  const m4 = m - (m % 4);
  const n2 = n - (n % 2);
  for (let r = 0; r < m4; r += 4) {
    const a0 = r * k;
    const a1 = a0 + k;
    const a2 = a1 + k;
    const a3 = a2 + k;
    for (let j = 0; j < n2; j += 2) {
      const b0 = j * k;
      const b1 = b0 + k;
      let s00 = 0;
      let s10 = 0;
      let s20 = 0;
      let s30 = 0;
      let s01 = 0;
      let s11 = 0;
      let s21 = 0;
      let s31 = 0;
      for (let i = 0; i < k; i++) {
        const w0 = b[b0 + i]!;
        const w1 = b[b1 + i]!;
        const x0 = a[a0 + i]!;
        const x1 = a[a1 + i]!;
        const x2 = a[a2 + i]!;
        const x3 = a[a3 + i]!;
        s00 += x0 * w0;
        s10 += x1 * w0;
        s20 += x2 * w0;
        s30 += x3 * w0;
        s01 += x0 * w1;
        s11 += x1 * w1;
        s21 += x2 * w1;
        s31 += x3 * w1;
      }
      const c0 = r * n + j;
      c[c0] = s00;
      c[c0 + 1] = s01;
      c[c0 + n] = s10;
      c[c0 + n + 1] = s11;
      c[c0 + 2 * n] = s20;
      c[c0 + 2 * n + 1] = s21;
      c[c0 + 3 * n] = s30;
      c[c0 + 3 * n + 1] = s31;
    }
    if (n2 < n) for (let q = r; q < r + 4; q++) c[q * n + n2] = dot(a, q * k, b, n2 * k, k);
  }
  for (let q = m4; q < m; q++) for (let j = 0; j < n; j++) c[q * n + j] = dot(a, q * k, b, j * k, k);
}

function dot(a: Float32Array, aOffset: number, b: Float32Array, bOffset: number, k: number): number {
  let sum = 0;
  for (let i = 0; i < k; i++) sum += a[aOffset + i]! * b[bOffset + i]!;
  return sum;
}

/** dst (cols × rows) = srcᵀ, where src is rows × cols, row-major. */
export function transpose(src: Float32Array, rows: number, cols: number, dst: Float32Array): void {
  for (let r = 0; r < rows; r++) {
    const s = r * cols;
    for (let c = 0; c < cols; c++) dst[c * rows + r] = src[s + c]!;
  }
}
