/*===- winograd.c - 3 x 3 convolutions as Winograd F(4x4, 3x3), F(2x2, 3x3) =*
 *
 * A stride-1, undilated 3 x 3 convolution of one group computes each 4 x 4
 * block of outputs (a tile) from the 6 x 6 input patch around it in three
 * steps (Lavin and Gray, 2016):
 *   1. the input transform V = B^T d B of every tile and input channel
 *      (the tier's wino_input, 16 channels per call, over the padded input
 *      in channel blocks that the direct path copies too: each chunk of
 *      tiles copies the rows its rows of tiles read, ONNXC_WINOGRAD_ROWS=0
 *      the whole input first);
 *   2. for each of the 36 points xi, the product M_xi[tile, m] =
 *      sum over c of V_xi[tile, c] U_xi[c, m], through the packed GEMM
 *      (gemm.c and the tier's sgemm tile; the AVX-512 6 x 64 conv tile
 *      for 256 input channels and more), U = G g G^T the weights'
 *      transform, computed once per weight tensor and kept;
 *   3. the output transform A^T M A, the bias, the sum with Y, the clamp
 *      (the tier's wino_output), stored into Y.
 * The products take 36 multiplies per 16 outputs and input channel where
 * the direct convolution takes 144: six 64-channel layers at 56 x 56 and
 * six 128-channel ones at 28 x 28 ran twice as fast (docs/performance.md).
 * Maps too small for 16 tiles of 4 x 4, or whose weights' transform would
 * be read at too many bytes a tile, take F(2x2, 3x3) (2 x 2 outputs from
 * 4 x 4 patches, 16 points) on the same terms; else the direct path.
 *
 * The sums are those of the convolution in another arithmetic: results
 * differ from the direct path's by rounding, a few units in the 5th to
 * 6th significant digit for unit-scale data (F(4x4, 3x3)'s error grows
 * with its points 2 and -2; runtime/test/winograd_test.c bounds it). The
 * same call gives the same bits on any number of threads and every tier
 * gives results within that bound of the exact ones.
 *
 * A dilated 3 x 3 whose pads and sides are multiples of its dilation d
 * runs as the undilated convolution of the d^2 phases of its map, batched
 * (winograd_dilated below): U-Net's 256 -> 256 layers of dilation 2 and 4
 * over 16 x 16 maps 3.2 and 2.8 ms -> 1.4 and 1.3 on AVX2.
 *
 * Taken (takes) for compile-time packed weights only
 * (ONNXC_CONV_W_CONST: constants, whose address identifies them for the
 * model library's lifetime; a signature of their values is checked too),
 * input channels a multiple of 16, output channels a multiple of 8 that
 * fill 3/4 of the tier's tiles' columns at least (wide_enough; the output
 * transforms' last block of 8 through a scratch, output_part), at least
 * 16 tiles (variant_of), no fused activation other than a clamp
 * (takes).
 * ONNXC_WINOGRAD=0 turns it off (tests and A/B runs).
 *===----------------------------------------------------------------------===*/

#include "gemm.h"

#include "onnxc/runtime_abi.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define CB ONNXC_CONV_CBLOCK

/* The two algorithms: F(4x4, 3x3) (6 x 6 points, 4 x 4 outputs a tile)
 * and F(2x2, 3x3) (4 x 4 points, 2 x 2 outputs): the second for maps too
 * small for the first's tiles (fewer than 16). G is the weights'
 * transform (patch x 3). */
typedef struct wino_variant {
  int tile, patch, xi; /* outputs and points per side; points */
  double g[6][3];
} wino_variant;
static const wino_variant F4 = {4, 6, 36,
                                {{0.25, 0, 0},
                                 {-1.0 / 6, -1.0 / 6, -1.0 / 6},
                                 {-1.0 / 6, 1.0 / 6, -1.0 / 6},
                                 {1.0 / 24, 1.0 / 12, 1.0 / 6},
                                 {1.0 / 24, -1.0 / 12, 1.0 / 6},
                                 {0, 0, 1}}};
