/*===- conv_pad.c - The padded copies of an fp32 convolution's input -----===*
 *
 * onnxc_rt_sconv2d_pad_input and onnxc_rt_sconv2d_pad_cblock (internal.h):
 * what conv.c's paths read instead of an unpadded input (ONNXC_CONV_PADDED),
 * zero rows and columns around each channel plane, planes spaced to spread
 * over L1's sets, or (ONNXC_CONV_W_CBLOCK) blocks of 16 channels with each
 * position's 16 channels contiguous; split over threads by rows.
 *===----------------------------------------------------------------------===*/

#include "gemm.h"

#include "onnxc/runtime_abi.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The distance (floats) between the padded copy's channel planes of
 * `plane` floats: planes of 4 KiB and more start 21 cache lines past a
 * multiple of 4 KiB, so that the same rows of successive channels, which
 * a convolution's window reads together, fall into different L1 sets
 * (planes a multiple of 4 KiB apart put them all into one: a 3 x 3
 * window over 48 channels of 256 x 256 read 144 rows from a few sets). */
static i64 plane_stride(i64 plane) {
  if (plane * 4 < 4096)
    return plane;
  return (plane * 4 + 4095) / 4096 * 1024 + 21 * 16;
}

/* The padded copy's rows [lo, hi), counted over all its planes (pad_input). */
typedef struct pad_job {
  const onnxc_kernels *kt;
  const onnxc_conv2d_params *q;
  const float *x;
  float *buf;
  i64 hp, wp, cs; /* rows, columns and plane stride of the copy */
  i64 lo, hi;     /* its columns that come from the input */
} pad_job;

/* The rows and columns of the padded copy of q's input x: exactly those
 * the windows reach; columns [lo, hi) of a row come from the input, from
 * column lo - pad_left on, the rest are zeros. (No buffer yet: cs, buf.) */
static pad_job pad_job_of(const onnxc_conv2d_params *q, const float *x) {
  pad_job j;
  j.kt = onnxc_rt_kernels();
  j.q = q;
  j.x = x;
  j.hp = (q->out_h - 1) * q->stride_h + (q->kernel_h - 1) * q->dilation_h + 1;
  j.wp = (q->out_w - 1) * q->stride_w + (q->kernel_w - 1) * q->dilation_w + 1;
  j.lo = q->pad_left < 0 ? 0 : min64(q->pad_left, j.wp);
  j.hi = q->pad_left + q->in_w;
  j.hi = j.hi < j.lo ? j.lo : min64(j.hi, j.wp);
  j.cs = 0;
  j.buf = NULL;
  return j;
}

/* Channel plane `plane` ((n * groups + g) * in_channels + c) of the input. */
static const float *pad_source(const pad_job *j, i64 plane) {
  const onnxc_conv2d_params *q = j->q;
  i64 c = plane % q->in_channels, ng = plane / q->in_channels;
  return j->x + (ng / q->groups) * q->x_strides[0] +
         (ng % q->groups) * q->x_strides[1] + c * q->x_strides[2];
}

/* Row r of the padded copy of the plane at `src` into dst (wp floats). */
static void pad_one_row(const pad_job *j, const float *src, i64 r,
                        float *dst) {
  const onnxc_conv2d_params *q = j->q;
  const i64 *xs = q->x_strides;
  i64 wp = j->wp, lo = j->lo, hi = j->hi, col;
  i64 ih = r - q->pad_top;
  const float *row = ih < 0 || ih >= q->in_h || hi == lo
                         ? NULL
                         : src + ih * xs[3] + (lo - q->pad_left) * xs[4];
  if (!row) {
    memset(dst, 0, (size_t)wp * sizeof(float));
  } else if (xs[4] == 1) {
    j->kt->pad_row(dst, wp, lo, hi, row);
  } else {
    memset(dst, 0, (size_t)lo * sizeof(float));
    for (col = lo; col < hi; ++col)
      dst[col] = row[(col - lo) * xs[4]];
    memset(dst + hi, 0, (size_t)(wp - hi) * sizeof(float));
  }
}

