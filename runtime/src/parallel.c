/*===- parallel.c - The kernels' entry points, split over threads ---------===*
 *
 * onnxc_rt_sgemm_ep, onnxc_rt_sgemm_batched_ep and onnxc_rt_sconv2d
 * (runtime_abi.h; gemm.c's onnxc_rt_sgemm and onnxc_rt_sgemm_batched call
 * the first two) as generated code calls them: a call large enough to pay
 * for a parallel region (onnxc_rt_threads_for) is split into parts that
 * write disjoint parts of the output, and the pool (threads.c) runs the
 * one-thread kernels of gemm.c on each. Every output element is computed
 * by the same operations in the same order as on one thread, so results do
 * not depend on the thread count.
 *
 * A part is a range of whole units: 32-column panels (128 columns for
 * products of at most 4 rows) or 8-row tiles of a product, products of a
 * batch, images, groups, 32-channel panels or output rows of a
 * convolution. A call is cut into about CHUNKS_PER_THREAD parts per thread,
 * taken by the threads as they come free, so that a thread that is
 * descheduled (the machine is shared) or slower holds up the others by one
 * small part, not half the work.
 *===----------------------------------------------------------------------===*/

#include "internal.h"
#include "kernels/dispatch.h"

#include <stdint.h>


#define NR ONNXC_SGEMM_PANEL /* columns of a packed panel */
/* Rows of a part of a product come in multiples of 8 (the AVX-512 tile's
 * height): every tier's tiles sum each element alike whatever their height
 * and position (kernels/dispatch.h), so any unit keeps the results. */
#define MR 8
/* The gemv kernels' groups of columns start at multiples of this. */
#define SMALL_GROUP (4 * NR)
#define CHUNKS_PER_THREAD 4

static i64 ceil_div(i64 a, i64 b) { return (a + b - 1) / b; }

/* A split of `len` elements (rows, columns, images, ...) into `chunks`
 * ranges of whole units of `unit` elements, each of at least `min_units`
 * units, as even as whole units make them: range c starts at unit
 * c * full / chunks of the `full` whole units, and the last range also
 * takes the partial unit at the end. So no range is a small tail (the
 * kernels take other paths, with other rounding, for products of a few
 * rows or columns), and none is much longer than the others: a last range
 * of up to twice the others' length, as an earlier split gave it, kept one
 * thread busy alone for most of a range (a 28-row map in bands of 5,
 * 5 + 5 + 8 rows on one thread against 5 + 5 on the other). About
 * `per_thread` ranges a thread, a multiple of the thread count when there
 * are more ranges than threads. */
typedef struct range_split {
  i64 len, unit, full, chunks;
} range_split;

static i64 split(i64 len, i64 unit, i64 min_units, int threads,
                 int per_thread, range_split *s) {
  i64 chunks;
  s->len = len;
  s->unit = unit;
  s->full = len / unit < 1 ? 1 : len / unit;
  chunks = min64(s->full / (min_units < 1 ? 1 : min_units),
                 (i64)threads * per_thread);
  if (chunks > threads)
    chunks -= chunks % threads;
  s->chunks = chunks < 1 ? 1 : chunks;
  return s->chunks;
}

/* The first element of range `chunk` and its length (split). */
static i64 range_start(const range_split *s, int64_t chunk) {
  return chunk * s->full / s->chunks * s->unit;
}
static i64 range_len(const range_split *s, int64_t chunk) {
  return (chunk == s->chunks - 1 ? s->len : range_start(s, chunk + 1)) -
         range_start(s, chunk);
}

/* ---- Matrix products -------------------------------------------------- */

typedef struct sgemm_job {
  i64 m, n, k;
  const float *a;
  i64 rsa, csa;
  const float *b;
  i64 rsb, csb;
  float *c;
  i64 rsc, csc;
  int32_t flags;
  const float *bias;
  float lo, hi;
  int by_rows;   /* rows of A and C, else columns of B and C */
  range_split r; /* of the rows or columns */
} sgemm_job;

