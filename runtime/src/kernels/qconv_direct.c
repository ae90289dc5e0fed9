/*===- qconv_direct.c - int8 convolutions read in place -----------------------===*
 *
 * The path of onnxc_rt_qconv2d (qconv.c) that packs no panels, on tiers
 * with an itile (AVX-512 VNNI), for stride-1 kernels larger than 1 x 1
 * over channels in multiples of 4: the weights are the rows side in HWC
 * order (runtime_abi.h's ONNXC_Q_W_HWC: a group of 4 k is one tap of 4
 * channels), and the input is copied once per image and group, padded,
 * each word holding 4 channels of one position:
 *
 *   copy[q][i][jj][t] = X[4q + t, i - pad_top, jj - pad_left]
 *
 * (the zero point's byte in the padding; hph x wph words per quad q).
 * Output (oh, ow) reads, for the tap (kh, kw) of quad q, the word at row
 * oh + kh dh and column ow + kw dw: with a "virtual" position
 * v = oh wph + ow, the word at copy + 4 v + koff[q, kh, kw], so that 32
 * consecutive virtual positions are 128 consecutive bytes for every k:
 * the panel the tile reads in place. A copy row has
 * wph = out_w + (kernel_w - 1) dilation_w words, the last ones no output
 * (their results are computed and not stored: 2 of 58 at 56 x 56 with a
 * 3 x 3 kernel); the tile stores its rows by segments of output rows
 * (qsegs).
 *
 * Against packed panels, whose interleave copies K bytes per position
 * (9 times the input for 3 x 3: 15-21% of a ResNet layer's time), the
 * copy is the input's size once; the tile's panel loads are unaligned
 * (about 5%). Only without column terms (the weights' zero point 0 after
 * signing: int8 weights with zero point 0, uint8 with 128): the sums of
 * each window's input bytes would need the panels.
 *===----------------------------------------------------------------------===*/

#include "qdriver.h"

#include "onnxc/runtime_abi.h"

#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define DIRECT_SSSE3 1
#endif

#define DIRECT_NC 1024 /* virtual positions per block (32 panels) */
#define SLACK 256      /* bytes past the copy a last panel may read */

typedef struct direct_job {
  const qconv_job *j;
  i64 quads, hph, wph, nv, plane; /* plane: bytes of one quad */
  const uint8_t *x;   /* the image and group's input */
  uint8_t *copy;      /* quads * plane + SLACK bytes */
  const int64_t *koff;
  const int8_t *w;    /* the group's rows */
  const int8_t *last; /* its last partial group of rows, padded to 8 */
  i64 rfull;          /* rows before `last` */
  uint8_t *y;         /* Y[n, g * M, 0, 0] */
  i64 ch0;            /* g * M: the epilogue arrays' first row */
  i64 nc, blocks, msplit, mstep;
  int chunk;          /* AMX steps' quads (0: the VNNI itile only) */
} direct_job;

/* ---- The copy ----------------------------------------------------------- */

#ifdef DIRECT_SSSE3
/* 16 positions of quad_row (the direct path runs on AVX-512 VNNI CPUs
 * only: SSSE3 is there). */
__attribute__((target("ssse3"), always_inline)) static inline void
quad16(const uint8_t *const src[4], __m128i f, uint8_t *dst) {
  __m128i v[4], ab0, ab1, cd0, cd1;
  int t;
  for (t = 0; t < 4; ++t)
    v[t] = _mm_xor_si128(_mm_loadu_si128((const __m128i *)src[t]), f);
  ab0 = _mm_unpacklo_epi8(v[0], v[1]);
  ab1 = _mm_unpackhi_epi8(v[0], v[1]);
  cd0 = _mm_unpacklo_epi8(v[2], v[3]);
  cd1 = _mm_unpackhi_epi8(v[2], v[3]);
  _mm_storeu_si128((__m128i *)dst, _mm_unpacklo_epi16(ab0, cd0));
  _mm_storeu_si128((__m128i *)(dst + 16), _mm_unpackhi_epi16(ab0, cd0));
  _mm_storeu_si128((__m128i *)(dst + 32), _mm_unpacklo_epi16(ab1, cd1));
  _mm_storeu_si128((__m128i *)(dst + 48), _mm_unpackhi_epi16(ab1, cd1));
}