static void pad_rows(void *p, int64_t first, int64_t end) {
  const pad_job *j = p;
  i64 t;
  for (t = first; t < end; ++t) {
    i64 plane = t / j->hp, r = t % j->hp;
    pad_one_row(j, pad_source(j, plane), r, j->buf + plane * j->cs + r * j->wp);
  }
}

/* The input of an ONNXC_CONV_PADDED call with its padding materialized,
 * for the paths that read a padded input: exactly the rows and columns the
 * windows reach, contiguous per channel ([batch][groups][in_channels][hp]
 * [wp]), each row a copy of the input's columns and zeros around them,
 * written on up to `threads` threads (by rows: a copy, the same on any
 * number). `p` becomes the parameters for it (flag cleared, new strides);
 * the caller releases `*raw` with free_scratch. */
static const float *pad_input(const onnxc_conv2d_params *q, const float *x,
                              onnxc_conv2d_params *p, void **raw,
                              int threads) {
  pad_job j = pad_job_of(q, x);
  i64 planes = q->batch * q->groups * q->in_channels;
  j.cs = plane_stride(j.hp * j.wp);
  j.buf = onnxc_rt_alloc_scratch(planes * j.cs, raw);
  if (threads > 1)
    threads = onnxc_rt_threads_for(ONNXC_COPY_FLOP_PER_ELEMENT *
                                   (double)(planes * j.hp * j.wp));
  onnxc_rt_parallel_range(planes * j.hp, 1, threads, pad_rows, &j);
  *p = *q;
  p->flags &= ~(int64_t)(ONNXC_CONV_PADDED | ONNXC_CONV_IN_PLACE);
  p->x_strides[4] = 1;
  p->x_strides[3] = j.wp;
  p->x_strides[2] = j.cs;
  p->x_strides[1] = q->in_channels * j.cs;
  p->x_strides[0] = q->groups * q->in_channels * j.cs;
  return j.buf;
}

/* Input channels x taps up to which a stride-2 call's padded copy is split
 * by column parity (the stems: 3 channels, 3 x 3 to 7 x 7) for fewer than
 * 32 output channels (a panel of the tiles with positions in rows partly
 * empty), and for more than 48 (the two-panel tiles' range) up to
 * SPLIT_WIDE_K. Measured on one Sapphire Rapids core, a stem alone over
 * 224 x 224 (3 x 3 / 2 unless said), split copy and positions in lanes
 * against the tiles on a plain copy: 16 channels -27%, 24 -14%, 64 -24%;
 * 32 channels +3% (conv_tile's 8 positions by a full panel store whole
 * 8-float runs), 64 channels 7 x 7 (K 147) +45% (the positions-in-lanes
 * tile reloads each input vector for each 8 channels). */
#define SPLIT_MAX_K 160
#define SPLIT_WIDE_K 32

/* ONNXC_CONV_SPLIT=0 turns the split copy off (A/B runs). */
static int split_enabled(void) {
  static int on = -1;
  return onnxc_rt_env_on("ONNXC_CONV_SPLIT", &on);
}

/* Whether this call's padded copy splits its columns by parity
 * (ONNXC_CONV_X_SPLIT): a stride-2 row, one group, weights packed in
 * (c, kh, kw) order, few input channels, output rows at least a tile
 * wide, and a tier with tiles that take positions in lanes (conv_igemm.c's
 * conv_rows). The padded stems of MobileNetV3 and ShuffleNet: the
 * tiles with positions in rows store 6 to 8 positions into each channel's
 * plane at a time, with half of a 32-channel panel empty for 16
 * channels. (An unpadded stem reads its input in place: SqueezeNet's
 * took 14% longer through a split copy.) */