static const wino_variant F2 = {2, 4, 16,
                                {{1, 0, 0},
                                 {0.5, 0.5, 0.5},
                                 {0.5, -0.5, 0.5},
                                 {0, 0, 1}}};

/* ---- Transformed weights ---------------------------------------------- */

/* U_xi = (G g G^T)_xi for every (c, m), packed as v->xi groups of GEMM
 * panels (panel j row c column col holds U_xi[c, j NR + col], zero past
 * m), read from the packed weights, whose panels hold the same 32 output
 * channels in their columns: each step runs over a row of 32 (in double,
 * rounded once; ResNet-18's 14 layers in some 10 ms, where unpacking them
 * and transforming one (m, c) at a time took 43). */
static float *transform_weights(const onnxc_conv2d_params *q, const float *w,
                                const wino_variant *v) {
  const int P = v->patch;
  const int cblock = (q->flags & ONNXC_CONV_W_CBLOCK) != 0;
  i64 c = q->in_channels, m = q->out_channels, kdim = c * 9;
  i64 panels = (m + NR - 1) / NR, xi_stride = panels * c * NR;
  float *u = onnxc_rt_malloc_large(sizeof(float) * (size_t)(v->xi * xi_stride));
  i64 pj, ci;
  if (!u)
    return NULL;
  for (pj = 0; pj < panels; ++pj)
    for (ci = 0; ci < c; ++ci) {
      double t[6][3][NR];
      const float *g[9];
      int a, b, k, col;
      for (k = 0; k < 9; ++k)
        g[k] = w + (pj * kdim + (cblock ? ((ci / CB) * 9 + k) * CB + ci % CB
                                        : ci * 9 + k)) *
                       NR;
      for (a = 0; a < P; ++a)
        for (b = 0; b < 3; ++b)
          for (col = 0; col < NR; ++col)
            t[a][b][col] = v->g[a][0] * g[b][col] + v->g[a][1] * g[3 + b][col] +
                           v->g[a][2] * g[6 + b][col];
      for (a = 0; a < P; ++a)
        for (b = 0; b < P; ++b) {
          float *o = u + (a * P + b) * xi_stride + (pj * c + ci) * NR;
          for (col = 0; col < NR; ++col)
            o[col] = (float)(t[a][0][col] * v->g[b][0] +
                             t[a][1][col] * v->g[b][1] +
                             t[a][2][col] * v->g[b][2]);
        }
    }
  return u;
}

static float *derive_transform(const onnxc_conv2d_params *q, const float *w,
                               const void *arg) {
  return transform_weights(q, w, (const wino_variant *)arg);
}

/* The transformed weights of q's packed weights w, computed on the first
 * call (under the lock: concurrent first calls compute them once), or
 * NULL when there is no memory for them (the caller takes the direct
 * path). */
static const float *weights_for(const onnxc_conv2d_params *q, const float *w,
                                const wino_variant *v) {
  i64 panels = (q->out_channels + NR - 1) / NR;
  return onnxc_rt_kept_weights(q, w, panels * q->in_channels * 9 * NR,
                               v->tile, derive_transform, v);
}

/* ---- The call ----------------------------------------------------------- */

static int enabled(void) {
  static int on = -1;
  return onnxc_rt_env_on("ONNXC_WINOGRAD", &on);
}

static i64 tiles_of(const onnxc_conv2d_params *q, int tile) {
  return q->batch * ((q->out_h + tile - 1) / tile) *
         ((q->out_w + tile - 1) / tile);
}

/* The weights' transform read per tile within this many bytes: a call
 * reads all of it (from L3 or memory, once per chunk of tiles) for its
 * tiles. Six 256 -> 256 layers at 14 x 14 (590 KB a tile of 4 x 4): 7.95
 * ms direct, 6.04 with F(4x4, 3x3), 7.3 with F(2x2, 3x3) (86 KB a tile). */
#define U_BYTES_PER_TILE (640 << 10)

