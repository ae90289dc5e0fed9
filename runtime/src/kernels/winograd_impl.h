/*===- kernels/winograd_impl.h - Winograd F(4x4, 3x3) transforms ----------===*
 *
 * The input and output transforms of winograd.c's convolutions (dispatch.h
 * has the slots' contracts), over 16 channels in lanes. Written once as
 * plain C whose inner loops are the 16 lanes; winograd_<tier>.c includes
 * it with WINO_FILL defined, compiled with its tier's flags, so that each
 * tier's copy is vectorized for its ISA (one zmm or two ymm per row of 16).
 * WINO_STORE, when defined, is the tier's store of the 16 x 16 outputs
 * (positions x channels, o[position * 16 + channel]) into Y.
 *
 * The matrices are Lavin and Gray's for F(4x4, 3x3) with the points 0, 1,
 * -1, 2, -2 and infinity ("Fast Algorithms for Convolutional Neural
 * Networks", 2016):
 *   B^T = [4  0 -5  0 1 0]    A^T = [1 1  1 1  1 0]
 *         [0 -4 -4  1 1 0]          [0 1 -1 2 -2 0]
 *         [0  4 -4 -1 1 0]          [0 1  1 4  4 0]
 *         [0 -2 -1  2 1 0]          [0 1 -1 8 -8 1]
 *         [0  2 -1 -2 1 0]
 *         [0  4  0 -5 0 1]
 * (G, for the weights, is in winograd.c.) Every tier computes the same
 * operations in the same order, so the tiers differ only where the
 * compiler contracts a multiply and an add into an FMA.
 *===----------------------------------------------------------------------===*/

#ifndef WINO_FILL
#error "define WINO_FILL (the tier's fill function) before including"
#endif

#ifndef WINO_FILL_LINKAGE
#define WINO_FILL_LINKAGE
#endif

#define WL 16 /* lanes: channels */

/* o[k] = (B^T d)[k] for the 6 values d[0..5] of a column or row, each 16
 * lanes, `ds` floats apart; o[k] 16 floats apart. */
static inline void wino_bt(const float *d, i64 ds, float *o) {
  int l;
  for (l = 0; l < WL; ++l) {
    float d0 = d[l], d1 = d[ds + l], d2 = d[2 * ds + l], d3 = d[3 * ds + l],
          d4 = d[4 * ds + l], d5 = d[5 * ds + l];
    float a = d4 - 4.0f * d2, b = d3 - 4.0f * d1; /* rows 1, 2 */
    float c = d4 - d2, e = 2.0f * (d3 - d1);      /* rows 3, 4 */
    o[l] = 4.0f * d0 - 5.0f * d2 + d4;
    o[WL + l] = a + b;
    o[2 * WL + l] = a - b;
    o[3 * WL + l] = c + e;
    o[4 * WL + l] = c - e;
    o[5 * WL + l] = 4.0f * d1 - 5.0f * d3 + d5;
  }
}

/* V = B^T d B of the 6 x 6 patch at x, element (i, j)'s 16 channels at
 * x + i * rs + j * 16; V[xi] (xi = 6 row + column) at v + xi * vs. */
static void wino_input(const float *x, i64 rs, float *v, i64 vs) {
  float t[36 * WL], r[6 * WL];
  int i, j, l;
  /* Columns: t[k][j] = (B^T d)[k] over column j. */
  for (j = 0; j < 6; ++j) {
    float col[6 * WL];
    wino_bt(x + j * WL, rs, col);
    for (i = 0; i < 6; ++i)
      for (l = 0; l < WL; ++l)
        t[(i * 6 + j) * WL + l] = col[i * WL + l];
  }
  /* Rows: V[k][m] = (t[k] B)[m]. */
  for (i = 0; i < 6; ++i) {
    wino_bt(t + i * 6 * WL, WL, r);
    for (j = 0; j < 6; ++j)
      for (l = 0; l < WL; ++l)
        v[(i * 6 + j) * vs + l] = r[j * WL + l];
  }
}

/* The outputs o[(i * tile + j) * 16 + l] (position (i, j), channel l)
 * transposed into Y: channels are lanes here, planes there; plus Y's value
 * when accumulating, then clamped. */
static inline void store_scalar(const float *o, int tile, const wino_store *s,
                                float *y, int rows, int cols) {
  int i, j, l;
  for (l = 0; l < WL; ++l) {
    float *yl = y + l * s->ycs;
    for (i = 0; i < rows; ++i)
      for (j = 0; j < cols; ++j) {
        float x = o[(i * tile + j) * WL + l];
        float *p = yl + i * s->yrs + j;
        if (s->accumulate)
          x += *p;
        if (s->clamp)
          x = x < s->lo ? s->lo : x > s->hi ? s->hi : x;
        *p = x;
      }
  }
}