static int split_copy(const onnxc_conv2d_params *q) {
  const onnxc_kernels *kt = onnxc_rt_kernels();
  i64 kdim = q->in_channels * q->kernel_h * q->kernel_w;
  return (q->flags & ONNXC_CONV_PADDED) && (q->flags & ONNXC_CONV_W_PACKED) &&
         !(q->flags & (ONNXC_CONV_W_CBLOCK | ONNXC_CONV_X_CBLOCK |
                       ONNXC_CONV_X_SPLIT | ONNXC_CONV_IN_PLACE)) &&
         q->stride_w == 2 && q->dilation_w == 1 && q->kernel_w >= 2 &&
         q->groups == 1 &&
         kdim <= SPLIT_MAX_K &&
         kt->conv_tile && kt->conv_rtile && q->out_w >= NR &&
         q->y_strides[4] == 1 && q->y_strides[3] == q->out_w &&
         (q->out_channels < NR ||
          (q->out_channels > NR + NR / 2 && kdim <= SPLIT_WIDE_K)) &&
         split_enabled();
}

/* Rows [first, end) of the split copy: pad_rows' row into `tmp` (wp
 * floats), then its even columns and its odd ones. */
typedef struct split_job {
  pad_job pad;
  i64 even; /* even columns: (wp + 1) / 2 */
} split_job;

static void split_rows(void *p, int64_t first, int64_t end) {
  const split_job *s = p;
  const pad_job *j = &s->pad;
  i64 wp = j->wp, even = s->even, t;
  void *raw;
  float *tmp = onnxc_rt_alloc_scratch(wp + 1, &raw);
  for (t = first; t < end; ++t) {
    i64 plane = t / j->hp, r = t % j->hp;
    float *dst = j->buf + plane * j->cs + r * wp;
    pad_one_row(j, pad_source(j, plane), r, tmp);
    j->kt->split_row(tmp, wp, dst, dst + even);
  }
  onnxc_rt_free_scratch(raw);
}

/* pad_input with the columns of each row split by parity
 * (ONNXC_CONV_X_SPLIT). */
static const float *pad_input_split(const onnxc_conv2d_params *q,
                                    const float *x, onnxc_conv2d_params *p,
                                    void **raw, int threads) {
  split_job s;
  i64 planes = q->batch * q->groups * q->in_channels;
  s.pad = pad_job_of(q, x);
  s.even = (s.pad.wp + 1) / 2;
  s.pad.cs = plane_stride(s.pad.hp * s.pad.wp);
  s.pad.buf = onnxc_rt_alloc_scratch(planes * s.pad.cs, raw);
  if (threads > 1)
    threads = onnxc_rt_threads_for(ONNXC_COPY_FLOP_PER_ELEMENT *
                                   (double)(planes * s.pad.hp * s.pad.wp));
  onnxc_rt_parallel_range(planes * s.pad.hp, 1, threads, split_rows, &s);
  *p = *q;
  p->flags &= ~(int64_t)(ONNXC_CONV_PADDED | ONNXC_CONV_IN_PLACE);
  p->flags |= ONNXC_CONV_X_SPLIT;
  p->stride_w = 1;
  p->in_w = s.even;
  p->x_strides[4] = 1;
  p->x_strides[3] = s.pad.wp;
  p->x_strides[2] = s.pad.cs;
  p->x_strides[1] = q->in_channels * s.pad.cs;
  p->x_strides[0] = q->groups * q->in_channels * s.pad.cs;
  return s.pad.buf;
}

/* Whether this call's padded copy of its input is in channel blocks
 * (ONNXC_CONV_X_CBLOCK): weights packed in that K order
 * (ONNXC_CONV_W_CBLOCK) that the indirect GEMM reads (the tier's
 * conv_tile, Y flat), an input padded into a copy anyway. Otherwise such
 * weights are read over the planes in their order (unpadded), or
 * unpacked in it (the portable tier). */
static int cblock_copy(const onnxc_conv2d_params *q) {
  return (q->flags & ONNXC_CONV_W_CBLOCK) && (q->flags & ONNXC_CONV_W_PACKED) &&
         (q->flags & ONNXC_CONV_PADDED) &&
         !(q->flags & ONNXC_CONV_X_CBLOCK) && q->groups == 1 &&
         q->in_channels % ONNXC_CONV_CBLOCK == 0 &&
         onnxc_rt_kernels()->conv_tile && q->y_strides[4] == 1 &&
         q->y_strides[3] == q->out_w;
}

