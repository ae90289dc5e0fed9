/*===- conv_chain.c - Chained convolutions in bands of rows --------------===*
 *
 * onnxc_rt_sconv2d_chain (runtime_abi.h): convolutions each of whose
 * output is the next one's input (the compiler makes one call of such
 * calls in a row: a MobileNet block's 1 x 1 expansion, its depthwise
 * 3 x 3 and its 1 x 1 projection). Run one after the other, each writes
 * its whole output through the caches to memory and the next reads it
 * back: at 96 channels of 112 x 112 (4.8 MB, more than L2) both are bound
 * by memory, not by their arithmetic.
 *
 * Here a run of them whose maps in between are large goes in bands of the
 * last one's output rows: each band first has the calls before it compute
 * the rows of their outputs it reads (and those they read, back to the
 * first of the run), which are then still in cache when the next call of
 * the band reads them. A map in between that nothing reads after the
 * chain (ONNXC_CONV_CHAIN_DEAD, the compiler's word) is never written
 * whole: its rows go to a scratch of one band and a window's overlap,
 * from which the next call reads them, and the rows no later window reads
 * are dropped. Such a
 * scratch is also how a depthwise convolution that writes its input's
 * buffer (ONNXC_CONV_IN_PLACE: a fused Clip writing back) runs in a band:
 * its output is dead, so it writes the scratch, never its input.
 *
 * Every call is the same convolution over bands of rows
 * (onnxc_rt_sconv2d_rows, and the input or output moved to a scratch), as
 * parallel.c splits a call over threads: each element of every output is
 * the same sum as in the whole calls, on any number of threads (no
 * Winograd call runs in bands). A call runs in a band only when the
 * buffers it writes overlap none that another call of the band reads or
 * writes.
 *===----------------------------------------------------------------------===*/

#include "gemm.h"

#include "onnxc/runtime_abi.h"

#include <stdint.h>
#include <string.h>

/* Bytes of one band row of every map of a run (the last call's output
 * rows, and the rows of the maps before it that they read): a band of
 * them stays in L2 with the weights. Same-run A/B on an Intel Xeon
 * (Sapphire Rapids), MobileNetV2's first blocks: 128 KiB (bands of one to
 * three rows) took twice as long as the calls one by one; 512 KiB gained
 * 9-12% where the maps are 1.6 to 4.8 MB. */
#define CHAIN_BAND_BYTES (512 << 10)
/* Fewest output rows of the last call per band: below, each call's fixed
 * costs (its packing, a strip's first rows) outweigh the gain. */
#define CHAIN_BAND_MIN_ROWS 8
/* Every call's rows are computed in ranges that start at a multiple of
 * this many rows and end at one or at the last row: the depthwise
 * kernels' row chunks (dw_rows: 2 or 4 rows at a time, with other partial
 * sums than a lone row) then fall as in the whole call. */
#define CHAIN_ROW_ALIGN 4
/* A map in between at least this large links two calls into a banded
 * run (a smaller one stays in L2 whole between the two calls). */
#define CHAIN_MIN_BYTES ONNXC_CONV_CHAIN_MIN_BYTES

static int chain_enabled(void) {
  static int on = -1;
  return onnxc_rt_env_on("ONNXC_CONV_CHAIN", &on);
}

/* One call of a chain: its operands (the compiler's) and flags; the rows
 * of its output computed so far (`done`); with a scratch, rows [base,
 * done) of its output in it, `cap` rows per channel. */
typedef struct link {
  const onnxc_conv2d_params *q;
  const float *x, *w;
  float *y;
  int64_t flags;
  i64 done, base, cap;
  float *scratch;
  void *raw;
  int dw_block; /* the tier's dw_block takes the whole call */
} link;

/* The first and one past the last input rows of q's output rows [lo, hi)
 * (in the input, before clamping to it). */
static i64 first_row(const onnxc_conv2d_params *q, i64 lo) {
  i64 r = lo * q->stride_h;
  return (q->flags & ONNXC_CONV_PADDED) ? r - q->pad_top : r;
}
static i64 rows_needed(const onnxc_conv2d_params *q, i64 hi) {
  return first_row(q, hi - 1) + (q->kernel_h - 1) * q->dilation_h + 1;
}

