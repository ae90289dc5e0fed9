/*===- qconv.c - int8 convolutions: the driver ------------------------------===*
 *
 * onnxc_rt_qconv2d (runtime_abi.h). The rows side is the output channels'
 * weights (made signed, packed at compile time with their row sums when
 * constant), the columns side the output positions: per block of
 * positions, the input rows it reads are copied into padded planes split
 * into stride phases, and each packed panel's 32 positions for one k =
 * (c, kh, kw) are consecutive bytes of a phase row, read in place (see
 * qgemm.c for the zero-point algebra). Depthwise convolutions skip the
 * packing on tiers with dw_row. Y is written row by row of channels, as
 * NCHW lays it out.
 *===----------------------------------------------------------------------===*/

#include "qdriver.h"

#include <string.h>

#define MAX_NC 1024 /* positions per packed block */


/* The planes a block of positions [p0, p0 + nc) reads: the input rows
 * from ih_lo (hp of them) and columns from iw = -pad_left (wp of them),
 * padded, each row split into stride_w phases of wps columns (phase f
 * holds columns f, f + s, f + 2s, ...: the columns of consecutive output
 * positions for one kw are then consecutive in one phase). */
typedef struct planes_geo {
  i64 oh0, ih_lo, hp, wp, wps, row; /* row: bytes per input row */
} planes_geo;

static planes_geo planes_of(const onnxc_qconv2d_params *p, i64 p0, i64 nc) {
  planes_geo g;
  i64 oh1 = (p0 + nc - 1) / p->out_w;
  g.oh0 = p0 / p->out_w;
  g.ih_lo = g.oh0 * p->stride_h - p->pad_top;
  g.hp = (oh1 - g.oh0) * p->stride_h + (p->kernel_h - 1) * p->dilation_h + 1;
  g.wp = (p->out_w - 1) * p->stride_w + (p->kernel_w - 1) * p->dilation_w + 1;
  g.wps = ceil_div(g.wp, p->stride_w);
  g.row = p->stride_w * g.wps;
  return g;
}

/* d[0..n) = s[0..n) ^ flip; short rows by two overlapping fixed-size
 * copies (plain moves, no call, nothing read past s + n). */
static void copy_row(uint8_t *d, const uint8_t *s, i64 n, uint8_t flip) {
  i64 i;
  if (n > 32)
    memcpy(d, s, (size_t)n);
  else if (n >= 16) {
    memcpy(d, s, 16);
    memcpy(d + n - 16, s + n - 16, 16);
  } else if (n >= 8) {
    memcpy(d, s, 8);
    memcpy(d + n - 8, s + n - 8, 8);
  } else if (n >= 4) {
    memcpy(d, s, 4);
    memcpy(d + n - 4, s + n - 4, 4);
  } else
    for (i = 0; i < n; ++i)
      d[i] = s[i];
  if (flip)
    for (i = 0; i < n; ++i)
      d[i] ^= flip;
}

/* The block's planes ([channel][row][phase][column]): the input's bytes
 * (x ^ xflip), the padding (the zero point's byte) around them. Only the
 * rows and phases some (kh, kw) reads are written (a 1 x 1 convolution of
 * stride 2 reads every other row, one phase). */
