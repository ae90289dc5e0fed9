/*===- gemm.c - fp32 matrix products for generated code ------------------===*
 *
 * The compiler replaces fp32 linalg contractions (matmul, batch matmul,
 * transposed operands) by calls to the functions here
 * (onnxc-linalg-to-ukernel; runtime_abi.h has the contract). They are the
 * classic packed GEMM: B is copied, one K x NC block at a time, into panels
 * of ONNXC_SGEMM_PANEL columns (a constant B arrives packed from the
 * compiler), and a register-blocked kernel multiplies MR rows of A, read in
 * place and broadcast, by one panel. The convolutions (conv.c) run their
 * products through the same block driver (gemm.h).
 *
 * This file is the ISA-independent driver: the blocking, the packing
 * loops. The microkernels (the tile of the packed GEMM, the products with
 * few rows of the tier's gemv, the vector copies) are called through the
 * kernel table of the tier chosen at run time (kernels/dispatch.h), so a
 * library built for a generic x86-64 CPU still uses AVX-512 or AVX2 where
 * they exist; elsewhere the portable C kernels over the same packed
 * layouts run. ONNXC_ISA=portable|avx2|avx512 picks a tier (for tests).
 *===----------------------------------------------------------------------===*/

#include "gemm.h"

#include "onnxc/runtime_abi.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The activation over rows x cols results, rows rs apart, columns cs
 * apart: the tier's act_row along unit strides, else element by element. */
void onnxc_rt_gemm_act_block(const onnxc_kernels *kt, float *c, i64 rows,
                             i64 cols, i64 rs, i64 cs, const act_ep *a) {
  i64 i, j;
  /* Rows one after the other: one long row (a row of a 7 x 7 map alone is
   * a single short vector). */
  if ((cs == 1 && rs == cols) || (rs == 1 && cs == rows)) {
    kt->act_row(c, rows * cols, a);
  } else if (cs == 1) {
    for (i = 0; i < rows; ++i)
      kt->act_row(c + i * rs, cols, a);
  } else if (rs == 1) {
    for (j = 0; j < cols; ++j)
      kt->act_row(c + j * cs, rows, a);
  } else {
    for (i = 0; i < rows; ++i)
      for (j = 0; j < cols; ++j)
        c[i * rs + j * cs] = act_scalar(c[i * rs + j * cs], a);
  }
}

/* The tile_ep of the tile at row `r0` and column `c0` of a block, or NULL
 * for none; the activation in it when the tier's tiles apply it. */
static const tile_ep *block_ep(const onnxc_kernels *kt, const block_args *x,
                               i64 r0, i64 c0, tile_ep *ep) {
  const act_ep *act = kt->tile_act ? x->act : NULL;
  if (!x->clamp && !act &&
      (x->accumulate || (!x->row_bias && !x->col_bias)))
    return NULL;
  ep->row_bias = x->row_bias ? x->row_bias + r0 : NULL;
  ep->col_bias = x->col_bias ? x->col_bias + c0 : NULL;
  ep->clamp = x->clamp;
  ep->lo = x->lo;
  ep->hi = x->hi;
  ep->act = act;
  return ep;
}

/* One tile of onnxc_rt_gemm_block: rows [ir, ir + rows) of the block, columns
 * [j, j + NR). */
static void run_tile(const onnxc_kernels *kt, const block_args *x, i64 ir,
                     i64 rows, i64 j) {
  i64 nw = min64(NR, x->nc - j);
  const float *a = x->a + (x->a_group ? ir / 8 * x->a_group : ir * x->rsa);
  tile_ep ep;
  if (x->b_in_place)
    kt->sgemm_tile_strided((int)rows, x->kc, a, x->rsa,
                           x->csa, x->b_in_place + j, x->ldb,
                           x->c + ir * x->rsc + j * x->csc, x->rsc, x->csc,
                           nw, x->accumulate, block_ep(kt, x, ir, j, &ep));
  else
    kt->sgemm_tile((int)rows, x->kc, a, x->rsa, x->csa,
                   x->bp + (j / NR) * x->panel_stride,
                   x->c + ir * x->rsc + j * x->csc, x->rsc, x->csc, nw,
                   x->accumulate, block_ep(kt, x, ir, j, &ep));
  if (x->act && !kt->tile_act)
    onnxc_rt_gemm_act_block(kt, x->c + ir * x->rsc + j * x->csc, rows, nw, x->rsc, x->csc,
              x->act);
}