/* F(4x4, 3x3) when its tiles are at least 16 and they read at most
 * U_BYTES_PER_TILE of the transform each; else F(2x2, 3x3) on the same
 * terms (maps of 8 x 8 to 12 x 12); else none (ResNet's 7 x 7 maps of 512
 * channels: 16 tiles of 2 x 2 would read 1 MB each). */
static const wino_variant *variant_of(const onnxc_conv2d_params *q) {
  static const wino_variant *const order[2] = {&F4, &F2};
  double cm = 4.0 * (double)q->in_channels * (double)q->out_channels;
  int i;
  for (i = 0; i < 2; ++i) {
    i64 t = tiles_of(q, order[i]->tile);
    if (t >= 16 && order[i]->xi * cm <= (double)U_BYTES_PER_TILE * (double)t)
      return order[i];
  }
  return NULL;
}

/* Whether m output channels fill at least 3/4 of the columns of the
 * tier's tiles (wino_width) that the products run through: 96 -> 24
 * channels at 160 x 160 (a text detector's head) 18.0 -> 8.4 ms on AVX2
 * and 11.9 -> 7.0 on AVX-512 (24 of 32 columns), where U-Net's 16 -> 16
 * and 48 -> 16 layers ran 15-45% slower than the direct path on AVX-512
 * (16 of 32). */
static int wide_enough(i64 m) {
  const i64 w = onnxc_rt_kernels()->wino_width;
  return m > 0 && 4 * m >= 3 * ((m + w - 1) / w * w);
}

/* The variant that takes this call, or NULL (see the top of the file). */
static const wino_variant *takes(const onnxc_conv2d_params *q) {
  int64_t act = q->flags & ONNXC_CONV_ACT_MASK;
  if (!(enabled() && (q->flags & ONNXC_CONV_W_PACKED) &&
        (q->flags & ONNXC_CONV_W_CONST) &&
        !(q->flags & ONNXC_CONV_X_CBLOCK) && act == 0 && q->groups == 1 &&
        q->kernel_h == 3 && q->kernel_w == 3 && q->stride_h == 1 &&
        q->stride_w == 1 && q->dilation_h == 1 && q->dilation_w == 1 &&
        q->in_channels % CB == 0 && q->out_channels % 8 == 0 &&
        wide_enough(q->out_channels) && q->batch > 0 && q->out_h > 0 &&
        q->out_w > 0 && q->y_strides[4] == 1))
    return NULL;
  return variant_of(q);
}

/* ---- Dilated convolutions as undilated ones ----------------------------
 *
 * A 3 x 3 convolution of dilation d reads, for output (d u + s, d v + t),
 * only input rows and columns of the same phases s and t modulo d when its
 * pads are multiples of d: output phase (s, t) is an undilated 3 x 3
 * convolution of input phase (s, t), an image of every d-th row and column
 * (pads / d around it). With the map's sides multiples of d, the d^2
 * phases are images of one size: a batch of d^2 images per image, one
 * Winograd call over all their tiles (U-Net's 256 -> 256 layers of
 * dilation 4 over 16 x 16 maps: 16 phases of 4 x 4, one tile each; the
 * compiler leaves such a layer whole, passes/ONNX/ConvTaps.cpp). The
 * phases are gathered into a scratch, the outputs scattered back (and Y's
 * values gathered first when the call adds to them): a copy of each map,
 * against 9 C multiply-adds per output. X is read whole before Y is
 * written: Y may be X (ONNXC_CONV_IN_PLACE, a fused Relu's buffer). */

/* The undilated call p over the phases of q (contiguous, images in (n, s,
 * t) order) and the variant that takes it, or NULL where q is not such a
 * call or p is not Winograd's. */