static void fill_planes(const qconv_job *j, const uint8_t *xg,
                        const planes_geo *g, uint8_t *planes) {
  const onnxc_qconv2d_params *p = j->p;
  i64 s = p->stride_w, c, r, f, i, kh, o;
  i64 outs = (g->hp - 1 - (p->kernel_h - 1) * p->dilation_h) / p->stride_h + 1;
  /* Columns [lo, hi) of a padded row come from the input; of phase f,
   * columns [pa[f], pb[f]). */
  i64 lo = min64(max64(p->pad_left, 0), g->wp);
  i64 hi = min64(max64(p->pad_left + p->in_w, lo), g->wp);
  i64 pa[64], pb[64];
  unsigned char phase[64], needed[1024];
  int all_rows = g->hp > 1024;
  if (s > 64) { /* more phases than the tables: the general loop */
    for (c = 0; c < p->in_channels; ++c)
      for (r = 0; r < g->hp; ++r) {
        uint8_t *dst = planes + (c * g->hp + r) * g->row;
        i64 ih = g->ih_lo + r, x;
        const uint8_t *src = xg + (c * p->in_h + ih) * p->in_w - p->pad_left;
        for (x = 0; x < g->row; ++x) {
          i64 col = (x % g->wps) * s + x / g->wps;
          dst[x] = ih >= 0 && ih < p->in_h && col >= lo && col < hi
                       ? (uint8_t)(src[col] ^ j->xflip)
                       : j->pad;
        }
      }
    memset(planes + p->in_channels * g->hp * g->row, 0, QNR);
    return;
  }
  if (s == 1 && !j->xflip && lo == 0 && hi == g->wp && g->wp == p->in_w) {
    /* Whole input rows (no column padding): one copy per channel. */
    i64 r0 = max64(-g->ih_lo, 0), r1 = min64(g->hp, p->in_h - g->ih_lo);
    r1 = max64(r1, r0);
    for (c = 0; c < p->in_channels; ++c) {
      uint8_t *dst = planes + c * g->hp * g->row;
      memset(dst, j->pad, (size_t)(r0 * g->row));
      memcpy(dst + r0 * g->row,
             xg + (c * p->in_h + g->ih_lo + r0) * p->in_w,
             (size_t)((r1 - r0) * g->row));
      memset(dst + r1 * g->row, j->pad, (size_t)((g->hp - r1) * g->row));
    }
    memset(planes + p->in_channels * g->hp * g->row, 0, QNR); /* slack */
    return;
  }
  if (s == 1) {
    /* Stride 1: the padding everywhere, then each input row's bytes. */
    i64 r0 = max64(-g->ih_lo, 0), r1 = min64(g->hp, p->in_h - g->ih_lo);
    memset(planes, j->pad, (size_t)(p->in_channels * g->hp * g->row));
    for (c = 0; c < p->in_channels && hi > lo; ++c)
      for (r = r0; r < r1; ++r)
        copy_row(planes + (c * g->hp + r) * g->row + lo,
                 xg + (c * p->in_h + g->ih_lo + r) * p->in_w + lo - p->pad_left,
                 hi - lo, j->xflip);
    memset(planes + p->in_channels * g->hp * g->row, 0, QNR); /* slack */
    return;
  }
  if (s == 2 && p->kernel_w > 1 && p->dilation_w % 2 && j->isa->deint2) {
    /* Stride 2, both phases read: the padding everywhere, then each
     * channel's input rows split by the tier (column c of a padded row is
     * byte c / 2 of phase c % 2). */
    i64 r0 = max64(-g->ih_lo, 0), r1 = min64(g->hp, p->in_h - g->ih_lo);
    memset(planes, j->pad, (size_t)(p->in_channels * g->hp * g->row));
    for (c = 0; c < p->in_channels && hi > lo && r1 > r0; ++c) {
      uint8_t *dst = planes + (c * g->hp + r0) * g->row;
      j->isa->deint2(xg + (c * p->in_h + g->ih_lo + r0) * p->in_w + lo -
                         p->pad_left,
                     p->in_w, r1 - r0, hi - lo,
                     dst + (lo & 1) * g->wps + lo / 2,
                     dst + (1 - (lo & 1)) * g->wps + (lo + 1) / 2, g->row,
                     j->xflip);
    }
    memset(planes + p->in_channels * g->hp * g->row, 0, QNR); /* slack */
    return;
  }
  /* Only the phases and rows some (kh, kw) reads. */
  for (f = 0; f < s; ++f) {
    phase[f] = 0;
    pa[f] = min64(lo > f ? ceil_div(lo - f, s) : 0, g->wps);
    pb[f] = min64(max64(hi > f ? ceil_div(hi - f, s) : 0, pa[f]), g->wps);
  }
  for (i = 0; i < p->kernel_w; ++i)
    phase[(i * p->dilation_w) % s] = 1;
  if (!all_rows) {
    memset(needed, p->stride_h == 1, (size_t)g->hp);
    if (p->stride_h != 1)
      for (o = 0; o < outs; ++o)
        for (kh = 0; kh < p->kernel_h; ++kh)
          needed[o * p->stride_h + kh * p->dilation_h] = 1;
  }
  for (r = 0; r < g->hp; ++r) {
    i64 ih = g->ih_lo + r;
    const uint8_t xf = j->xflip, pad = j->pad; /* locals: no reloads */
    if (!all_rows && !needed[r])
      continue;
    for (c = 0; c < p->in_channels; ++c) {
      uint8_t *dst = planes + (c * g->hp + r) * g->row;
      const uint8_t *src = xg + (c * p->in_h + ih) * p->in_w - p->pad_left;
      if (ih < 0 || ih >= p->in_h || hi == lo) {
        memset(dst, pad, (size_t)g->row);
        continue;
      }
      for (f = 0; f < s; ++f) {
        /* Phase f: columns f + i s, those in [lo, hi) from the input. */
        uint8_t *d = dst + f * g->wps;
        i64 a = pa[f], b = pb[f];
        if (!phase[f])
          continue;
        for (i = 0; i < a; ++i)
          d[i] = pad;
        if (s == 2) /* a constant stride: vectorized */
          for (i = a; i < b; ++i)
            d[i] = (uint8_t)(src[f + 2 * i] ^ xf);
        else
          for (i = a; i < b; ++i)
            d[i] = (uint8_t)(src[f + i * s] ^ xf);
        for (i = b; i < g->wps; ++i)
          d[i] = pad;
      }
    }
  }
  memset(planes + p->in_channels * g->hp * g->row, 0, QNR); /* slack */
}