/* Row r of block nb (n * blocks + b) of the copy in channel blocks, into
 * dst (wp x 16 floats). */
static void pad_row_of_block(const pad_job *j, i64 nb, i64 r, float *dst) {
  const onnxc_conv2d_params *q = j->q;
  const i64 *xs = q->x_strides;
  const i64 cb = ONNXC_CONV_CBLOCK, blocks = q->in_channels / cb;
  i64 ih = r - q->pad_top;
  if (ih < 0 || ih >= q->in_h || j->hi == j->lo) {
    memset(dst, 0, (size_t)(j->wp * cb) * sizeof(float));
    return;
  }
  j->kt->pad_row_cblock(dst, j->wp, j->lo, j->hi,
                        j->x + (nb / blocks) * xs[0] +
                            (nb % blocks) * cb * xs[2] + ih * xs[3] +
                            (j->lo - q->pad_left) * xs[4],
                        xs[2], xs[4]);
}

/* Rows [first, end) of the copy in channel blocks: row t is row
 * t % hp of block t / hp ((n * blocks + b), `cs` floats apart). */
static void pad_rows_cblock(void *p, int64_t first, int64_t end) {
  const pad_job *j = p;
  i64 t;
  for (t = first; t < end; ++t)
    pad_row_of_block(j, t / j->hp, t % j->hp,
                     j->buf + (t / j->hp) * j->cs +
                         (t % j->hp) * j->wp * ONNXC_CONV_CBLOCK);
}

/* The padded input in channel blocks for ONNXC_CONV_W_CBLOCK weights
 * (one group): [batch][in_channels / 16][hp][wp][16], exactly the rows
 * and columns the windows reach, blocks plane_stride apart as pad_input
 * lays out planes, written on up to `threads` threads (by rows: the same
 * on any number). `p` becomes the parameters for it (ONNXC_CONV_X_CBLOCK
 * set, ONNXC_CONV_PADDED and ONNXC_CONV_IN_PLACE cleared; strides as
 * internal.h says); the caller releases `*raw` with free_scratch. */
static const float *pad_input_cblock(const onnxc_conv2d_params *q,
                                     const float *x, onnxc_conv2d_params *p,
                                     void **raw, int threads) {
  const i64 cb = ONNXC_CONV_CBLOCK;
  i64 blocks = q->in_channels / cb, bs;
  pad_job j = pad_job_of(q, x);
  bs = j.cs = plane_stride(j.hp * j.wp * cb);
  j.buf = onnxc_rt_alloc_scratch(q->batch * blocks * bs, raw);
  if (threads > 1)
    threads = onnxc_rt_threads_for(ONNXC_COPY_FLOP_PER_ELEMENT *
                                   (double)(q->batch * blocks * j.hp * j.wp * cb));
  onnxc_rt_parallel_range(q->batch * blocks * j.hp, 1, threads,
                          pad_rows_cblock, &j);
  *p = *q;
  p->flags &= ~(int64_t)(ONNXC_CONV_PADDED | ONNXC_CONV_IN_PLACE);
  p->flags |= ONNXC_CONV_X_CBLOCK;
  p->x_strides[4] = cb;
  p->x_strides[3] = j.wp * cb;
  p->x_strides[2] = bs;
  p->x_strides[1] = blocks * bs;
  p->x_strides[0] = blocks * bs;
  return j.buf;
}

/* For parallel.c, which pads the input once before it splits a call (its
 * parts would each pad their rows and the rows around them, or all of the
 * input): whether onnxc_rt_sconv2d_serial below pads this call's input
 * into a copy (mirrors its test: a mismatch costs time, not results), the
 * copy, and its release. */