static const wino_variant *dilated_view(const onnxc_conv2d_params *q,
                                        onnxc_conv2d_params *p) {
  const i64 d = q->dilation_h;
  const int padded = (q->flags & ONNXC_CONV_PADDED) != 0;
  const i64 in_h = padded ? q->in_h : q->out_h + 2 * d;
  const i64 in_w = padded ? q->in_w : q->out_w + 2 * d;
  const i64 pt = padded ? q->pad_top : 0, pl = padded ? q->pad_left : 0;
  i64 hs, ws, ohs, ows;
  if (d < 2 || q->dilation_w != d || d > 64 || q->batch <= 0 ||
      q->batch > INT64_MAX / (d * d) || pt < 0 || pl < 0 || pt % d ||
      pl % d || in_h % d || in_w % d || q->out_h % d || q->out_w % d)
    return NULL;
  hs = in_h / d;
  ws = in_w / d;
  ohs = q->out_h / d;
  ows = q->out_w / d;
  *p = *q;
  p->batch = q->batch * d * d;
  p->dilation_h = p->dilation_w = 1;
  /* In place (y is x): x is gathered whole before y is written. */
  p->flags &= ~(int64_t)ONNXC_CONV_IN_PLACE;
  p->in_h = hs;
  p->in_w = ws;
  p->pad_top = pt / d;
  p->pad_left = pl / d;
  p->out_h = ohs;
  p->out_w = ows;
  p->x_strides[4] = 1;
  p->x_strides[3] = ws;
  p->x_strides[2] = hs * ws;
  p->x_strides[1] = p->x_strides[0] = q->in_channels * hs * ws;
  p->y_strides[4] = 1;
  p->y_strides[3] = ows;
  p->y_strides[2] = ohs * ows;
  p->y_strides[1] = p->y_strides[0] = q->out_channels * ohs * ows;
  return takes(p);
}

/* Between a tensor of `ch` channels of rows x cols (strides st) and its
 * d^2 phases in ph, contiguous (images in (n, s, t) order): `from`
 * gathered into ph, or (from NULL) ph scattered into `to`. */
static void phases(const i64 *st, const float *from, float *to, float *ph,
                   i64 batch, i64 ch, i64 rows, i64 cols, i64 d) {
  const i64 hs = rows / d, ws = cols / d, cs = d * st[4];
  i64 n, s, u, c, r, k;
  for (n = 0; n < batch; ++n)
    for (s = 0; s < d; ++s)
      for (u = 0; u < d; ++u)
        for (c = 0; c < ch; ++c)
          for (r = 0; r < hs; ++r) {
            const i64 at =
                n * st[0] + c * st[2] + (d * r + s) * st[3] + u * st[4];
            float *pr =
                ph + (((n * d + s) * d + u) * ch + c) * hs * ws + r * ws;
            if (from)
              for (k = 0; k < ws; ++k)
                pr[k] = from[at + k * cs];
            else
              for (k = 0; k < ws; ++k)
                to[at + k * cs] = pr[k];
          }
}

int onnxc_rt_winograd_takes(const onnxc_conv2d_params *q) {
  onnxc_conv2d_params p;
  return takes(q) != NULL || dilated_view(q, &p) != NULL;
}

typedef struct wino_job {
  const onnxc_kernels *kt;
  const onnxc_conv2d_params *q; /* the call */
  const float *xp;              /* its input padded, in channel blocks, */
  i64 xbs, xrs;                 /* the copy's block and row strides; */
  const onnxc_conv2d_params *wide; /* or NULL: each chunk copies the rows */
  const float *x;                  /* of wide's input x its tiles read */
  const wino_variant *v;
  onnxc_wino_input_fn input;    /* its transforms */
  onnxc_wino_output_fn output;
  const float *u;               /* transformed weights */
  float *y;
  i64 th, tw, tiles, chunk;     /* tiles per column, row, in all; per chunk */
  i64 mparts, mstep;            /* output channels split in parts of mstep */
} wino_job;

/* The identity offsets of the 6 x 64 tile's K: its "windows" are V's
 * rows, read in place. */
#define MAX_K 4096
static i64 identity[MAX_K];
static pthread_once_t identity_once = PTHREAD_ONCE_INIT;
static void fill_identity(void) {
  i64 k;
  for (k = 0; k < MAX_K; ++k)
    identity[k] = k;
}