/* o[k] = (A^T m)[k] for k < 4, m[0..5] `ms` floats apart. */
static inline void wino_at(const float *m, i64 ms, float *o) {
  int l;
  for (l = 0; l < WL; ++l) {
    float m0 = m[l], m1 = m[ms + l], m2 = m[2 * ms + l], m3 = m[3 * ms + l],
          m4 = m[4 * ms + l], m5 = m[5 * ms + l];
    float s12 = m1 + m2, d12 = m1 - m2, s34 = m3 + m4, d34 = m3 - m4;
    o[l] = m0 + s12 + s34;
    o[WL + l] = d12 + 2.0f * d34;
    o[2 * WL + l] = s12 + 4.0f * s34;
    o[3 * WL + l] = d12 + 8.0f * d34 + m5;
  }
}

/* The 4 x 4 outputs of 16 channels from M[xi] at m + xi * ms, with the
 * store `s` into y (channel l's row i at y + l * s->ycs + i * s->yrs),
 * rows x cols of them (the tiles at the bottom and right edges). */
static void wino_output(const float *m, i64 ms, const wino_store *s,
                        float *y, int rows, int cols) {
  float t[24 * WL], o[16 * WL];
  int i, j, l;
  /* Columns of M: t[k][j] = (A^T M)[k] over column j. */
  for (j = 0; j < 6; ++j) {
    float col[4 * WL];
    wino_at(m + j * ms, 6 * ms, col);
    for (i = 0; i < 4; ++i)
      for (l = 0; l < WL; ++l)
        t[(i * 6 + j) * WL + l] = col[i * WL + l];
  }
  for (i = 0; i < 4; ++i) {
    float r[4 * WL];
    wino_at(t + i * 6 * WL, WL, r);
    for (j = 0; j < 4; ++j)
      for (l = 0; l < WL; ++l) {
        float x = r[j * WL + l];
        if (s->bias)
          x += s->bias[l];
        o[(i * 4 + j) * WL + l] = x;
      }
  }
#ifdef WINO_STORE
  /* The tier's transposed store. */
  WINO_STORE(o, s, y, rows, cols);
  (void)l;
#else
  store_scalar(o, 4, s, y, rows, cols);
  (void)l;
#endif
}

/* F(2x2, 3x3): B^T = [1 0 -1 0; 0 1 1 0; 0 -1 1 0; 0 1 0 -1], A^T = [1 1
 * 1 0; 0 1 -1 -1] (G in winograd.c). V = B^T d B of the 4 x 4 patch at x
 * (as wino_input), V[xi] at v + xi * vs for xi = 4 i + j < 16. */
static void wino_input2(const float *x, i64 rs, float *v, i64 vs) {
  float t[16 * WL];
  int i, l;
  for (i = 0; i < 4; ++i) { /* columns: t[k][i] = (B^T d)[k] over column i */
    const float *d = x + i * WL;
    for (l = 0; l < WL; ++l) {
      float d0 = d[l], d1 = d[rs + l], d2 = d[2 * rs + l], d3 = d[3 * rs + l];
      t[(0 * 4 + i) * WL + l] = d0 - d2;
      t[(1 * 4 + i) * WL + l] = d1 + d2;
      t[(2 * 4 + i) * WL + l] = d2 - d1;
      t[(3 * 4 + i) * WL + l] = d1 - d3;
    }
  }
  for (i = 0; i < 4; ++i) { /* rows */
    const float *d = t + i * 4 * WL;
    float *o = v + i * 4 * vs;
    for (l = 0; l < WL; ++l) {
      float d0 = d[l], d1 = d[WL + l], d2 = d[2 * WL + l], d3 = d[3 * WL + l];
      o[l] = d0 - d2;
      o[vs + l] = d1 + d2;
      o[2 * vs + l] = d2 - d1;
      o[3 * vs + l] = d1 - d3;
    }
  }
}

/* The 2 x 2 outputs A^T M A of 16 channels from M[xi] at m + xi * ms,
 * stored as wino_output stores its 4 x 4 (rows x cols <= 2 x 2). */
static void wino_output2(const float *m, i64 ms, const wino_store *s,
                         float *y, int rows, int cols) {
  float t[8 * WL], o[4 * WL];
  int i, j, l;
  for (j = 0; j < 4; ++j) { /* columns: t[k][j] = (A^T M)[k] over column j */
    const float *c = m + j * ms;
    for (l = 0; l < WL; ++l) {
      float m0 = c[l], m1 = c[4 * ms + l], m2 = c[8 * ms + l],
            m3 = c[12 * ms + l];
      t[j * WL + l] = m0 + m1 + m2;
      t[(4 + j) * WL + l] = m1 - m2 - m3;
    }
  }
  for (i = 0; i < 2; ++i) { /* rows */
    const float *d = t + i * 4 * WL;
    for (l = 0; l < WL; ++l) {
      float m0 = d[l], m1 = d[WL + l], m2 = d[2 * WL + l], m3 = d[3 * WL + l];
      float b = s->bias ? s->bias[l] : 0.0f;
      o[(2 * i) * WL + l] = m0 + m1 + m2 + b;
      o[(2 * i + 1) * WL + l] = m1 - m2 - m3 + b;
    }
  }
  store_scalar(o, 2, s, y, rows, cols);
}

WINO_FILL_LINKAGE void WINO_FILL(onnxc_kernels *k) {
  k->wino_input = wino_input;
  k->wino_output = wino_output;
  k->wino_input2 = wino_input2;
  k->wino_output2 = wino_output2;
}

#undef WL