/* Bytes of one output row of q (all channels; one image). */
static double row_bytes(const onnxc_conv2d_params *q) {
  return 4.0 * (double)(q->groups * q->out_channels) * (double)q->out_w;
}

/* Output rows flat (each row out_w floats after the last), as a scratch
 * holds them. */
static int y_flat(const onnxc_conv2d_params *q) {
  return q->y_strides[4] == 1 && q->y_strides[3] == q->out_w;
}

/* The bytes [*lo, *hi) that elements of sizes[d] x strides[d] from p
 * span; 0 when a stride is negative (not banded then). */
static int extent(const float *p, const i64 *sizes, const i64 *strides,
                  uintptr_t *lo, uintptr_t *hi) {
  i64 last = 0;
  int d;
  for (d = 0; d < 4; ++d) {
    if (sizes[d] <= 0 || strides[d] < 0)
      return 0;
    last += (sizes[d] - 1) * strides[d];
  }
  *lo = (uintptr_t)p;
  *hi = (uintptr_t)(p + last + 1);
  return 1;
}

/* The bytes call c reads from x, or writes to y (0: unknown). */
static int x_extent(const link *c, uintptr_t *lo, uintptr_t *hi) {
  const onnxc_conv2d_params *q = c->q;
  i64 sizes[4];
  sizes[0] = q->groups;
  sizes[1] = q->in_channels;
  if (q->flags & ONNXC_CONV_PADDED) {
    sizes[2] = q->in_h;
    sizes[3] = q->in_w;
  } else {
    sizes[2] = rows_needed(q, q->out_h);
    sizes[3] = (q->out_w - 1) * q->stride_w + (q->kernel_w - 1) * q->dilation_w + 1;
  }
  return extent(c->x, sizes, q->x_strides + 1, lo, hi);
}
static int y_extent(const link *c, uintptr_t *lo, uintptr_t *hi) {
  const onnxc_conv2d_params *q = c->q;
  i64 sizes[4];
  sizes[0] = q->groups;
  sizes[1] = q->out_channels;
  sizes[2] = q->out_h;
  sizes[3] = q->out_w;
  return extent(c->y, sizes, q->y_strides + 1, lo, hi);
}

/* Whether call i's output goes to a scratch in a run that goes on after
 * it: nothing reads it after the chain, its rows are flat, and the call
 * overwrites it (ONNXC_CONV_BIAS; a call that starts from Y's values, a
 * fused residual Add, must read them where they are). */
static int to_scratch(const link *c) {
  return (c->flags & ONNXC_CONV_CHAIN_DEAD) && y_flat(c->q) &&
         (c->q->flags & ONNXC_CONV_BIAS);
}

/* A grouped convolution of several channels per group (ResNeXt's 32
 * groups of 8): the depthwise kernels make one pass per input channel,
 * and in bands each pass pads its rows again (ResNeXt 4-16% slower). */
static int few_per_group(const onnxc_conv2d_params *q) {
  return q->groups > 1 && q->in_channels > 1;
}

/* Whether call b can follow call a (which writes what b reads) in a
 * banded run: one image, a large map in between that b reads with a's row
 * stride; a call that writes its input's buffer only into a scratch (so
 * a, if in place, must go to one; b's own output is checked when the run
 * grows past it); neither a Winograd call (whose tiles would start at
 * each band's first row: other sums than the whole call's) nor a grouped
 * one of several channels per group. */
static int linked(const link *a, const link *b) {
  const onnxc_conv2d_params *p = a->q, *q = b->q;
  return p->batch == 1 && q->batch == 1 && a->y == b->x && p->out_h > 1 &&
         q->out_h > 1 && p->y_strides[3] == q->x_strides[3] &&
         (!(p->flags & ONNXC_CONV_IN_PLACE) || to_scratch(a)) &&
         (!(q->flags & ONNXC_CONV_IN_PLACE) ||
          ((q->flags & ONNXC_CONV_PADDED) && q->in_channels == 1 &&
           q->out_channels == 1)) &&
         row_bytes(p) * (double)p->out_h >= CHAIN_MIN_BYTES &&
         !onnxc_rt_winograd_takes(p) && !onnxc_rt_winograd_takes(q) &&
         !few_per_group(p) && !few_per_group(q);
}