/* C[r, col] = sum over k < kc of A[r, k] B[k, col] for r < rows and col <
 * 2 NR k-panel pairs of `nw` columns, A's rows rsa apart, C's rsc apart, B
 * packed (panels kc NR apart), through the tier's 6 x 64 convolution tile
 * (conv_tile2: 24 accumulators, where the sgemm tile's 8 x 32 has 16), K in
 * steps whose panels stay in L1, the sums in an aligned scratch copied
 * into C. Returns the columns done: whole pairs of panels whose second has
 * more than NR / 2 columns (the rest is left to the GEMM). Taken for 256
 * input channels and more: six 256 -> 256 layers at 14 x 14 5.2-5.3 ms
 * through the GEMM, 4.65-4.7 through this; with 64 and 128 channels, the
 * copy and the shorter tiles cost more than they save (13% and 7%). */
static i64 products2(const wino_job *j, const float *a, i64 rsa,
                     const float *bp, float *cm, i64 rsc, i64 rows, i64 nw,
                     float *sums) {
  const onnxc_kernels *kt = j->kt;
  i64 kc = j->q->in_channels, col, ir, kb, r;
  if (kc > MAX_K || rows <= 0)
    return 0;
  pthread_once(&identity_once, fill_identity);
  for (col = 0; col + NR < nw && nw - col - NR > NR / 2; col += 2 * NR) {
    i64 nw1 = min64(NR, nw - col - NR);
    const float *panel = bp + (col / NR) * kc * NR;
    for (kb = 0; kb < kc; kb += KSTEP2) {
      i64 kl = min64(KSTEP2, kc - kb);
      int flags = kb > 0 ? ONNXC_TILE2_FROM_S : 0;
      onnxc_pf_span pf;
      onnxc_rt_pf_next_step(&pf, panel, kc * NR, kb, kl, kc, KSTEP2,
                            (rows + kt->conv_mr2 - 1) / kt->conv_mr2);
      onnxc_tile_seq ts = onnxc_rt_tile_seq(rows, kt->conv_mr2);
      for (ir = 0; ir < rows;) {
        i64 n = onnxc_rt_tile_next(&ts);
        const float *xr[16];
        onnxc_rt_pf_some(&pf);
        for (r = 0; r < n; ++r)
          xr[r] = a + (ir + r) * rsa;
        kt->conv_tile2((int)n, kl, xr, identity + kb, panel + kb * NR,
                       kc * NR, sums + ir * 2 * NR, flags);
        ir += n;
      }
    }
    for (r = 0; r < rows; ++r)
      memcpy(cm + r * rsc + col, sums + r * 2 * NR,
             sizeof(float) * (size_t)(NR + nw1));
  }
  return col;
}

/* Tile tt's image n and its first output row and column. */
static void tile_at(const wino_job *j, i64 tt, i64 *n, i64 *oy, i64 *ox) {
  i64 per_image = j->th * j->tw, r = tt % per_image;
  *n = tt / per_image;
  *oy = (r / j->tw) * j->v->tile;
  *ox = (r % j->tw) * j->v->tile;
}

/* The output transform of channels [mb, mb + nb) of a tile, nb < 16 (the
 * last block of a layer whose channels are not a multiple of 16): the
 * tier's transform of 16 channels into a scratch of 16 x 4 x 4 (the bias
 * and, when the store adds to Y, Y's values of the nb channels in it,
 * zeros past them), then the nb channels' rows x cols into Y. */
static void output_part(const wino_job *j, const float *m, i64 ms,
                        const wino_store *s, float *y, i64 nb, int rows,
                        int cols) {
  float tmp[CB * 16], bias[CB];
  wino_store st = *s;
  i64 l;
  int r, c;
  memset(tmp, 0, sizeof tmp);
  st.ycs = 16;
  st.yrs = 4;
  if (s->bias) {
    memset(bias, 0, sizeof bias);
    memcpy(bias, s->bias, (size_t)nb * sizeof(float));
    st.bias = bias;
  }
  if (s->accumulate)
    for (l = 0; l < nb; ++l)
      for (r = 0; r < rows; ++r)
        for (c = 0; c < cols; ++c)
          tmp[l * 16 + r * 4 + c] = y[l * s->ycs + r * s->yrs + c];
  j->output(m, ms, &st, tmp, rows, cols);
  for (l = 0; l < nb; ++l)
    for (r = 0; r < rows; ++r)
      for (c = 0; c < cols; ++c)
        y[l * s->ycs + r * s->yrs + c] = tmp[l * 16 + r * 4 + c];
}

