/*===- gemm.h - The packed-GEMM driver shared by gemm.c and conv.c -------===*
 *
 * Internal to the runtime: the blocking of the packed GEMM (gemm.c) that
 * the convolutions (conv.c) also run their 1 x 1 and im2col products
 * through. Not part of the ABI (runtime_abi.h is).
 *===----------------------------------------------------------------------===*/

#ifndef ONNXC_RUNTIME_GEMM_H
#define ONNXC_RUNTIME_GEMM_H

#include "kernels/dispatch.h"

#define KC 256  /* depth of a packed block */
#define NC 1024 /* columns of a packed block (a multiple of NR) */
#define MC 128  /* rows of A swept per panel (L2 resident) */

/* The K step of two-panel tiles (conv_tile2; conv_igemm.c's indirect GEMM
 * within a KCI block, winograd.c's products): its weights, 2 x KSTEP2 x NR floats
 * (24 KiB), stay in L1 while the positions pass, the partial sums wait in
 * a scratch of rows x 2 NR. Against whole-KCI tiles, 8-11% on 3 x 3
 * convolutions of 64 to 512 channels (bench/conv_cblock.c, Intel Xeon with
 * AVX-512: their weights came from L2 at 4 lines per k); steps of 72 to
 * 144 within 3%. */
#define KSTEP2 96

/* tile_ep (what a tile store does besides writing A * B) is in
 * kernels/common.h. */

/* A block: C[m x nc] (+)= A[m x kc] * Bp, Bp holding ceil(nc / NR) panels of
 * kc x NR floats, panel_stride floats apart. `row_bias` and `col_bias`
 * (when not accumulating; relative to the block's first row and column)
 * and the clamp as in tile_ep. */
typedef struct block_args {
  i64 m, nc, kc;
  const float *a;
  i64 rsa, csa;
  const float *bp;
  i64 panel_stride;
  float *c;
  i64 rsc, csc;
  int accumulate;
  const float *row_bias, *col_bias;
  int clamp;
  float lo, hi;
  const act_ep *act; /* the last K block's activation (tiles or act_block), or NULL */
  /* Non-NULL: B read in place instead of bp (the tier's
   * sgemm_tile_strided), row k of column j at b_in_place[k ldb + j]; nc a
   * multiple of NR (32 readable floats per panel row). */
  const float *b_in_place;
  i64 ldb;
  /* Non-zero: A in micro-panels of 8 rows (row r, column k at
   * a[(r / 8) a_group + k csa + r % 8], csa 8, rsa 1): every tile then
   * starts at a multiple of 8 rows (m a multiple of 8, 8-row tiles). */
  i64 a_group;
} block_args;

/* Whether the convolutions' K steps prefetch the next step's weights
 * (onnxc_rt_pf_start; conv_igemm.c, winograd.c), and the two-panel blocks
 * their output before conv_store2 (conv_igemm.c): on unless
 * ONNXC_CONV_PREFETCH=0 (A/B runs). */
int onnxc_rt_conv_prefetch_on(void);

/* The next K step's weights (rows of one or two packed panels: 128 bytes
 * a row) prefetched into L2 while the current step runs, `per` lines
 * before each of its `tiles` tiles. In a network's layers of many weights
 * and few positions (ResNet's 7 x 7 maps of 512 channels: 9.4 MB for 49
 * positions) the weights come from L3 or memory; a step's tiles read them
 * from L1. All of them prefetched by the step's first tile waited on the
 * line fill buffers (docs/performance.md, twentieth session). */
typedef struct onnxc_pf_span {
  const char *p[2];
  i64 lines, done, per;
} onnxc_pf_span;

/* Nothing to prefetch: no next step (or prefetching off). */
static inline void onnxc_rt_pf_none(onnxc_pf_span *s) {
  s->p[0] = s->p[1] = NULL;
  s->lines = s->done = s->per = 0;
}

/* `rows` rows of the panel at a (and of the one at b, when not NULL), over
 * `tiles` tiles. */
static inline void onnxc_rt_pf_start(onnxc_pf_span *s, const float *a,
                                     const float *b, i64 rows, i64 tiles) {
  s->p[0] = (const char *)a;
  s->p[1] = (const char *)b;
  s->lines = rows * (i64)(NR * sizeof(float) / 64);
  s->done = 0;
  s->per = (s->lines + tiles - 1) / (tiles > 0 ? tiles : 1);
}

/* The K step after [kb, kb + kl) of a block of kc taken in steps of
 * kstep: its rows of the panel at `panel` (and of the one `pstride` floats
 * on, when pstride > 0), over `tiles` tiles; nothing when [kb, kb + kl)
 * is the last step or ONNXC_CONV_PREFETCH=0. */
static inline void onnxc_rt_pf_next_step(onnxc_pf_span *s, const float *panel,
                                         i64 pstride, i64 kb, i64 kl, i64 kc,
                                         i64 kstep, i64 tiles) {
  i64 next = kb + kl;
  if (next < kc && onnxc_rt_conv_prefetch_on())
    onnxc_rt_pf_start(s, panel + next * NR,
                      pstride > 0 ? panel + pstride + next * NR : NULL,
                      kc - next < kstep ? kc - next : kstep, tiles);
  else
    onnxc_rt_pf_none(s);
}

/* The share of one tile (a prefetch past the weights does not fault). */
static inline void onnxc_rt_pf_some(onnxc_pf_span *s) {
  i64 i;
  for (i = 0; i < s->per && s->done < s->lines; ++i, ++s->done) {
    __builtin_prefetch(s->p[0] + s->done * 64, 0, 2);
    if (s->p[1])
      __builtin_prefetch(s->p[1] + s->done * 64, 0, 2);
  }
}

/* The tiles of n rows, at most mr each, of equal heights (32 rows in
 * tiles of 6: 6, 6, 5, 5, 5, 5, not five of 6 and one of 2): tile t has
 * base + 1 rows for t < extra, base after. The two divisions are made
 * once per block, not per tile (two idiv a tile were 1-2% of a 3 -> 64
 * stem's time). */
typedef struct onnxc_tile_seq {
  i64 base, extra, t;
} onnxc_tile_seq;

static inline onnxc_tile_seq onnxc_rt_tile_seq(i64 n, i64 mr) {
  onnxc_tile_seq s;
  i64 tiles = n > 0 ? (n + mr - 1) / mr : 1;
  s.base = n > 0 ? n / tiles : 0;
  s.extra = n > 0 ? n % tiles : 0;
  s.t = 0;
  return s;
}

/* The height of the next tile. */
static inline i64 onnxc_rt_tile_next(onnxc_tile_seq *s) {
  return s->base + (s->t++ < s->extra ? 1 : 0);
}

/* A block through the tier's tile (gemm.c). */
void onnxc_rt_gemm_block(const onnxc_kernels *kt, const block_args *x);

/* Bp <- B[0:kc, 0:nc] as panels of kc x NR, zero padded past nc. */
void onnxc_rt_gemm_pack_b(const onnxc_kernels *kt, const float *b, i64 rsb,
                          i64 csb, i64 kc, i64 nc, float *bp);

/* The activation `a` over rows x cols results (rs, cs apart). */
void onnxc_rt_gemm_act_block(const onnxc_kernels *kt, float *c, i64 rows,
                             i64 cols, i64 rs, i64 cs, const act_ep *a);

/* `floats` floats of scratch, 64-byte aligned (onnxc_rt_alloc_scratch). */
float *onnxc_rt_gemm_alloc_panels(i64 floats, void **raw);

#endif