/* The panels of positions [p0, p0 + nc) of one image and group from the
 * block's planes, without im2col rows: for each k = (c, kh, kw) the 32
 * positions of a panel are consecutive bytes of one phase row per output
 * row they span (a last partial panel reads on past nc: never stored),
 * which the interleave reads in place, up to QSEG output rows (more, for
 * maps narrower than 5: gathered first). Rows past K read `zero`, a plane
 * of zeros. */
static void pack_planes(const qconv_job *j, const planes_geo *g, i64 p0,
                        i64 nc, const uint8_t *planes, const uint8_t *zero,
                        uint8_t *packed, int32_t *cb) {
  const onnxc_qconv2d_params *p = j->p;
  i64 khw = p->kernel_h * p->kernel_w, ow_n = p->out_w;
  i64 orow = p->stride_h * g->row; /* bytes between output rows */
  i64 panels = ceil_div(nc, QNR), pstride = j->k4 * 4 * QNR, q4, t, pj, col;
  i64 off[MAX_NC / QNR][QSEG];
  int start[MAX_NC / QNR][QSEG], seg[MAX_NC / QNR];
  /* Each panel's pieces, relative to k's origin: output row o from column
   * w, for panel columns [start, ...). */
  for (pj = 0; pj < panels; ++pj) {
    i64 pos = p0 + pj * QNR, o = pos / ow_n, w = pos % ow_n, c = 0;
    int s = 0;
    while (c < QNR && s < QSEG) {
      off[pj][s] = (o - g->oh0) * orow + w - c;
      start[pj][s] = (int)c;
      c += ow_n - w;
      w = 0;
      ++o;
      ++s;
      if (pos + c >= p0 + nc)
        break; /* the rest: past nc */
    }
    seg[pj] = c >= QNR || pos + c >= p0 + nc ? s : -1;
  }
  /* k = (c, kh, kw), or (kh, kw, c) for HWC rows (the 4 k of a group:
   * one tap of 4 channels), stepped without dividing. */
  i64 kc = 0, kh = 0, kw = 0;
  (void)khw;
  for (q4 = 0; q4 < j->k4; ++q4) {
    const uint8_t *base[4];
    for (t = 0; t < 4; ++t) {
      i64 dw = kw * p->dilation_w;
      if (4 * q4 + t >= j->k) {
        base[t] = zero;
        continue;
      }
      base[t] = planes +
                ((kc + (j->hwc ? t : 0)) * g->hp + kh * p->dilation_h) * g->row +
                (dw % p->stride_w) * g->wps + dw / p->stride_w;
      if (j->hwc)
        continue;
      if (++kw == p->kernel_w) {
        kw = 0;
        if (++kh == p->kernel_h) {
          kh = 0;
          ++kc;
        }
      }
    }
    if (j->hwc && (kc += 4) == p->in_channels) {
      kc = 0;
      if (++kw == p->kernel_w) {
        kw = 0;
        ++kh;
      }
    }
    /* Runs of panels read in place, one call each; the others gathered. */
    for (pj = 0; pj < panels;) {
      i64 run = 0;
      uint8_t *dst = packed + pj * pstride + q4 * 4 * QNR;
      while (pj + run < panels && seg[pj + run] > 0)
        ++run;
      if (run) {
        j->isa->interleave_panels(base, seg + pj, off + pj, start + pj, run,
                                  pstride, dst);
      } else {
        i64 pos = p0 + pj * QNR, len = min64(QNR, nc - pj * QNR);
        const uint8_t *src[4];
        uint8_t tmp[4][QNR];
        for (t = 0; t < 4; ++t) {
          i64 done = 0, o = pos / ow_n, w = pos % ow_n;
          memset(tmp[t], 0, QNR);
          while (done < len) {
            i64 piece = min64(len - done, ow_n - w);
            memcpy(tmp[t] + done, base[t] + (o - g->oh0) * orow + w,
                   (size_t)piece);
            done += piece;
            w = 0;
            ++o;
          }
          src[t] = tmp[t];
        }
        j->isa->interleave(src, src, QNR, dst);
        run = 1;
      }
      for (; run > 0; --run, ++pj) {
        const uint8_t *d = packed + pj * pstride + q4 * 4 * QNR;
        i64 len = min64(QNR, nc - pj * QNR);
        if (cb)
          for (col = 0; col < len; ++col)
            cb[pj * QNR + col] +=
                d[4 * col] + d[4 * col + 1] + d[4 * col + 2] + d[4 * col + 3];
      }
    }
  }
}