static void sgemm_chunk(void *p, int64_t chunk) {
  const sgemm_job *j = p;
  i64 lo = range_start(&j->r, chunk);
  if (j->by_rows) {
    i64 rows = range_len(&j->r, chunk);
    const float *bias =
        j->bias && (j->flags & ONNXC_SGEMM_BIAS_ROW) ? j->bias + lo : j->bias;
    onnxc_rt_sgemm_ep_serial(rows, j->n, j->k, j->a + lo * j->rsa, j->rsa,
                             j->csa, j->b, j->rsb, j->csb, j->c + lo * j->rsc,
                             j->rsc, j->csc, j->flags, bias, j->lo, j->hi);
  } else {
    /* A packed B is a sequence of whole-K panels: columns from lo (a
     * multiple of the panel) start at panel lo / NR. */
    i64 cols = range_len(&j->r, chunk);
    const float *b = (j->flags & ONNXC_SGEMM_B_PACKED)
                         ? j->b + (lo / NR) * j->k * NR
                         : j->b + lo * j->csb;
    const float *bias =
        j->bias && (j->flags & ONNXC_SGEMM_BIAS_COL) ? j->bias + lo : j->bias;
    onnxc_rt_sgemm_ep_serial(j->m, cols, j->k, j->a, j->rsa, j->csa, b,
                             j->rsb, j->csb, j->c + lo * j->csc, j->rsc,
                             j->csc, j->flags, bias, j->lo, j->hi);
  }
}

/* The product on `threads` threads (> 1): by columns when there are panels
 * enough for every thread (each part then packs or reads only its columns
 * of B), else by rows (each part packs all of B, which is then narrow).
 * Products of at most 4 rows (or, B not packed, columns) go to the gemv
 * kernels (kernels/gemv_*.c), which take columns (rows) in groups that
 * start at multiples of 128 and sum each one alike: their parts are whole
 * groups, so that every element sums in the same order as on one thread. */
static int sgemm_split(i64 m, i64 n, i64 k, const float *a, i64 rsa, i64 csa,
                       const float *b, i64 rsb, i64 csb, float *c, i64 rsc,
                       i64 csc, int32_t flags, const float *bias, float lo,
                       float hi, int threads) {
  sgemm_job j;
  int packed = (flags & ONNXC_SGEMM_B_PACKED) != 0;
  i64 col_unit = m <= 4 ? SMALL_GROUP : NR;
  i64 row_unit = n <= 4 && !packed ? SMALL_GROUP : MR;
  i64 cols = ceil_div(n, col_unit), rows = ceil_div(m, row_unit);
  j.m = m;
  j.n = n;
  j.k = k;
  j.a = a;
  j.rsa = rsa;
  j.csa = csa;
  j.b = b;
  j.rsb = rsb;
  j.csb = csb;
  j.c = c;
  j.rsc = rsc;
  j.csc = csc;
  j.flags = flags;
  j.bias = bias;
  j.lo = lo;
  j.hi = hi;
  if (cols >= 2 * (i64)threads || (cols >= threads && rows < cols)) {
    j.by_rows = 0;
    split(n, col_unit, 1, threads, CHUNKS_PER_THREAD, &j.r);
  } else if (rows >= threads) {
    /* Every part packs all of a B that is not packed already: one part
     * per thread then. */
    j.by_rows = 1;
    split(m, row_unit, 1, threads, packed ? CHUNKS_PER_THREAD : 1, &j.r);
  } else {
    return 0;
  }
  onnxc_rt_parallel_for(j.r.chunks, threads, sgemm_chunk, &j);
  return 1;
}

/* A packed B (the compiler's constant, one global: ceil(n / NR) panels of
 * k x NR floats), copied once into 2 MiB pages and kept when large, as
 * the convolutions' weights (kept.c). Only at the public entry points: a
 * kept copy passed on to them again would be copied again. */
static const float *kept_b(i64 n, i64 k, const float *b, int32_t flags) {
  if (!(flags & ONNXC_SGEMM_B_PACKED) || n <= 0 || k <= 0)
    return b;
  return (const float *)onnxc_rt_kept_bytes(
      b, sizeof(float) * (size_t)(ceil_div(n, NR) * k * NR));
}