/* Part `chunk` of the call: tiles [t0, t0 + nt) and output channels [m0,
 * m0 + mw): input transforms, the XI products, the output transforms. V
 * and M in scratch, a tile's points together (what its transforms read or
 * write is contiguous; the products read and write rows XI c and XI mp
 * apart, mp = mw rounded up to 16 for the output transforms' blocks):
 * V_xi[t, c] at v + (t XI + xi) c, M_xi[t, m] at mm + (t XI + xi) mp +
 * m - m0. */
static void run_chunk(void *arg, int64_t chunk) {
  const wino_job *j = arg;
  const onnxc_conv2d_params *q = j->q;
  const int XI = j->v->xi, TILE = j->v->tile;
  i64 c = q->in_channels, m = q->out_channels;
  i64 tc = chunk / j->mparts, m0 = (chunk % j->mparts) * j->mstep;
  i64 mw = min64(j->mstep, m - m0), mp = (mw + CB - 1) / CB * CB;
  i64 t0 = tc * j->chunk, nt = min64(j->chunk, j->tiles - t0);
  i64 panels = (m + NR - 1) / NR;
  i64 t, cb, xi, mb, n, oy, ox;
  wino_store s;
  void *raw;
  /* V, M, the 6 x 64 tile's sums (rows x 2 NR, 64-byte aligned) and,
   * without the whole copy, the input rows of one row of tiles (patch
   * rows of each channel block). */
  const i64 rbs = j->xp ? 0 : j->v->patch * j->xrs;
  float *v = onnxc_rt_gemm_alloc_panels(
      XI * nt * (c + mp) + nt * 2 * NR + (c / CB) * rbs, &raw);
  float *mm = v + XI * nt * c, *sums = mm + XI * nt * mp;
  float *rows_buf = sums + nt * 2 * NR;
  i64 row_n = -1, row_oy = -1;
  for (t = 0; t < nt; ++t) {
    const float *xb;
    i64 bs;
    tile_at(j, t0 + t, &n, &oy, &ox);
    if (j->xp) {
      xb = j->xp + n * (c / CB) * j->xbs + oy * j->xrs;
      bs = j->xbs;
    } else {
      if (n != row_n || oy != row_oy) /* a new row of tiles */
        onnxc_rt_sconv2d_pad_cblock_rows(j->wide, j->x, n, oy,
                                         oy + j->v->patch, rows_buf, rbs);
      row_n = n;
      row_oy = oy;
      xb = rows_buf;
      bs = rbs;
    }
    for (cb = 0; cb < c / CB; ++cb)
      j->input(xb + cb * bs + ox * CB, j->xrs, v + t * XI * c + cb * CB, c);
  }
  for (xi = 0; xi < XI; ++xi) {
    block_args b;
    i64 done = j->kt->conv_tile2 && c >= 256 ? products2(j, v + xi * c, XI * c,
                                             j->u + (xi * panels + m0 / NR) *
                                                        c * NR,
                                             mm + xi * mp, XI * mp, nt, mw,
                                             sums)
                                 : 0;
    if (done == mw)
      continue;
    /* The rest (a lone panel), or all on tiers without the 6 x 64 tile. */
    memset(&b, 0, sizeof b);
    b.m = nt;
    b.nc = mw - done;
    b.kc = c;
    b.a = v + xi * c;
    b.rsa = XI * c;
    b.csa = 1;
    b.bp = j->u + (xi * panels + (m0 + done) / NR) * c * NR;
    b.panel_stride = c * NR;
    b.c = mm + xi * mp + done;
    b.rsc = XI * mp;
    b.csc = 1;
    onnxc_rt_gemm_block(j->kt, &b);
  }
  s.accumulate = !(q->flags & ONNXC_CONV_BIAS);
  s.clamp = (q->flags & ONNXC_CONV_CLAMP) != 0;
  s.lo = q->clamp_lo;
  s.hi = q->clamp_hi;
  s.ycs = q->y_strides[2];
  s.yrs = q->y_strides[3];
  for (t = 0; t < nt; ++t) {
    int rows, cols;
    tile_at(j, t0 + t, &n, &oy, &ox);
    rows = (int)min64(TILE, q->out_h - oy);
    cols = (int)min64(TILE, q->out_w - ox);
    for (mb = m0; mb < m0 + mw; mb += CB) {
      const float *mt = mm + t * XI * mp + mb - m0;
      float *yt = j->y + n * q->y_strides[0] + mb * q->y_strides[2] +
                  oy * q->y_strides[3] + ox;
      /* The bias with ONNXC_CONV_BIAS (written) or ONNXC_CONV_BIAS_ADD
       * (added with Y's value: the transform adds it, the store Y). */
      s.bias = (q->flags & (ONNXC_CONV_BIAS | ONNXC_CONV_BIAS_ADD)) && q->bias
                   ? q->bias + mb
                   : NULL;
      if (m0 + mw - mb >= CB)
        j->output(mt, mp, &s, yt, rows, cols);
      else
        output_part(j, mt, mp, &s, yt, m0 + mw - mb, rows, cols);
    }
  }
  onnxc_rt_free_scratch(raw);
}