/* Block blk of image and group ng packed: its panels into `packed`, their
 * column sums into `cb` (need_cb), through planes of its own. */
static void pack_block(const qconv_job *j, i64 ng, i64 blk, uint8_t *packed,
                       int32_t *cb) {
  const onnxc_qconv2d_params *p = j->p;
  i64 G = p->groups, C = p->in_channels;
  i64 g = ng % G, n = ng / G;
  i64 p0 = blk * j->nc, nc = min64(j->nc, j->npos - p0);
  i64 width = ceil_div(nc, QNR) * QNR;
  const uint8_t *xg = j->x + (n * G + g) * C * p->in_h * p->in_w;
  planes_geo geo = planes_of(p, p0, nc);
  void *raw;
  /* The planes and a plane of zeros (what rows past K read). */
  uint8_t *planes = onnxc_rt_qalloc((C + 1) * geo.hp * geo.row + QNR, &raw);
  if (j->need_cb)
    memset(cb, 0, (size_t)width * sizeof(int32_t));
  fill_planes(j, xg, &geo, planes);
  if (j->k4 * 4 > j->k)
    memset(planes + C * geo.hp * geo.row, 0, (size_t)(geo.hp * geo.row + QNR));
  pack_planes(j, &geo, p0, nc, planes, planes + C * geo.hp * geo.row, packed,
              j->need_cb ? cb : NULL);
  onnxc_rt_qfree(raw);
}

/* Output channels [ms * mstep, ...) by block blk of image and group ng,
 * from its packed panels and column sums. */
static void multiply_block(const qconv_job *j, i64 ng, i64 blk, i64 ms,
                           const uint8_t *packed, const int32_t *cb) {
  const onnxc_qconv2d_params *p = j->p;
  i64 G = p->groups, M = p->out_channels;
  i64 g = ng % G, n = ng / G;
  i64 p0 = blk * j->nc, nc = min64(j->nc, j->npos - p0);
  i64 m0 = ms * j->mstep, m1 = min64(M, m0 + j->mstep);
  i64 r = g * M + m0;
  mm_args x;
  x.k4 = j->k4;
  x.a = j->w + r * j->kp;
  x.lda = j->kp;
  x.bp = packed;
  x.pstride = j->k4 * 4 * QNR;
  x.rows = m1 - m0;
  x.ncols = nc;
  x.c = j->y + ((n * G * M + r) * j->npos + p0) * j->osize;
  x.rsc = j->npos;
  x.osize = j->osize;
  x.ep = j->base;
  x.ep.radd = j->radd + r;
  x.ep.rmul = j->rmul ? j->rmul + r : NULL;
  x.ep.scale = j->scale ? j->scale + r : NULL;
  x.ep.bias = j->bias ? j->bias + r : NULL;
  x.ep.cmul = j->need_cb ? cb : NULL;
  onnxc_rt_qmultiply(j->isa, &x);
}

/* The bytes of a block's packed panels and their column sums (whole cache
 * lines: blocks packed by different threads share none); the sums. */
static i64 block_bytes(const qconv_job *j) {
  i64 width = ceil_div(j->nc, QNR) * QNR;
  return (j->k4 * 4 * width + 4 * width + 63) / 64 * 64;
}

static int32_t *block_sums(const qconv_job *j, uint8_t *packed) {
  return (int32_t *)(packed + j->k4 * 4 * ceil_div(j->nc, QNR) * QNR);
}