/* Whether the blocks prefetch their next panel (ONNXC_GEMM_PREFETCH=0:
 * not; A/B runs). */
static int panel_prefetch_on(void) {
  static int on = -1;
  return onnxc_rt_env_on("ONNXC_GEMM_PREFETCH", &on);
}

/* Blocks at most this deep run a row tile across all the block's panels
 * before the next rows (see onnxc_rt_gemm_block). */
#define ROWS_FIRST_KC 64

/* A block through the tier's tile: MC rows of A (L2) against one panel
 * (L1) at a time, in tiles of at most sgemm_mr rows and of equal heights
 * (32 rows in tiles of 6: 6, 6, 5, 5, 5, 5, not five of 6 and one of 2,
 * whose 4 FMA chains would wait on the FMA latency). A tile sums each
 * element as any other does, so the tiling changes no result. */
void onnxc_rt_gemm_block(const onnxc_kernels *kt, const block_args *x) {
  i64 ic, ir, j, mr = kt->sgemm_mr;
  for (ic = 0; ic < x->m; ic += MC) {
    i64 mc = min64(MC, x->m - ic);
    /* Shallow blocks (a 1 x 1 convolution of 8 to 64 input channels over a
     * large map): C is written faster than it is computed, and a panel at
     * a time writes all mc rows of C at once (32 streams of 128 bytes per
     * panel), which the prefetchers do not follow when C is not in cache
     * (its lines are read for ownership one miss at a time). One row tile
     * across all the panels writes `rows` long runs instead: 16 -> 96
     * channels over 112 x 112 with caches flushed before each call, 925
     * -> 589 us (docs/performance.md); in cache, unchanged. The packed block is read once per
     * row tile from L2 instead of L1. Each element's sum is the same. */
    if (x->kc <= ROWS_FIRST_KC) {
      onnxc_tile_seq ts = onnxc_rt_tile_seq(mc, mr);
      for (ir = 0; ir < mc;) {
        i64 rows = onnxc_rt_tile_next(&ts);
        for (j = 0; j < x->nc; j += NR)
          run_tile(kt, x, ic + ir, rows, j);
        ir += rows;
      }
      continue;
    }
    for (j = 0; j < x->nc; j += NR) {
      /* The next panel into L2, a share before each row tile (packed
       * weights, read from L3 or memory on their first tile). */
      onnxc_pf_span pf;
      if (!x->b_in_place && j + NR < x->nc && panel_prefetch_on())
        onnxc_rt_pf_start(&pf, x->bp + (j / NR + 1) * x->panel_stride, NULL,
                          x->kc, (mc + mr - 1) / mr);
      else
        onnxc_rt_pf_none(&pf);
      onnxc_tile_seq ts = onnxc_rt_tile_seq(mc, mr);
      for (ir = 0; ir < mc;) {
        i64 rows = onnxc_rt_tile_next(&ts);
        onnxc_rt_pf_some(&pf);
        run_tile(kt, x, ic + ir, rows, j);
        ir += rows;
      }
    }
  }
}

/* ---- Packing ---------------------------------------------------------- */

/* Bp <- B[0:kc, 0:nc] as panels of kc x NR, zero padded past nc. */
void onnxc_rt_gemm_pack_b(const onnxc_kernels *kt, const float *b, i64 rsb,
                          i64 csb, i64 kc, i64 nc, float *bp) {
  i64 j, p, col;
  if (csb == 1) {
    kt->pack_rows(b, rsb, kc, nc, bp);
    return;
  }
  if (rsb == 1) {
    /* B transposed in memory (a Gemm's transB weights when they are not
     * constants, e.g. a training state's): each column is contiguous. */
    kt->pack_cols(b, csb, kc, nc, bp);
    return;
  }
  for (j = 0; j < nc; j += NR) {
    i64 nw = min64(NR, nc - j);
    for (p = 0; p < kc; ++p)
      for (col = 0; col < NR; ++col)
        bp[p * NR + col] = col < nw ? b[p * rsb + (j + col) * csb] : 0.0f;
    bp += kc * NR;
  }
}