/* onnxc_rt_sgemm_ep over a B already kept. */
static void sgemm_ep(i64 m, i64 n, i64 k, const float *a, i64 rsa, i64 csa,
                     const float *b, i64 rsb, i64 csb, float *c, i64 rsc,
                     i64 csc, int32_t flags, const float *bias, float lo,
                     float hi) {
  int threads = m > 0 && n > 0 && k > 0
                    ? onnxc_rt_threads_for(2.0 * (double)m * (double)n *
                                           (double)k)
                    : 1;
  if (threads > 1 && sgemm_split(m, n, k, a, rsa, csa, b, rsb, csb, c, rsc,
                                 csc, flags, bias, lo, hi, threads))
    return;
  onnxc_rt_sgemm_ep_serial(m, n, k, a, rsa, csa, b, rsb, csb, c, rsc, csc,
                           flags, bias, lo, hi);
}

void onnxc_rt_sgemm_ep(int64_t m, int64_t n, int64_t k, const float *a,
                       int64_t rsa, int64_t csa, const float *b, int64_t rsb,
                       int64_t csb, float *c, int64_t rsc, int64_t csc,
                       int32_t flags, const float *bias, float lo, float hi) {
  sgemm_ep(m, n, k, a, rsa, csa, kept_b(n, k, b, flags), rsb, csb, c, rsc, csc,
           flags, bias, lo, hi);
}

typedef struct batched_job {
  i64 m, n, k;
  const float *a;
  i64 sba, rsa, csa;
  const float *b;
  i64 sbb, rsb, csb;
  float *c;
  i64 sbc, rsc, csc;
  int32_t flags;
  const float *bias;
  float lo, hi;
  range_split r; /* of the products */
} batched_job;

static void batched_chunk(void *p, int64_t chunk) {
  const batched_job *j = p;
  i64 lo = range_start(&j->r, chunk);
  onnxc_rt_sgemm_batched_ep_serial(
      range_len(&j->r, chunk), j->m, j->n, j->k,
      j->a + lo * j->sba, j->sba, j->rsa, j->csa, j->b + lo * j->sbb, j->sbb,
      j->rsb, j->csb, j->c + lo * j->sbc, j->sbc, j->rsc, j->csc, j->flags,
      j->bias, j->lo, j->hi);
}

void onnxc_rt_sgemm_batched_ep(int64_t batch, int64_t m, int64_t n, int64_t k,
                               const float *a, int64_t sba, int64_t rsa,
                               int64_t csa, const float *b, int64_t sbb,
                               int64_t rsb, int64_t csb, float *c,
                               int64_t sbc, int64_t rsc, int64_t csc,
                               int32_t flags, const float *bias, float lo,
                               float hi) {
  int threads =
      batch > 0 && m > 0 && n > 0 && k > 0
          ? onnxc_rt_threads_for(2.0 * (double)batch * (double)m *
                                 (double)n * (double)k)
          : 1;
  i64 i;
  if (sbb == 0)
    b = kept_b(n, k, b, flags);
  if (threads <= 1) {
    onnxc_rt_sgemm_batched_ep_serial(batch, m, n, k, a, sba, rsa, csa, b,
                                     sbb, rsb, csb, c, sbc, rsc, csc, flags,
                                     bias, lo, hi);
    return;
  }
  /* Products over rows of A and C against one B are one taller product
   * (as gemm.c does it, unless a bias per row starts again with every
   * product): split that. */
  if (batch > 1 && sbb == 0 && sba == m * rsa && sbc == m * rsc &&
      !(flags & ONNXC_SGEMM_BIAS_ROW)) {
    sgemm_ep(batch * m, n, k, a, rsa, csa, b, rsb, csb, c, rsc, csc, flags,
             bias, lo, hi);
    return;
  }
  if (batch >= threads) {
    batched_job j;
    j.m = m;
    j.n = n;
    j.k = k;
    j.a = a;
    j.sba = sba;
    j.rsa = rsa;
    j.csa = csa;
    j.b = b;
    j.sbb = sbb;
    j.rsb = rsb;
    j.csb = csb;
    j.c = c;
    j.sbc = sbc;
    j.rsc = rsc;
    j.csc = csc;
    j.flags = flags;
    j.bias = bias;
    j.lo = lo;
    j.hi = hi;
    split(batch, 1, 1, threads, CHUNKS_PER_THREAD, &j.r);
    onnxc_rt_parallel_for(j.r.chunks, threads, batched_chunk, &j);
    return;
  }
  /* Fewer products than threads: each one split. */
  for (i = 0; i < batch; ++i)
    sgemm_ep(m, n, k, a + i * sba, rsa, csa, b + i * sbb, rsb, csb,
             c + i * sbc, rsc, csc, flags, bias, lo, hi);
}