/* One image, group and block, every output channel: packed, then
 * multiplied. */
static void qconv_chunk(void *arg, int64_t chunk) {
  const qconv_job *j = arg;
  i64 blk = chunk % j->blocks, ng = chunk / j->blocks;
  void *raw;
  uint8_t *packed = onnxc_rt_qalloc(block_bytes(j), &raw);
  int32_t *cb = block_sums(j, packed);
  pack_block(j, ng, blk, packed, cb);
  multiply_block(j, ng, blk, 0, packed, cb);
  onnxc_rt_qfree(raw);
}

/* A call split by channels too (msplit parts per block): each block is
 * packed once into `shared` (block_bytes apart), then every part of its
 * channels multiplies it, instead of each part packing the block again
 * (at two threads, ResNet-18's int8 layers of 14 x 14 and 7 x 7 packed
 * each block 2 to 4 times: the packing's share of the run rose from 14%
 * to 30%). */
static void pack_chunk(void *arg, int64_t chunk) {
  const qconv_job *j = arg;
  uint8_t *packed = j->shared + chunk * block_bytes(j);
  pack_block(j, chunk / j->blocks, chunk % j->blocks, packed,
             block_sums(j, packed));
}

static void multiply_chunk(void *arg, int64_t chunk) {
  const qconv_job *j = arg;
  i64 ms = chunk % j->msplit, bc = chunk / j->msplit;
  uint8_t *packed = j->shared + bc * block_bytes(j);
  multiply_block(j, bc / j->blocks, bc % j->blocks, ms, packed,
                 block_sums(j, packed));
}

/* Depthwise convolutions (one input and one output channel per group, no
 * column dilation) on tiers with dw_row: for a run of channels, the padded
 * planes of the whole image, then each output row (or several short ones
 * at once) from groups of 4 taps. For column strides up to 4 the planes
 * keep their input columns in order and output o's 4 taps kw = 4c .. 4c+3
 * are the bytes s o + 4c .. + 3 of the row: the index steps by s, and 32
 * outputs span at most 4 x 31 + 4 bytes of the 128-byte window (no
 * splitting into phases). Larger strides split rows into their s phases
 * (taps kw = f, f + s, ... consecutive in phase f). No packing, no 8-row
 * tile for one channel. */
#define DW_MAX 64 /* groups of 4 taps per output row */
#define DW_FLAT_S 4 /* the largest column stride read without phases */

/* At least the groups of 4 taps of an output (flat rows: ceil(kw / 4) per
 * kernel row; phases: ceil(taps of the phase / 4) per phase). */
static i64 nsrc_max(const onnxc_qconv2d_params *p) {
  return p->kernel_h *
         (p->stride_w <= DW_FLAT_S
              ? ceil_div(p->kernel_w, 4)
              : p->stride_w * ceil_div(ceil_div(p->kernel_w, p->stride_w), 4));
}

static int depthwise_rows(const qconv_job *j) {
  const onnxc_qconv2d_params *p = j->p;
  return j->isa->dw_row && p->in_channels == 1 && p->out_channels == 1 &&
         p->dilation_w == 1 && nsrc_max(p) <= DW_MAX;
}

/* The planes' geometry of a depthwise convolution: with stride_w <= 4 as
 * if its stride were 1 (the same padded columns, no phases). */
static planes_geo dw_geo(const onnxc_qconv2d_params *p, onnxc_qconv2d_params *flat) {
  *flat = *p;
  if (p->stride_w <= DW_FLAT_S) {
    flat->out_w = (p->out_w - 1) * p->stride_w + 1;
    flat->stride_w = 1;
  }
  return planes_of(flat, 0, flat->out_h * flat->out_w);
}