/* A convolution's scratch (padded input, padded plane, packed input
 * panels): 64-byte aligned, from the models' allocator (alloc.c), which
 * keeps a large freed block for the next call of the same size instead of
 * letting glibc unmap it and the next call fault it in again. Released
 * with onnxc_rt_free_scratch(*raw). */
float *onnxc_rt_alloc_scratch(int64_t floats, void **raw) {
  uintptr_t p;
  *raw = _mlir_memref_to_llvm_alloc((size_t)floats * sizeof(float) + 64);
  if (!*raw)
    onnxc_rt_fail(ONNXC_ERROR_OUT_OF_MEMORY,
                  "out of memory for a convolution's scratch buffer");
  p = ((uintptr_t)*raw + 63u) & ~(uintptr_t)63u;
  return (float *)p;
}

void onnxc_rt_free_scratch(void *raw) {
  if (raw)
    _mlir_memref_to_llvm_free(raw);
}

/* The product's packing buffers: scratch from the models' allocator, so
 * that a call failing while they are held (a failed allocation after
 * them) releases them with the rest of the call (alloc.c's arena). */
float *onnxc_rt_gemm_alloc_panels(i64 floats, void **raw) {
  return onnxc_rt_alloc_scratch(floats, raw);
}

/* C = the epilogue alone (an empty K): the bias or zeros, or C itself
 * when accumulating, then the clamp. */
static void fill_c(i64 m, i64 n, float *c, i64 rsc, i64 csc, int accumulate,
                   const tile_ep *ep) {
  i64 i, j;
  for (i = 0; i < m; ++i)
    for (j = 0; j < n; ++j) {
      float *dst = c + i * rsc + j * csc;
      *dst = tile_ep_scalar(0.0f, *dst, accumulate, ep, i, j);
    }
}

/* The tile_ep of onnxc_rt_sgemm_ep's flags and operands, or NULL. */
static const tile_ep *sgemm_ep(int32_t flags, const float *bias, float lo,
                               float hi, tile_ep *ep) {
  if (!(flags & (ONNXC_SGEMM_BIAS_ROW | ONNXC_SGEMM_BIAS_COL |
                 ONNXC_SGEMM_CLAMP)))
    return NULL;
  ep->row_bias = (flags & ONNXC_SGEMM_BIAS_ROW) ? bias : NULL;
  ep->col_bias = (flags & ONNXC_SGEMM_BIAS_COL) ? bias : NULL;
  ep->clamp = (flags & ONNXC_SGEMM_CLAMP) != 0;
  ep->lo = lo;
  ep->hi = hi;
  ep->act = NULL;
  return ep;
}