/* Whether the buffers calls [first, last] write (each call's output but
 * those going to scratches; the last's always) overlap no buffer another
 * call of the run reads or writes: the run's input (x of first), and the
 * outputs written. In bands, a call writes while the others still read
 * and write (one by one, a buffer planner may have given a later call the
 * memory of an input dead by then). */
static int apart(const link *c, i64 first, i64 last) {
  uintptr_t lo[ONNXC_CONV_CHAIN_MAX + 1], hi[ONNXC_CONV_CHAIN_MAX + 1];
  int n = 0, a, b;
  i64 i;
  if (!x_extent(&c[first], &lo[n], &hi[n]))
    return 0;
  ++n;
  for (i = first; i <= last; ++i) {
    if (i < last && to_scratch(&c[i]))
      continue;
    if (!y_extent(&c[i], &lo[n], &hi[n]))
      return 0;
    ++n;
  }
  for (a = 1; a < n; ++a)
    for (b = 0; b < a; ++b)
      if (lo[a] < hi[b] && lo[b] < hi[a])
        return 0;
  return 1;
}

/* Call i over output rows [lo, hi): its input from the scratch of call
 * i - 1 when that has one (rows [base, done) of it), its output into its
 * own scratch when it has one (row lo at row lo - base of it). */
static void run_rows(link *c, i64 first, i64 i, i64 lo, i64 hi) {
  link *l = &c[i];
  const onnxc_conv2d_params *q = l->q;
  onnxc_conv2d_params part;
  const float *x = l->x;
  float *y = l->y;
  onnxc_rt_sconv2d_rows(q, lo, hi - lo, &part, &x, &y);
  /* A depthwise call whose rows the tier's dw_block does not take keeps
   * the per-channel kernel over a band too (dw_block takes short maps). */
  if (!l->dw_block)
    part.flags |= ONNXC_CONV_DW_NO_BLOCK;
  if (i > first && c[i - 1].scratch) {
    const link *p = &c[i - 1];
    i64 plane = p->cap * p->q->out_w;
    part.x_strides[2] = plane;
    part.x_strides[1] = q->in_channels * plane;
    part.x_strides[0] = q->groups * part.x_strides[1];
    if (q->flags & ONNXC_CONV_PADDED) {
      /* Row r of the input is row r - base of the scratch. */
      part.pad_top += p->base;
      part.in_h -= p->base;
      x = p->scratch;
    } else {
      x = p->scratch + (first_row(q, lo) - p->base) * q->x_strides[3];
    }
    /* (y is not x any more.) */
    part.flags &= ~(int64_t)ONNXC_CONV_IN_PLACE;
  }
  if (l->scratch) {
    i64 plane = l->cap * q->out_w;
    part.y_strides[2] = plane;
    part.y_strides[1] = q->out_channels * plane;
    part.y_strides[0] = q->groups * part.y_strides[1];
    y = l->scratch + (lo - l->base) * q->out_w;
    part.flags &= ~(int64_t)ONNXC_CONV_IN_PLACE;
  }
  onnxc_rt_sconv2d(&part, x, l->w, y);
}

/* Rows [c[i].done, rows) of call i's output, after the rows of its input
 * they read (calls first..i - 1 of the run). A scratch first drops the
 * rows the next call no longer reads. */