static void dw_chunk(void *arg, int64_t chunk) {
  const qconv_job *j = arg;
  const onnxc_qconv2d_params *p = j->p;
  /* Channels [g0, g1) of image n (j->nc of them a part). */
  i64 parts = ceil_div(p->groups, j->nc);
  i64 n = chunk / parts, g0 = chunk % parts * j->nc;
  i64 g1 = min64(p->groups, g0 + j->nc), g;
  onnxc_qconv2d_params pc;
  planes_geo geo = dw_geo(p, &pc);
  /* Columns: flat, output o's taps from byte cs * o; phases, from o. */
  i64 s = pc.stride_w, cs = p->stride_w / s, oh, kh, f, c, t, nsrc = 0;
  i64 rows, plane = geo.hp * geo.row;
  i64 off[DW_MAX], rowoff[DW_MAX], kidx[DW_MAX][4];
  int32_t ones[DW_MAX], *wd;
  const uint8_t *src[DW_MAX];
  uint8_t idx[32];
  void *raw;
  /* The planes, 256 bytes of slack, the weights (nsrc per channel). */
  i64 wdat = ceil_div((g1 - g0) * plane + 256, 64) * 64;
  uint8_t *planes = onnxc_rt_qalloc(wdat + (g1 - g0) * nsrc_max(p) * 4, &raw);
  qconv_job jc = *j;
  qepi ep = j->base;
  wd = (int32_t *)(planes + wdat);
  /* The channels' planes at once (consecutive in x, as the channels of
   * one group would be). */
  pc.in_channels = g1 - g0;
  jc.p = &pc;
  fill_planes(&jc, j->x + (n * p->groups + g0) * p->in_h * p->in_w, &geo,
              planes);
  memset(planes + (g1 - g0) * plane, 0, 256);
  /* The groups of taps: kernel row kh, phase f, taps kw = f + s (4c + t)
   * (kidx: their weights' indices, -1 for none). */
  for (kh = 0; kh < p->kernel_h; ++kh)
    for (f = 0; f < s && f < p->kernel_w; ++f)
      for (c = 0; f + s * 4 * c < p->kernel_w; ++c) {
        uint32_t ov = 0;
        for (t = 0; t < 4; ++t) {
          i64 kw = f + s * (4 * c + t);
          kidx[nsrc][t] = kw < p->kernel_w ? kh * p->kernel_w + kw : -1;
          if (kw < p->kernel_w)
            ov |= 1u << (8 * t);
        }
        ones[nsrc] = (int32_t)ov;
        rowoff[nsrc] = kh * p->dilation_h * geo.row;
        off[nsrc] = f * geo.wps + 4 * c;
        ++nsrc;
      }
  /* Short rows: R rows of out_w outputs per call, their bytes in one
   * 128-byte window (idx jumps from row to row). */
  rows = 1;
  if (p->out_w < 32 && j->isa->dw_short_rows) {
    rows = 32 / p->out_w;
    while (rows > 1 &&
           (rows - 1) * p->stride_h * geo.row + cs * (p->out_w - 1) + 3 > 127)
      --rows;
  }
  for (t = 0; t < 32; ++t)
    idx[t] = (uint8_t)(cs * t);
  if (rows > 1)
    for (oh = 0; oh < rows; ++oh)
      for (t = 0; t < p->out_w; ++t)
        idx[oh * p->out_w + t] =
            (uint8_t)(oh * p->stride_h * geo.row + cs * t);
  /* Each channel's groups of 4 weights. */
  for (g = g0; g < g1; ++g) {
    const int8_t *w = j->w + g * j->kp;
    for (c = 0; c < nsrc; ++c) {
      uint32_t wv = 0;
      for (t = 0; t < 4; ++t)
        if (kidx[c][t] >= 0)
          wv |= (uint32_t)(uint8_t)w[kidx[c][t]] << (8 * t);
      wd[(g - g0) * nsrc + c] = (int32_t)wv;
    }
  }
  for (c = 0; c < nsrc; ++c)
    src[c] = planes + rowoff[c] + off[c];
  ep.radd = j->radd + g0;
  ep.rmul = j->rmul ? j->rmul + g0 : NULL;
  ep.scale = j->scale ? j->scale + g0 : NULL;
  ep.bias = j->bias ? j->bias + g0 : NULL;
  j->isa->dw_row(src, g1 - g0, plane, wd, ones, (int)nsrc, j->npos,
                 rows * p->out_w, rows * p->stride_h * geo.row, 32 * cs, idx,
                 j->need_cb, &ep, j->y + (n * p->groups + g0) * j->npos * j->osize,
                 j->npos);
  onnxc_rt_qfree(raw);
}

/* Rows of W[rows][c][khw] (uint8 bytes, ^ flip: int8) in HWC order
 * (runtime_abi.h's ONNXC_Q_W_HWC; c a multiple of 4), with their sums. */