/* quad_row (dst[4 jj + t] = src[t][jj] ^ flip for jj < n: 4 channels
 * of n positions) by 16 positions. A last part of fewer reads on past the rows'
 * n bytes up to `end` (the input's end; copies of the rows past it) and
 * writes 64 bytes when `room` (bytes from dst that may be overwritten)
 * allows, else only 4 n (a call per row: no memcpy calls in the loop, at
 * 1856 rows a layer they took 9% of it). */
__attribute__((target("ssse3"))) static void
quad_row(const uint8_t *const src[4], i64 n, uint8_t flip,
         const uint8_t *end, i64 room, uint8_t *dst) {
  const __m128i f = _mm_set1_epi8((char)flip);
  const uint8_t *at[4];
  i64 jj = 0, w;
  int t;
  for (; jj + 16 <= n; jj += 16) {
    for (t = 0; t < 4; ++t)
      at[t] = src[t] + jj;
    quad16(at, f, dst + 4 * jj);
  }
  if (jj < n) {
    uint8_t in[4][16];
    i64 rest = n - jj;
    for (t = 0; t < 4; ++t) {
      at[t] = src[t] + jj;
      if (at[t] + 16 > end) {
        memcpy(in[t], at[t], (size_t)rest);
        at[t] = in[t];
      }
    }
    if (4 * jj + 64 <= room) {
      quad16(at, f, dst + 4 * jj);
    } else {
      uint32_t out[16];
      quad16(at, f, (uint8_t *)out);
      for (w = 0; w < rest; ++w)
        ((uint32_t *)(void *)dst)[jj + w] = out[w];
    }
  }
}
#else
/* dst[4 jj + t] = src[t][jj] ^ flip for jj < n: 4 channels of n
 * positions. */
static void quad_row(const uint8_t *const src[4], i64 n, uint8_t flip,
                     const uint8_t *end, i64 room, uint8_t *dst) {
  i64 jj;
  int t;
  (void)end;
  (void)room;
  for (jj = 0; jj < n; ++jj)
    for (t = 0; t < 4; ++t)
      dst[4 * jj + t] = (uint8_t)(src[t][jj] ^ flip);
}
#endif

static void fill_words(uint8_t *dst, i64 words, uint8_t pad) {
  memset(dst, pad, (size_t)(4 * words));
}

/* Quads [q0, q1) of the copy. */
static void fill_quads(const direct_job *d, i64 q0, i64 q1) {
  const qconv_job *j = d->j;
  const onnxc_qconv2d_params *p = j->p;
  const i64 in_plane = p->in_h * p->in_w;
  const uint8_t *end = d->x + p->in_channels * in_plane;
  /* Columns [ja, jb) come from the input (jj - pad_left in [0, in_w)). */
  const i64 ja = min64(max64(p->pad_left, 0), d->wph);
  const i64 jb = max64(min64(p->in_w + p->pad_left, d->wph), ja);
  i64 q, i;
  for (q = q0; q < q1; ++q)
    for (i = 0; i < d->hph; ++i) {
      uint8_t *row = d->copy + q * d->plane + i * d->wph * 4;
      i64 ih = i - p->pad_top;
      const uint8_t *src[4];
      int t;
      if (ih < 0 || ih >= p->in_h || jb == ja) {
        fill_words(row, d->wph, j->pad);
        continue;
      }
      for (t = 0; t < 4; ++t)
        src[t] = d->x + (4 * q + t) * in_plane + ih * p->in_w + ja -
                 p->pad_left;
      fill_words(row, ja, j->pad);
      /* What follows in the quad is written later (by this thread). */
      quad_row(src, jb - ja, j->xflip, end, d->plane - (i * d->wph + ja) * 4,
               row + 4 * ja);
      fill_words(row + 4 * jb, d->wph - jb, j->pad);
    }
}

static void fill_chunk(void *arg, int64_t chunk) {
  const direct_job *d = arg;
  i64 per = ceil_div(d->quads, 8);
  fill_quads(d, chunk * per, min64(d->quads, (chunk + 1) * per));
}