/* The rows of a row of tiles copied by the chunks that read them within
 * this many bytes (see run). */
#define ROWS_BYTES (512 << 10)

static int rows_enabled(void) {
  static int on = -1;
  return onnxc_rt_env_on("ONNXC_WINOGRAD_ROWS", &on);
}

/* V and M of a chunk within this many bytes (L2), with at least 16 tiles
 * (the GEMM's rows) and at most 64. */
#define CHUNK_BYTES (1 << 20)

static long calls[2]; /* F(4x4, 3x3), F(2x2, 3x3) */

long onnxc_rt_winograd_calls(int tile) {
  return __atomic_load_n(&calls[tile == 4 ? 0 : 1], __ATOMIC_RELAXED);
}

/* The call q through variant v over the transformed weights u. */
static void run(const onnxc_conv2d_params *q, const wino_variant *v,
                const float *u, const float *x, float *y) {
  const onnxc_kernels *kt = onnxc_rt_kernels();
  const int XI = v->xi, TILE = v->tile;
  onnxc_conv2d_params wide, padded;
  wino_job j;
  void *raw;
  i64 chunks;
  double flop;
  int threads;
  /* The padded copy in channel blocks over whole tiles: the rows and
   * columns of an output of th x tw tiles (zeros past the input). */
  wide = *q;
  if (!(q->flags & ONNXC_CONV_PADDED)) {
    wide.flags |= ONNXC_CONV_PADDED;
    wide.pad_top = wide.pad_left = 0;
    wide.in_h = q->out_h + 2;
    wide.in_w = q->out_w + 2;
  }
  j.th = (q->out_h + TILE - 1) / TILE;
  j.tw = (q->out_w + TILE - 1) / TILE;
  wide.out_h = j.th * TILE;
  wide.out_w = j.tw * TILE;
  j.tiles = tiles_of(q, TILE);
  j.chunk = CHUNK_BYTES / (4 * XI * (q->in_channels + q->out_channels));
  j.chunk = j.chunk < 16 ? 16 : j.chunk > 64 ? 64 : j.chunk;
  chunks = (j.tiles + j.chunk - 1) / j.chunk;
  /* Chunks of equal size (64 tiles in 28 + 28 + 8 left a thread the 8). */
  j.chunk = (j.tiles + chunks - 1) / chunks;
  flop = 2.0 * XI * (double)j.tiles * (double)q->in_channels *
         (double)q->out_channels;
  threads = onnxc_rt_threads_for(flop);
  /* Too few chunks of tiles for the threads (a 14 x 14 map is one): the
   * output channels split too, in whole panels, each part reading its
   * panels of the transformed weights (and transforming its tiles' input
   * again). Each element's sum is the same on any split. */
  j.mparts = 1;
  if (threads > 1 && chunks < 2 * threads) {
    i64 panels = (q->out_channels + NR - 1) / NR;
    j.mparts = (2 * threads + chunks - 1) / chunks;
    j.mparts = j.mparts > panels ? panels : j.mparts;
  }
  j.mstep = ((q->out_channels + NR * j.mparts - 1) / (NR * j.mparts)) * NR;
  j.mparts = (q->out_channels + j.mstep - 1) / j.mstep;
  chunks *= j.mparts;
  /* The padded copy in channel blocks: each chunk copies the rows of its
   * rows of tiles where they fit in ROWS_BYTES (the copy read back from
   * L2), else the whole input is copied first (written to and read back
   * from memory: 8-10% of U-Net's run on AVX2). In place (Y is X), the
   * whole input is copied before any chunk writes Y. */
  raw = NULL;
  j.wide = NULL;
  j.x = x;
  if (rows_enabled() && !(q->flags & ONNXC_CONV_IN_PLACE) &&
      4.0 * (double)q->in_channels * (double)v->patch *
                                (double)(wide.out_w + 2) <=
                            ROWS_BYTES) {
    j.xp = NULL;
    j.wide = &wide;
    j.xbs = 0;
    j.xrs = (wide.out_w + 2) * CB;
  } else {
    j.xp = onnxc_rt_sconv2d_pad_cblock(&wide, x, &padded, &raw, threads);
    j.xbs = padded.x_strides[2];
    j.xrs = padded.x_strides[3];
  }
  j.kt = kt;
  j.v = v;
  j.input = TILE == 4 ? kt->wino_input : kt->wino_input2;
  j.output = TILE == 4 ? kt->wino_output : kt->wino_output2;
  j.q = q;
  j.u = u;
  j.y = y;
  onnxc_rt_parallel_for(chunks, threads, run_chunk, &j);
  onnxc_rt_free_scratch(raw);
  __atomic_add_fetch(&calls[TILE == 4 ? 0 : 1], 1, __ATOMIC_RELAXED);
}