/* ---- Convolutions ----------------------------------------------------- */

enum conv_split { BY_IMAGES, BY_GROUPS, BY_CHANNELS, BY_ROWS };

typedef struct conv_job {
  const onnxc_conv2d_params *q;
  const float *x, *w;
  float *y;
  enum conv_split by;
  range_split r; /* of the images, groups, channels or rows */
} conv_job;

static void conv_chunk(void *p, int64_t chunk) {
  const conv_job *j = p;
  const onnxc_conv2d_params *q = j->q;
  onnxc_conv2d_params part = *q;
  const float *x = j->x, *w = j->w;
  float *y = j->y;
  int packed = (q->flags & ONNXC_CONV_W_PACKED) != 0;
  i64 lo = range_start(&j->r, chunk);
  i64 count = range_len(&j->r, chunk);
  i64 kdim = q->in_channels * q->kernel_h * q->kernel_w;
  switch (j->by) {
  case BY_IMAGES:
    part.batch = count;
    x += lo * q->x_strides[0];
    y += lo * q->y_strides[0];
    break;
  case BY_GROUPS:
    /* Packed weights: [groups][panels][K][32] (runtime_abi.h). */
    part.groups = count;
    x += lo * q->x_strides[1];
    y += lo * q->y_strides[1];
    w += packed ? lo * ceil_div(q->out_channels, NR) * kdim * NR
                : lo * q->w_strides[0];
    if (part.bias)
      part.bias += lo * q->out_channels;
    break;
  case BY_CHANNELS:
    /* One group; lo is a multiple of the panel. */
    part.out_channels = count;
    y += lo * q->y_strides[2];
    w += packed ? (lo / NR) * kdim * NR : lo * q->w_strides[1];
    if (part.bias)
      part.bias += lo;
    break;
  case BY_ROWS:
    onnxc_rt_sconv2d_rows(q, lo, count, &part, &x, &y);
    break;
  }
  onnxc_rt_sconv2d_serial(&part, x, w, y);
}

/* How evenly `units` split into parts of whole units over `threads`
 * threads: the share of the threads' time that is busy, 1 at best. */
static double balance(i64 units, int threads) {
  return (double)units / (double)(threads * ceil_div(units, threads));
}

/* The convolution on `threads` threads (> 1), its input padded already
 * unless the kernel reads around the padding itself. Images, then groups
 * (depthwise convolutions have one per channel), then within one image
 * and group the channel panels or the rows, whichever splits more evenly
 * (a 7 x 7 map with 256 channels: the channels; a 56 x 56 map with 64: the
 * rows). Rows share the weights, channels the input. A band of rows has at
 * least MIN_BAND output positions: the kernel works on tiles of 8
 * positions, and a part's last tile is mostly empty. */