static void ensure(link *c, i64 first, i64 i, i64 rows) {
  link *l = &c[i];
  rows = (rows + CHAIN_ROW_ALIGN - 1) / CHAIN_ROW_ALIGN * CHAIN_ROW_ALIGN;
  if (rows > l->q->out_h)
    rows = l->q->out_h;
  if (rows <= l->done)
    return;
  if (i > first)
    ensure(c, first, i - 1, rows_needed(l->q, rows));
  if (l->scratch) {
    const onnxc_conv2d_params *q = l->q;
    /* The next call's windows from its next row on. */
    i64 keep = first_row(c[i + 1].q, c[i + 1].done), ch, plane;
    if (keep < l->base)
      keep = l->base;
    if (keep > l->done)
      keep = l->done;
    plane = l->cap * q->out_w;
    /* Each time (the rows kept are a window's overlap, a few): the band's
     * rows stay at the scratch's start, the scratch within L2. */
    if (keep > l->base) {
      for (ch = 0; ch < q->groups * q->out_channels; ++ch)
        memmove(l->scratch + ch * plane,
                l->scratch + ch * plane + (keep - l->base) * q->out_w,
                (size_t)((l->done - keep) * q->out_w) * sizeof(float));
      l->base = keep;
    }
    /* (cap holds a band's rows with the rows kept: run_bands.) */
    if (rows - l->base > l->cap)
      onnxc_rt_fail(ONNXC_ERROR_RUNTIME,
                    "convolution chain: a band outgrew its scratch");
  }
  run_rows(c, first, i, l->done, rows);
  l->done = rows;
}

/* Calls [first, last] (linked, apart) in bands of call last's output
 * rows [lo, hi) (all of them, or a thread's part when every map in
 * between goes to a scratch). */
static void run_bands(link *c, i64 first, i64 last, i64 lo, i64 hi) {
  i64 band_rows[ONNXC_CONV_CHAIN_MAX];
  double per = 0.0, scale = 1.0;
  i64 i, band, r;
  /* Bytes per band row of the last call: its row, and each earlier map's
   * rows that one row of it reads (strides multiply going back). */
  for (i = last; i >= first; --i) {
    per += row_bytes(c[i].q) * scale;
    scale *= (double)c[i].q->stride_h;
  }
  band = (i64)(CHAIN_BAND_BYTES / per);
  if (band < CHAIN_BAND_MIN_ROWS)
    band = CHAIN_BAND_MIN_ROWS;
  band = (band + CHAIN_ROW_ALIGN - 1) / CHAIN_ROW_ALIGN * CHAIN_ROW_ALIGN;
  /* Each call's rows per band (the most a band of the next one reads),
   * and a scratch of them plus the rows kept from the band before; each
   * call starts at the first row the part's windows read. */
  band_rows[last - first] = band;
  c[last].done = lo;
  for (i = last - 1; i >= first; --i) {
    const onnxc_conv2d_params *next = c[i + 1].q;
    i64 reads = (band_rows[i + 1 - first] + CHAIN_ROW_ALIGN - 1) *
                    next->stride_h +
                (next->kernel_h - 1) * next->dilation_h + CHAIN_ROW_ALIGN;
    i64 start = first_row(next, c[i + 1].done);
    band_rows[i - first] = reads;
    start = start < 0 ? 0 : start / CHAIN_ROW_ALIGN * CHAIN_ROW_ALIGN;
    c[i].done = c[i].base = start;
    if (to_scratch(&c[i])) {
      c[i].cap = min64(c[i].q->out_h,
                       reads + next->kernel_h * next->dilation_h +
                           2 * CHAIN_ROW_ALIGN);
      c[i].scratch = onnxc_rt_alloc_scratch(
          c[i].q->groups * c[i].q->out_channels * c[i].cap * c[i].q->out_w,
          &c[i].raw);
    }
  }
  for (r = lo; r < hi; r += band)
    ensure(c, first, last, min64(r + band, hi));
  /* Rows no later window reads (a stride-2 map's last) of the outputs
   * that stay (one part: lo = 0). */
  for (i = first; i < last; ++i)
    if (!c[i].scratch)
      ensure(c, first, i, c[i].q->out_h);
  for (i = first; i <= last; ++i)
    if (c[i].scratch) {
      onnxc_rt_free_scratch(c[i].raw);
      c[i].scratch = NULL;
    }
}

/* A run split over threads by the last call's output rows, each part in
 * bands on its own copy of the links (its own scratches; the rows around
 * a part's edge computed by both parts, into their own scratches). */