/* ---- The products ------------------------------------------------------- */

/* The segments of the panel of virtual positions [v0, v0 + 32). */
static void panel_segs(const direct_job *d, i64 v0, qsegs *sg) {
  const i64 out_w = d->j->p->out_w;
  i64 i = 0;
  sg->n = 0;
  while (i < QNR && v0 + i < d->nv) {
    i64 v = v0 + i, oh = v / d->wph, ow = v % d->wph, len;
    if (ow >= out_w) { /* columns past the output's */
      i += d->wph - ow;
      continue;
    }
    len = min64(QNR - i, out_w - ow);
    sg->mask[sg->n] = (len == 32 ? 0xffffffffu : ((1u << len) - 1u)) << i;
    sg->at[sg->n] = oh * out_w + ow - i;
    ++sg->n;
    i += len;
  }
}

/* Block blk, rows [ms * mstep, ...) of the image and group. */
static void product_chunk(void *arg, int64_t chunk) {
  const direct_job *d = arg;
  const qconv_job *j = d->j;
  const onnxc_qconv2d_params *p = j->p;
  i64 blk = chunk / d->msplit, ms = chunk % d->msplit;
  i64 v0 = blk * d->nc, nv = min64(d->nc, d->nv - v0);
  i64 panels = ceil_div(nv, QNR), m0 = ms * d->mstep;
  i64 m1 = min64(p->out_channels, m0 + d->mstep), r, pj;
  qsegs segs[DIRECT_NC / QNR];
  int amx = d->chunk && m1 - m0 >= 16 && j->isa->amx_begin(d->chunk);
  for (pj = 0; pj < panels; ++pj)
    panel_segs(d, v0 + pj * QNR, &segs[pj]);
  for (r = m0; r < m1;) {
    /* AMX: 32 or 16 rows of the weights; the VNNI itile: 8 (from the
     * padded copy of the last ones when fewer remain). */
    int rows = amx && m1 - r >= 16 ? (m1 - r >= 32 ? 32 : 16)
                                   : (int)min64(8, m1 - r);
    const int8_t *a = rows >= 16 || r < d->rfull ? d->w + r * j->kp : d->last;
    qepi ep = j->base;
    ep.radd = j->radd + d->ch0 + r;
    ep.scale = j->scale ? j->scale + d->ch0 + r : NULL;
    ep.bias = j->bias ? j->bias + d->ch0 + r : NULL;
    for (pj = 0; pj < panels; ++pj) {
      const uint8_t *x = d->copy + 4 * (v0 + pj * QNR);
      uint8_t *y = d->y + r * j->npos * j->osize;
      if (rows >= 16)
        j->isa->amx_itile(rows, d->chunk, j->k4, a, j->kp, x, d->koff,
                          d->plane, &segs[pj], &ep, y, j->npos);
      else
        j->isa->itile(rows, j->k4, a, j->kp, x, d->koff, &segs[pj], &ep, y,
                      j->npos);
    }
    r += rows >= 16 ? rows : 8;
  }
  if (amx)
    j->isa->amx_end();
}

/* ---- The call ----------------------------------------------------------- */

/* The calls the path took (for the tests: qgemm_test checks that the
 * cases it should take did). */
static int64_t taken;

int64_t onnxc_rt_qconv_direct_taken(void) {
  return __atomic_load_n(&taken, __ATOMIC_RELAXED);
}

/* ONNXC_QCONV_DIRECT=0 turns the path off (A/B measurements). */
static int enabled(void) {
  static int on = -1;
  return onnxc_rt_env_on("ONNXC_QCONV_DIRECT", &on);
}