/* onnxc_rt_sgemm_ep on this thread (parallel.c splits the calls). */
void onnxc_rt_sgemm_ep_serial(int64_t m, int64_t n, int64_t k, const float *a,
                              int64_t rsa, int64_t csa, const float *b,
                              int64_t rsb, int64_t csb, float *c, int64_t rsc,
                              int64_t csc, int32_t flags, const float *bias,
                              float lo, float hi) {
  const onnxc_kernels *kt = onnxc_rt_kernels();
  int packed = (flags & ONNXC_SGEMM_B_PACKED) != 0;
  /* A bias replaces C's contents. */
  int accumulate = (flags & ONNXC_SGEMM_ACCUMULATE) &&
                   !(flags & (ONNXC_SGEMM_BIAS_ROW | ONNXC_SGEMM_BIAS_COL));
  tile_ep ep_storage;
  const tile_ep *ep = sgemm_ep(flags, bias, lo, hi, &ep_storage);
  void *raw = NULL;
  float *buf = NULL;
  i64 jc, pc;
  if (m <= 0 || n <= 0)
    return;
  if (k <= 0) {
    fill_c(m, n, c, rsc, csc, accumulate, ep);
    return;
  }
  /* Few rows or columns: the tier's gemv kernels. */
  if (kt->sgemm_small &&
      kt->sgemm_small(m, n, k, a, rsa, csa, b, rsb, csb, packed, c, rsc, csc,
                      accumulate, ep))
    return;
  if (!packed)
    buf = onnxc_rt_gemm_alloc_panels(KC * min64(NC, (n + NR - 1) / NR * NR), &raw);
  for (jc = 0; jc < n; jc += NC) {
    i64 nc = min64(NC, n - jc);
    for (pc = 0; pc < k; pc += KC) {
      block_args x;
      memset(&x, 0, sizeof x);
      x.kc = min64(KC, k - pc);
      if (packed) {
        /* Whole-K panels: panel j of the block starts at row pc. */
        x.bp = b + (jc / NR) * k * NR + pc * NR;
        x.panel_stride = k * NR;
      } else {
        onnxc_rt_gemm_pack_b(kt, b + pc * rsb + jc * csb, rsb, csb, x.kc, nc, buf);
        x.bp = buf;
        x.panel_stride = x.kc * NR;
      }
      x.m = m;
      x.nc = nc;
      x.a = a + pc * csa;
      x.rsa = rsa;
      x.csa = csa;
      x.c = c + jc * csc;
      x.rsc = rsc;
      x.csc = csc;
      /* The bias with the first K block, the clamp with the last. */
      x.accumulate = accumulate || pc > 0;
      x.row_bias = ep && pc == 0 ? ep->row_bias : NULL;
      x.col_bias = ep && pc == 0 && ep->col_bias ? ep->col_bias + jc : NULL;
      x.clamp = ep && ep->clamp && pc + x.kc == k;
      x.lo = lo;
      x.hi = hi;
      x.act = NULL;
      onnxc_rt_gemm_block(kt, &x);
    }
  }
  onnxc_rt_free_scratch(raw);
}

void onnxc_rt_sgemm(int64_t m, int64_t n, int64_t k, const float *a,
                    int64_t rsa, int64_t csa, const float *b, int64_t rsb,
                    int64_t csb, float *c, int64_t rsc, int64_t csc,
                    int32_t flags) {
  onnxc_rt_sgemm_ep(m, n, k, a, rsa, csa, b, rsb, csb, c, rsc, csc,
                    flags & (ONNXC_SGEMM_ACCUMULATE | ONNXC_SGEMM_B_PACKED),
                    NULL, 0.0f, 0.0f);
}

/* onnxc_rt_sgemm_batched_ep on this thread (parallel.c splits). */
void onnxc_rt_sgemm_batched_ep_serial(
    int64_t batch, int64_t m, int64_t n, int64_t k, const float *a,
    int64_t sba, int64_t rsa, int64_t csa, const float *b, int64_t sbb,
    int64_t rsb, int64_t csb, float *c, int64_t sbc, int64_t rsc, int64_t csc,
    int32_t flags, const float *bias, float lo, float hi) {
  i64 i;
  /* A batch over rows of A and C against one B is one taller product
   * (unless a bias per row has to start again with every product). */
  if (batch > 1 && sbb == 0 && sba == m * rsa && sbc == m * rsc &&
      !(flags & ONNXC_SGEMM_BIAS_ROW)) {
    onnxc_rt_sgemm_ep_serial(batch * m, n, k, a, rsa, csa, b, rsb, csb, c,
                             rsc, csc, flags, bias, lo, hi);
    return;
  }
  for (i = 0; i < batch; ++i)
    onnxc_rt_sgemm_ep_serial(m, n, k, a + i * sba, rsa, csa, b + i * sbb,
                             rsb, csb, c + i * sbc, rsc, csc, flags, bias, lo,
                             hi);
}

void onnxc_rt_sgemm_batched(int64_t batch, int64_t m, int64_t n, int64_t k,
                            const float *a, int64_t sba, int64_t rsa,
                            int64_t csa, const float *b, int64_t sbb,
                            int64_t rsb, int64_t csb, float *c, int64_t sbc,
                            int64_t rsc, int64_t csc, int32_t flags) {
  onnxc_rt_sgemm_batched_ep(
      batch, m, n, k, a, sba, rsa, csa, b, sbb, rsb, csb, c, sbc, rsc, csc,
      flags & (ONNXC_SGEMM_ACCUMULATE | ONNXC_SGEMM_B_PACKED), NULL, 0.0f,
      0.0f);
}