int onnxc_rt_sconv2d_pads_input(const onnxc_conv2d_params *q) {
  int packed = (q->flags & ONNXC_CONV_W_PACKED) != 0;
  if (!(q->flags & ONNXC_CONV_PADDED))
    return 0;
  /* The depthwise path reads around the padding: unpacked weights, and
   * packed ones of a grouped convolution, which it unpacks (ResNeXt's
   * groups of 4 and 8 channels were padded into a 3.4 MB copy before
   * their split over two threads). */
  return !(onnxc_rt_depthwise_takes(q) && (!packed || q->in_channels > 1));
}

const float *onnxc_rt_sconv2d_pad_input(const onnxc_conv2d_params *q,
                                        const float *x,
                                        onnxc_conv2d_params *padded,
                                        void **raw, int threads) {
  return cblock_copy(q)   ? pad_input_cblock(q, x, padded, raw, threads)
         : split_copy(q) ? pad_input_split(q, x, padded, raw, threads)
                         : pad_input(q, x, padded, raw, threads);
}

void onnxc_rt_sconv2d_free_input(void *raw) { onnxc_rt_free_scratch(raw); }

const float *onnxc_rt_sconv2d_subsample(const onnxc_conv2d_params *q,
                                        const float *x,
                                        onnxc_conv2d_params *sub,
                                        void **raw) {
  const onnxc_kernels *kt = onnxc_rt_kernels();
  const i64 *xs = q->x_strides;
  i64 oh = q->out_h, ow = q->out_w, plane = oh * ow;
  i64 c, r, col;
  i64 planes = q->batch * q->groups * q->in_channels;
  /* The planes, then the odd columns split_row leaves (ow floats). */
  float *buf = onnxc_rt_alloc_scratch(planes * plane + ow, raw);
  float *odd = buf + planes * plane;
  for (c = 0; c < planes; ++c) {
    i64 n = c / (q->groups * q->in_channels);
    i64 g = c / q->in_channels % q->groups, ci = c % q->in_channels;
    const float *src = x + n * xs[0] + g * xs[1] + ci * xs[2];
    float *dst = buf + c * plane;
    for (r = 0; r < oh; ++r, dst += ow) {
      const float *row = src + r * q->stride_h * xs[3];
      if (q->stride_w == 2 && xs[4] == 1)
        kt->split_row(row, 2 * ow - 1, dst, odd);
      else
        for (col = 0; col < ow; ++col)
          dst[col] = row[col * q->stride_w * xs[4]];
    }
  }
  *sub = *q;
  sub->flags &= ~(int64_t)ONNXC_CONV_IN_PLACE;
  sub->stride_h = sub->stride_w = 1;
  sub->in_h = oh;
  sub->in_w = ow;
  sub->x_strides[4] = 1;
  sub->x_strides[3] = ow;
  sub->x_strides[2] = plane;
  sub->x_strides[1] = q->in_channels * plane;
  sub->x_strides[0] = q->groups * q->in_channels * plane;
  return buf;
}

const float *onnxc_rt_sconv2d_pad_cblock(const onnxc_conv2d_params *q,
                                         const float *x,
                                         onnxc_conv2d_params *padded,
                                         void **raw, int threads) {
  return pad_input_cblock(q, x, padded, raw, threads);
}

void onnxc_rt_sconv2d_pad_cblock_rows(const onnxc_conv2d_params *q,
                                      const float *x, int64_t n, int64_t r0,
                                      int64_t r1, float *dst, int64_t bs) {
  const i64 cb = ONNXC_CONV_CBLOCK, blocks = q->in_channels / cb;
  pad_job j = pad_job_of(q, x);
  i64 b, r;
  for (b = 0; b < blocks; ++b)
    for (r = r0; r < r1; ++r) {
      float *d = dst + b * bs + (r - r0) * j.wp * cb;
      if (r >= j.hp)
        memset(d, 0, (size_t)(j.wp * cb) * sizeof(float));
      else
        pad_row_of_block(&j, n * blocks + b, r, d);
    }
}