/* q of dilation > 1 through its phases (dilated_view), or 0 (not such a
 * call, or no memory for the transformed weights: the direct path). */
static int winograd_dilated(const onnxc_conv2d_params *q, const float *x,
                            const float *w, float *y) {
  const i64 d = q->dilation_h;
  const int padded = (q->flags & ONNXC_CONV_PADDED) != 0;
  onnxc_conv2d_params p;
  const wino_variant *v = dilated_view(q, &p);
  const float *u = v ? weights_for(&p, w, v) : NULL;
  float *xp, *yp;
  void *xraw, *yraw;
  if (!u)
    return 0;
  xp = onnxc_rt_alloc_scratch(p.batch * p.x_strides[0], &xraw);
  yp = onnxc_rt_alloc_scratch(p.batch * p.y_strides[0], &yraw);
  phases(q->x_strides, x, NULL, xp, q->batch, q->in_channels,
         padded ? q->in_h : q->out_h + 2 * d,
         padded ? q->in_w : q->out_w + 2 * d, d);
  /* Y's values start the sums (no ONNXC_CONV_BIAS). */
  if (!(q->flags & ONNXC_CONV_BIAS))
    phases(q->y_strides, y, NULL, yp, q->batch, q->out_channels, q->out_h,
           q->out_w, d);
  run(&p, v, u, xp, yp);
  phases(q->y_strides, NULL, y, yp, q->batch, q->out_channels, q->out_h,
         q->out_w, d);
  onnxc_rt_free_scratch(yraw);
  onnxc_rt_free_scratch(xraw);
  return 1;
}

int onnxc_rt_winograd(const onnxc_conv2d_params *q, const float *x,
                      const float *w, float *y) {
  const wino_variant *v = takes(q);
  const float *u;
  if (!v)
    return winograd_dilated(q, x, w, y);
  u = weights_for(q, w, v);
  if (!u)
    return 0;
  run(q, v, u, x, y);
  return 1;
}
