/*===- qdriver.h - The int8 drivers' shared helpers -------------------------===*
 *
 * Not part of any API (hidden symbols): what qgemm.c (the tier, the
 * product, DynamicQuantizeLinear, these helpers) and qconv.c (the
 * convolution) share.
 *===----------------------------------------------------------------------===*/
#ifndef ONNXC_RUNTIME_KERNELS_QDRIVER_H
#define ONNXC_RUNTIME_KERNELS_QDRIVER_H

#include "qgemm.h"

#include <stddef.h>
#include <stdint.h>

typedef int64_t i64;

static inline i64 min64(i64 a, i64 b) { return a < b ? a : b; }
static inline i64 max64(i64 a, i64 b) { return a > b ? a : b; }
static inline i64 ceil_div(i64 a, i64 b) { return (a + b - 1) / b; }

/* How many parts a call of `ops` multiply-adds may use, and how many
 * parts per thread to cut it into. */
#define PARTS_PER_THREAD 4

/* The products of `rows` rows of the rows side (row r at a + r * lda) by
 * the panels of `ncols` columns (panel j at bp + j * pstride), tile after
 * tile. c is element (0, 0) of the output (rows rsc elements apart); the
 * epilogue's row arrays start at row 0, its column arrays at column 0.
 * (A 6 x 64 tile over two panels was no faster on Zen 5 once the 8 x 32
 * tile broadcast its rows into a register.) */
typedef struct mm_args {
  i64 k4;
  const int8_t *a;
  i64 lda;
  const uint8_t *bp;
  i64 pstride, rows, ncols;
  uint8_t *c;
  i64 rsc;
  size_t osize;
  qepi ep;
} mm_args;


/* 64-byte aligned scratch from the models' allocator (alloc.c keeps large
 * blocks for the next call); release with onnxc_rt_qfree(*raw). */
ONNXC_HIDDEN void *onnxc_rt_qalloc(i64 bytes, void **raw);
ONNXC_HIDDEN void onnxc_rt_qfree(void *raw);
/* Zero point i of an int8 (is_signed) or uint8 array, 0 without one. */
ONNXC_HIDDEN int32_t onnxc_rt_qzp_at(const void *zp, int is_signed, i64 i);
/* The rows side: dst[r][0, kp) = (int8)(src[r * ld + q] ^ flip) for q < k,
 * 0 past k; sums[r] their sum. */
ONNXC_HIDDEN void onnxc_rt_qpack_rows(const uint8_t *src, i64 rows, i64 k,
                                      i64 ld, uint8_t flip, int8_t *dst,
                                      i64 kp, int32_t *sums);
/* The epilogue fields that do not depend on the tile. */
ONNXC_HIDDEN void onnxc_rt_qepi_base(const onnxc_qparams *q, int ch_row,
                                     qepi *ep);
/* Per output channel c < channels: the float multiplier of the epilogue
 * and the float bias (F32 with a bias). */
ONNXC_HIDDEN void onnxc_rt_qchannel_scales(const onnxc_qparams *q,
                                           i64 channels, float *scale,
                                           float *fbias);
/* The requantization's int32 bias of channel c, or 0. */
ONNXC_HIDDEN int32_t onnxc_rt_qint_bias(const onnxc_qparams *q, i64 c);
/* Bytes per output element. */
ONNXC_HIDDEN size_t onnxc_rt_qout_size(const onnxc_qparams *q);
ONNXC_HIDDEN void onnxc_rt_qmultiply(const qgemm_isa *isa, const mm_args *x);

/* One int8 convolution call (qconv.c; qconv_direct.c's path). */
typedef struct qconv_job {
  const onnxc_qconv2d_params *p;
  const qgemm_isa *isa;
  const uint8_t *x;
  const int8_t *w; /* packed rows: groups * out_channels x kp */
  int hwc; /* w's rows in (kh, kw, c) order (ONNXC_Q_W_HWC) */
  uint8_t *y;
  i64 k, k4, kp, npos, blocks, msplit, mstep;
  i64 nc; /* positions per block (depthwise: channels per part) */
  uint8_t xflip, pad; /* the input's stored bytes: x ^ xflip; the padding */
  int need_cb;
  size_t osize;
  qepi base;
  const int32_t *radd, *rmul; /* per output channel */
  const float *scale, *bias;
  uint8_t *shared; /* msplit > 1: every block's panels and column sums */
} qconv_job;

/* The direct path (qconv_direct.c): 1 when it takes the call, which it
 * then runs on `threads` threads. */
ONNXC_HIDDEN int onnxc_rt_qconv_direct(const qconv_job *j, int threads);
/* For tests: how many calls the direct path took so far. */
ONNXC_HIDDEN int64_t onnxc_rt_qconv_direct_taken(void);

#endif