#define MIN_BAND 128
static void conv_split(const onnxc_conv2d_params *q, const float *x,
                       const float *w, float *y, int threads) {
  conv_job j;
  i64 panels = ceil_div(q->out_channels, NR);
  i64 band = ceil_div(MIN_BAND, q->out_w); /* rows */
  j.q = q;
  j.x = x;
  j.w = w;
  j.y = y;
  i64 len = 0;
  if (q->batch >= threads) {
    j.by = BY_IMAGES;
    len = q->batch;
  } else if (q->groups >= threads) {
    j.by = BY_GROUPS;
    len = q->groups;
  } else if (q->groups == 1 && panels >= threads &&
             /* A last panel of at most ONNXC_DW_GROUPED_MAX channels would
              * take the depthwise path (depthwise.c), the whole call not. */
             q->in_channels > ONNXC_DW_GROUPED_MAX &&
             (q->out_h < band * threads ||
              balance(panels, threads) > balance(q->out_h, threads))) {
    j.by = BY_CHANNELS;
    len = q->out_channels;
  } else if (q->out_h >= band * threads &&
             !(q->flags & ONNXC_CONV_IN_PLACE)) {
    /* Not in place: a band would overwrite input rows that the next
     * band's windows still read (runtime_abi.h). */
    j.by = BY_ROWS;
    len = q->out_h;
  }
  if (len == 0) {
    onnxc_rt_sconv2d_serial(q, x, w, y);
    return;
  }
  /* Channels go by panels (packed weights are panels), at least two a
   * part on tiers with two-panel tiles (conv_tile2: 5-8% over one panel
   * at a time) when there are two for every thread (else the threads
   * would not all get a part: SqueezeNet's 64-channel layers on two
   * threads ran on one, 12% slower), rows by bands of at least `band`
   * rows. */
  split(len, j.by == BY_CHANNELS ? NR : 1,
        j.by == BY_ROWS ? band
        : j.by == BY_CHANNELS && onnxc_rt_kernels()->conv_tile2 &&
                panels >= 2 * threads
            ? 2
            : 1,
        threads, CHUNKS_PER_THREAD, &j.r);
  onnxc_rt_parallel_for(j.r.chunks, threads, conv_chunk, &j);
}

static void sconv2d(const onnxc_conv2d_params *q, const float *x,
                    const float *w, float *y);

void onnxc_rt_sconv2d(const onnxc_conv2d_params *q, const float *x,
                      const float *w, float *y) {
  /* The compiler's packed constant weights of a 3 x 3 convolution: the
   * Winograd path (winograd.c), which splits its own work. Only here:
   * weights the runtime packs below are scratch, never a key of its
   * transformed weights. */
  if (onnxc_rt_winograd(q, x, w, y))
    return;
  sconv2d(q, x, onnxc_rt_kept_copy(q, w), y);
}

static void sconv2d(const onnxc_conv2d_params *q, const float *x,
                    const float *w, float *y) {
  double flop = 2.0 * (double)q->batch * (double)q->groups *
                (double)q->out_channels * (double)q->out_h *
                (double)q->out_w * (double)q->in_channels *
                (double)q->kernel_h * (double)q->kernel_w;
  int threads = q->batch > 0 && q->groups > 0 && q->out_channels > 0 &&
                        q->out_h > 0 && q->out_w > 0
                    ? onnxc_rt_threads_for(flop)
                    : 1;
  if (threads <= 1) {
    onnxc_rt_sconv2d_serial(q, x, w, y);
    return;
  }
  if (onnxc_rt_sconv2d_packs_weights(q)) {
    /* Weights the kernel would pack: once here, not per part (and the
     * decision on the whole call's shape, the same for every part). */
    onnxc_conv2d_params packed;
    void *raw;
    const float *wp = onnxc_rt_sconv2d_pack_weights(q, w, &packed, &raw);
    sconv2d(&packed, x, wp, y);
    onnxc_rt_free_scratch(raw);
    return;
  }
  if (onnxc_rt_sconv2d_pads_input(q)) {
    /* The kernel would pad the input into a copy: once here, not per part
     * (a band needs its rows and the rows around them, a panel of channels
     * all of them), itself split by rows. The copy is read in full before
     * y is written, as an in-place call needs. */
    onnxc_conv2d_params padded;
    void *raw;
    const float *xp = onnxc_rt_sconv2d_pad_input(q, x, &padded, &raw, threads);
    conv_split(&padded, xp, w, y, threads);
    onnxc_rt_sconv2d_free_input(raw);
    return;
  }
  conv_split(q, x, w, y, threads);
}