static void pack_rows_hwc(const uint8_t *w, i64 rows, i64 c, i64 khw,
                         uint8_t flip, int8_t *dst, int32_t *sums) {
  i64 r, ch, tap;
  for (r = 0; r < rows; ++r) {
    const uint8_t *src = w + r * c * khw;
    int8_t *d = dst + r * c * khw;
    int32_t sum = 0;
    for (ch = 0; ch < c; ++ch)
      for (tap = 0; tap < khw; ++tap) {
        int8_t v = (int8_t)(src[ch * khw + tap] ^ flip);
        d[tap * c + ch] = v;
        sum += v;
      }
    sums[r] = sum;
  }
}

void onnxc_rt_qconv2d(const onnxc_qconv2d_params *p, const void *x,
                      const void *w, void *y) {
  const onnxc_qparams *q = &p->q;
  const qgemm_isa *isa = onnxc_rt_qgemm_isa();
  qconv_job j;
  i64 rows = p->groups * p->out_channels, r;
  int a_signed = (q->flags & ONNXC_Q_A_SIGNED) != 0;
  int b_signed = (q->flags & ONNXC_Q_B_SIGNED) != 0;
  int out = (int)(q->flags & ONNXC_Q_OUT_MASK);
  int32_t zc, *radd, *rmul;
  const int32_t *ra;
  float *scale = NULL, *fbias = NULL;
  void *raw_w = NULL, *raw_pad = NULL, *raw_arrays;
  i64 chunks;
  int threads;
  memset(&j, 0, sizeof j);
  if (p->batch <= 0 || rows <= 0 || p->out_h <= 0 || p->out_w <= 0)
    return;
  j.p = p;
  j.isa = isa;
  j.x = x;
  j.y = y;
  j.k = p->in_channels * p->kernel_h * p->kernel_w;
  j.k4 = ceil_div(j.k, 4);
  j.kp = 4 * j.k4;
  j.npos = p->out_h * p->out_w;
  j.osize = onnxc_rt_qout_size(q);
  radd = onnxc_rt_qalloc(rows * 16, &raw_arrays);
  rmul = radd + rows;
  scale = (float *)(rmul + rows);
  fbias = out == ONNXC_Q_OUT_F32 && (q->flags & ONNXC_Q_BIAS) && q->bias
              ? scale + rows
              : NULL;
  /* The weights as the rows side, with their sums: packed by the
   * compiler, or here (in HWC order where the compiler would use it). */
  if (q->flags & ONNXC_Q_B_PACKED) {
    /* The compiler's constant: kept in the runtime's pages when large. */
    w = onnxc_rt_kept_bytes(w, (size_t)(rows * (j.kp + 4)));
    j.w = w;
    j.hwc = (q->flags & ONNXC_Q_W_HWC) != 0;
    ra = (const int32_t *)((const int8_t *)w + rows * j.kp);
  } else {
    int8_t *wp = onnxc_rt_qalloc(rows * j.kp + rows * 4, &raw_w);
    int32_t *sums = (int32_t *)(wp + rows * j.kp);
    i64 khw = p->kernel_h * p->kernel_w;
    j.hwc = p->in_channels % 4 == 0 && khw > 1;
    if (j.hwc)
      pack_rows_hwc(w, rows, p->in_channels, khw, b_signed ? 0 : 0x80, wp,
                   sums);
    else
      onnxc_rt_qpack_rows(w, rows, j.k, j.k, b_signed ? 0 : 0x80, wp, j.kp,
                          sums);
    ra = sums;
    j.w = wp;
  }
  /* Stored input x' = x ^ xflip = x - ox with ox = -128 for int8; stored
   * weights w' = w - ow with ow = 128 for uint8. */
  j.xflip = a_signed ? 0x80 : 0;
  zc = onnxc_rt_qzp_at(q->a_zp, a_signed, 0) + (a_signed ? 128 : 0);
  j.pad = (uint8_t)zc;
  j.need_cb = 0;
  for (r = 0; r < rows; ++r) {
    int32_t zr = onnxc_rt_qzp_at(q->b_zp, b_signed,
                       (q->flags & ONNXC_Q_B_ZP_PER_CHANNEL) ? r : 0) -
                 (b_signed ? 0 : 128);
    /* acc - zc * rowsum - zr * colsum + K * zr * zc (+ the int32 bias). */
    radd[r] = (int32_t)((uint32_t)onnxc_rt_qint_bias(q, r) - (uint32_t)zc * (uint32_t)ra[r] +
                        (uint32_t)j.k * (uint32_t)zr * (uint32_t)zc);
    rmul[r] = -zr;
    if (zr)
      j.need_cb = 1;
  }
  onnxc_rt_qchannel_scales(q, rows, scale, fbias);
  j.radd = radd;
  j.rmul = j.need_cb ? rmul : NULL;
  j.scale = out == ONNXC_Q_OUT_I32 ? NULL : scale;
  j.bias = fbias;
  onnxc_rt_qepi_base(q, 1, &j.base);
  threads = onnxc_rt_threads_for(2.0 * (double)rows * (double)j.k *
                                 (double)j.npos * (double)p->batch);
  if (depthwise_rows(&j)) {
    /* Runs of channels whose planes take about 32 KiB a part, at least
     * 4 parts per thread. */
    onnxc_qconv2d_params flat;
    planes_geo geo = dw_geo(p, &flat);
    i64 plane = geo.hp * geo.row;
    j.nc = max64(1, min64(32768 / plane, p->groups));
    while (j.nc > 1 && p->batch * ceil_div(p->groups, j.nc) < 4 * threads)
      j.nc = (j.nc + 1) / 2;
    onnxc_rt_parallel_for(p->batch * ceil_div(p->groups, j.nc), threads,
                          dw_chunk, &j);
    onnxc_rt_qfree(raw_arrays);
    onnxc_rt_qfree(raw_w);
    return;
  }
  if (onnxc_rt_qconv_direct(&j, threads)) {
    onnxc_rt_qfree(raw_arrays);
    onnxc_rt_qfree(raw_w);
    return;
  }
  /* AMX steps need a divisor of the depth from 4 to 16 groups; without one
   * (a stem's 3 x 7 x 7 = 147 k: 37 groups) the rows are copied padded
   * with zeros to a multiple of 16 groups (such weights are small) and the
   * panels packed as deep (their groups past K are zeros). */
  if (isa->amx_tile && p->out_channels >= 16 && !onnxc_q_amx_chunk(j.k4)) {
    i64 k4p = ceil_div(j.k4, 16) * 16;
    int8_t *wp = onnxc_rt_qalloc(rows * 4 * k4p, &raw_pad);
    for (r = 0; r < rows; ++r) {
      memcpy(wp + r * 4 * k4p, j.w + r * j.kp, (size_t)j.kp);
      memset(wp + r * 4 * k4p + j.kp, 0, (size_t)(4 * k4p - j.kp));
    }
    j.w = wp;
    j.k4 = k4p;
    j.kp = 4 * k4p;
  }
  /* Blocks of positions: their packed im2col about 256 KiB (L2). */
  j.nc = min64(MAX_NC, max64(QNR, (262144 / j.kp) / QNR * QNR));
  /* Up to twice that for one block of the whole map instead of two (a
   * second pass over the weights): ResNet's 512 -> 512 over 7 x 7 is 49
   * positions, 32 a block at its depth (4608); as one block, 64 columns
   * of panels (288 KiB); on the AVX-VNNI tier 0.72 -> 0.65 ms. */
  if (j.npos <= 2 * j.nc && j.npos <= MAX_NC)
    j.nc = j.npos;
  j.blocks = ceil_div(j.npos, j.nc);
  chunks = p->batch * p->groups * j.blocks;
  j.msplit = 1;
  j.mstep = p->out_channels;
  if (threads > 1 && chunks < (i64)threads * PARTS_PER_THREAD) {
    /* Few blocks (small maps): split the channels too (each part packs
     * its block again: cheap next to the product when channels are
     * many). */
    i64 tiles = ceil_div(p->out_channels, isa->mr);
    i64 want = ceil_div((i64)threads * PARTS_PER_THREAD, chunks);
    j.msplit = min64(tiles, want);
    j.mstep = ceil_div(tiles, j.msplit) * isa->mr;
    j.msplit = ceil_div(p->out_channels, j.mstep);
  }
  if (j.msplit > 1) {
    void *raw_shared;
    j.shared = onnxc_rt_qalloc(chunks * block_bytes(&j), &raw_shared);
    onnxc_rt_parallel_for(chunks, threads, pack_chunk, &j);
    onnxc_rt_parallel_for(chunks * j.msplit, threads, multiply_chunk, &j);
    onnxc_rt_qfree(raw_shared);
  } else {
    onnxc_rt_parallel_for(chunks, threads, qconv_chunk, &j);
  }
  onnxc_rt_qfree(raw_pad);
  onnxc_rt_qfree(raw_arrays);
  onnxc_rt_qfree(raw_w);
}