int onnxc_rt_qconv_direct(const qconv_job *j, int threads) {
  const onnxc_qconv2d_params *p = j->p;
  const i64 M = p->out_channels, G = p->groups;
  const i64 khw = p->kernel_h * p->kernel_w;
  direct_job d;
  i64 n, g, q, kh, kw, chunks, copy, bytes;
  int64_t *koff;
  void *raw;
  /* Stride 1 only: with stride 2 the copy splits each row into phases
   * with no fewer instructions than the packed path's deinterleave, and
   * the tile's loads are unaligned: 7-8% slower than packed panels on
   * ResNet's 3 x 3 layers of stride 2 (equal at 14 x 14 -> 7 x 7), where
   * stride 1 is 3-12% faster (docs/performance.md). */
  if (!enabled() || !j->isa->itile || j->need_cb || !j->hwc || j->rmul ||
      p->in_channels % 4 || khw < 2 || p->stride_h != 1 || p->stride_w != 1)
    return 0;
  memset(&d, 0, sizeof d);
  d.j = j;
  d.quads = p->in_channels / 4;
  d.hph = p->out_h + (p->kernel_h - 1) * p->dilation_h;
  d.wph = p->out_w + (p->kernel_w - 1) * p->dilation_w;
  d.nv = (p->out_h - 1) * d.wph + p->out_w;
  d.plane = d.hph * d.wph * 4;
  /* Virtual columns past the output's (wph - out_w) per row: up to a
   * third of the work wasted; more (wide kernels on narrow maps) stays on
   * the packed path. */
  if (3 * (d.wph - p->out_w) > d.wph)
    return 0;
  /* The blocks (and parts of the channels) for the threads. */
  d.nc = min64(DIRECT_NC, ceil_div(d.nv, QNR) * QNR);
  if (threads > 1) {
    i64 want = (i64)threads * PARTS_PER_THREAD;
    i64 nc = ceil_div(ceil_div(d.nv, want), QNR) * QNR;
    d.nc = min64(d.nc, max64(4 * QNR, nc));
  }
  d.blocks = ceil_div(d.nv, d.nc);
  /* AMX: steps of `chunk` quads of one tap (B tile rows a plane apart). */
  d.chunk = j->isa->amx_itile ? onnxc_q_amx_chunk(d.quads) : 0;
  d.msplit = 1;
  d.mstep = M;
  if (threads > 1 && d.blocks < (i64)threads * PARTS_PER_THREAD) {
    i64 mr = d.chunk ? 32 : 8, tiles = ceil_div(M, mr);
    i64 want = ceil_div((i64)threads * PARTS_PER_THREAD, d.blocks);
    d.msplit = min64(tiles, want);
    d.mstep = ceil_div(tiles, d.msplit) * mr;
    d.msplit = ceil_div(M, d.mstep);
  }
  d.rfull = M / 8 * 8;
  /* The copy, the offsets (k4 of them), the padded last rows. */
  copy = d.quads * d.plane;
  bytes = ceil_div(copy + SLACK, 64) * 64;
  d.copy = onnxc_rt_qalloc(bytes + 8 * j->k4 + 8 * j->kp, &raw);
  memset(d.copy + copy, 0, (size_t)(bytes - copy));
  koff = (int64_t *)(d.copy + bytes);
  for (kh = 0; kh < p->kernel_h; ++kh)
    for (kw = 0; kw < p->kernel_w; ++kw)
      for (q = 0; q < d.quads; ++q)
        koff[(kh * p->kernel_w + kw) * d.quads + q] =
            q * d.plane +
            (kh * p->dilation_h * d.wph + kw * p->dilation_w) * 4;
  d.koff = koff;
  for (n = 0; n < p->batch; ++n)
    for (g = 0; g < G; ++g) {
      int8_t *last = (int8_t *)(koff + j->k4);
      d.x = j->x + (n * G + g) * p->in_channels * p->in_h * p->in_w;
      d.w = j->w + g * M * j->kp;
      d.ch0 = g * M;
      d.y = j->y + (n * G + g) * M * j->npos * j->osize;
      d.last = NULL;
      if (d.rfull < M) {
        memset(last, 0, (size_t)(8 * j->kp));
        memcpy(last, d.w + d.rfull * j->kp, (size_t)((M - d.rfull) * j->kp));
        d.last = last;
      }
      onnxc_rt_parallel_for(min64(8, d.quads), threads, fill_chunk, &d);
      chunks = d.blocks * d.msplit;
      onnxc_rt_parallel_for(chunks, threads, product_chunk, &d);
    }
  onnxc_rt_qfree(raw);
  __atomic_fetch_add(&taken, 1, __ATOMIC_RELAXED);
  return 1;
}