typedef struct bands_job {
  const link *c;
  i64 first, last, parts;
} bands_job;

/* The first row of part `part` of `parts` over `rows` rows (aligned). */
static i64 part_row(i64 rows, i64 part, i64 parts) {
  if (part >= parts)
    return rows;
  return rows * part / parts / CHAIN_ROW_ALIGN * CHAIN_ROW_ALIGN;
}

static void bands_part(void *arg, int64_t part) {
  const bands_job *j = arg;
  link c[ONNXC_CONV_CHAIN_MAX];
  i64 rows = j->c[j->last].q->out_h;
  memcpy(c + j->first, j->c + j->first,
         (size_t)(j->last - j->first + 1) * sizeof(link));
  run_bands(c, j->first, j->last, part_row(rows, part, j->parts),
            part_row(rows, part + 1, j->parts));
}

/* The multiply-adds of call c, times 2. */
static double flop(const link *c) {
  const onnxc_conv2d_params *q = c->q;
  return 2.0 * (double)(q->batch * q->groups * q->out_channels) *
         (double)(q->out_h * q->out_w) *
         (double)(q->in_channels * q->kernel_h * q->kernel_w);
}

/* Calls [first, last] (linked, apart): in bands on this thread, or split
 * over threads when the product is large enough for several and every
 * map in between goes to a scratch (no two parts write one buffer); else
 * (threads, outputs that stay) one by one, each split over threads. */
static void run_linked(link *c, i64 first, i64 last) {
  double f = 0.0;
  int threads, all_scratch = 1;
  i64 i;
  for (i = first; i <= last; ++i) {
    f += flop(&c[i]);
    if (i < last && !to_scratch(&c[i]))
      all_scratch = 0;
  }
  threads = onnxc_rt_threads_for(f);
  if (threads <= 1) {
    run_bands(c, first, last, 0, c[last].q->out_h);
  } else if (all_scratch) {
    bands_job j;
    j.c = c;
    j.first = first;
    j.last = last;
    j.parts = min64(threads, c[last].q->out_h / CHAIN_ROW_ALIGN);
    if (j.parts < 1)
      j.parts = 1;
    onnxc_rt_parallel_for(j.parts, threads, bands_part, &j);
  } else {
    for (i = first; i <= last; ++i)
      onnxc_rt_sconv2d(c[i].q, c[i].x, c[i].w, c[i].y);
  }
}

void onnxc_rt_sconv2d_chain(int64_t n, const int64_t *calls) {
  const onnxc_kernels *kt = onnxc_rt_kernels();
  link c[ONNXC_CONV_CHAIN_MAX];
  i64 i, first;
  if (n < 1)
    return;
  if (n > ONNXC_CONV_CHAIN_MAX)
    onnxc_rt_fail(ONNXC_ERROR_RUNTIME, "convolution chain: too many calls");
  memset(c, 0, sizeof c);
  for (i = 0; i < n; ++i) {
    const int64_t *a = calls + ONNXC_CONV_CHAIN_SLOTS * i;
    c[i].q = (const onnxc_conv2d_params *)(intptr_t)a[0];
    c[i].x = (const float *)(intptr_t)a[1];
    c[i].w = (const float *)(intptr_t)a[2];
    c[i].y = (float *)(intptr_t)a[3];
    c[i].flags = a[4];
    c[i].dw_block = kt->dw_block && kt->dw_block_scratch(c[i].q) > 0;
  }
  /* Runs of linked calls in bands, the others whole, in order. A run's
   * last call writes its output (so it is not one in place), any other
   * writes its output or a scratch. */
  for (first = 0; first < n;) {
    i64 last = first;
    if (chain_enabled())
      while (last + 1 < n && linked(&c[last], &c[last + 1]) &&
             apart(c, first, last + 1))
        ++last;
    while (last > first && ((c[last].q->flags & ONNXC_CONV_IN_PLACE) ||
                            !apart(c, first, last)))
      --last;
    if (last > first)
      run_linked(c, first, last);
    else
      onnxc_rt_sconv2d(c[first].q, c[first].x, c[first].w, c[first].y);
    first = last + 1;
  }
}
