/*===- resize.c - Resize: antialias tables, the H x W kernel --------------===*
 *
 * onnxc_rt_resize_aa_width / onnxc_rt_resize_aa_table (runtime_abi.h has
 * the contract): the taps and weights of one resized dim under antialias
 * when its sizes or scale are known only at run time. The arithmetic is
 * the compiler's antialiasTapTable (passes/Conversion/ONNXToLinalg/
 * Resize.cpp) step for step, ONNX Runtime's SetupUpsampleFilterAntiAlias
 * in f32, so a table built here equals the constant one the compiler
 * builds for static sizes.
 *
 * onnxc_rt_resize2d (runtime_abi.h has the contract): a Resize of fp32
 * over H and W with the compiler's tap tables, computed separably. Per
 * plane, each input row that some output row reads is interpolated along
 * W once, into a scratch plane of in_h rows of out_w (computed when first
 * needed, so rows no tap reads are skipped); each output row is then the
 * weighted sum of its h_taps such rows, whole rows at a time (unit
 * stride: vectorized). The generic the linalg lowering emits instead
 * computes every output element from its h_taps * w_taps input elements,
 * with the index arithmetic per element. Nearest (no weight tables) copies:
 * an output row that reads the same input row as the one before it is a
 * copy of that row. Planes are split across threads.
 *===----------------------------------------------------------------------===*/

#include "internal.h"
#include "onnxc/runtime_abi.h"

#include <math.h>
#include <string.h>

typedef int64_t i64;

static i64 clamp64(i64 v, i64 lo, i64 hi) { return v < lo ? lo : v > hi ? hi : v; }

/* The filter's support (1 linear, 2 cubic) stretched by 1/scale when
 * downsampling. */
static float support_of(int32_t cubic, double s) {
  float scale = 1.0f / (float)s;
  float size = cubic ? 4.0f : 2.0f;
  return scale >= 1.0f ? size * 0.5f * scale : size * 0.5f;
}

/* The window (ceil(support) * 2 + 1), saturated far below 2^63. */
static i64 window_of(float support) {
  float c = ceilf(support);
  if (!(c < 0x1p52f))
    return (i64)1 << 53;
  return (i64)c * 2 + 1;
}

i64 onnxc_rt_resize_aa_width(int32_t cubic, double scale, i64 in_size) {
  i64 w = window_of(support_of(cubic, scale));
  if (in_size < w)
    w = in_size;
  return w < 1 ? 1 : w;
}

/* The source coordinate of output index o (f64), coordinate modes as
 * ONNXC_RESIZE_*. */
static double source_coordinate(int32_t coord, i64 o, i64 in_size,
                                i64 out_size, double s) {
  double in = (double)in_size, out = (double)out_size, xo = (double)o;
  double hp = (xo + 0.5) / s - 0.5;
  double out_f = s * in;
  int out_is_one = out_f == 1;
  switch (coord) {
  case ONNXC_RESIZE_HALF_PIXEL:
    return hp;
  case ONNXC_RESIZE_HALF_PIXEL_SYMMETRIC: {
    double adj = out / (s * in);
    double center = in * 0.5;
    double offset = center * (1 - adj);
    return offset + hp;
  }
  case ONNXC_RESIZE_PYTORCH_HALF_PIXEL:
    return out_is_one ? 0 : hp;
  case ONNXC_RESIZE_ALIGN_CORNERS:
    return out_is_one ? 0 : (xo * (in - 1)) / (out_f - 1);
  case ONNXC_RESIZE_ASYMMETRIC:
    return xo / s;
  case ONNXC_RESIZE_TF_HALF_PIXEL_FOR_NN:
    return (xo + 0.5) / s;
  default:
    return 0;
  }
}

static float filter(int32_t cubic, float a, float x) {
  x = fabsf(x);
  if (!cubic)
    return x < 1.0f ? 1.0f - x : 0.0f;
  if (x < 1.0f)
    return ((a + 2.0f) * x - (a + 3.0f)) * x * x + 1;
  if (x < 2.0f)
    return (((x - 5.0f) * x + 8.f) * x - 4.f) * a;
  return 0.0f;
}

void onnxc_rt_resize_aa_table(int32_t cubic, int32_t coord, double cubic_a,
                              int32_t exclude_outside, i64 in_size,
                              i64 out_size, double s, i64 width, i64 *index,
                              double *weight) {
  float scale = 1.0f / (float)s;
  float support = support_of(cubic, s);
  i64 window = window_of(support);
  float inv_scale = scale >= 1.0f ? 1.0f / scale : 1.0f;
  float a = (float)cubic_a;
  for (i64 o = 0; o < out_size; ++o) {
    i64 *ix = index + o * width;
    double *wt = weight + o * width;
    float center =
        0.5f + (scale == 1.0f ? (float)o
                              : (float)source_coordinate(coord, o, in_size,
                                                         out_size, s));
    i64 xmin_real = (i64)floorf(center - support + 0.5f);
    i64 xmax_real = (i64)floorf(center + support + 0.5f);
    xmax_real = xmin_real + clamp64(xmax_real - xmin_real, 0, window);
    i64 xmin_cut = clamp64(xmin_real, 0, in_size);
    i64 xmax_cut = clamp64(xmax_real, 0, in_size);
    i64 xmin = exclude_outside ? xmin_cut : xmin_real;
    i64 count = (exclude_outside ? xmax_cut : xmax_real) - xmin;
    i64 used = xmax_cut - xmin_cut;
    if (used > width)
      used = width; /* never: width >= min(window, in_size) */
#define W(x) filter(cubic, a, ((float)((x) + xmin) - center + 0.5f) * inv_scale)
    float total = 0.0f;
    for (i64 x = 0; x < count; ++x)
      total += W(x);
    /* Slot k is tap xmin_cut + k: tap x of the window is slot x - neg;
     * without exclude_outside the taps left of the input add into the
     * first slot, those right of it into the last, in the order the
     * compiler's table adds them. */
    i64 neg = 0, past = 0;
    int fold = !exclude_outside && xmin_cut < xmax_cut;
    if (fold) {
      neg = clamp64(-xmin, 0, count - 1);
      past = clamp64(count + xmin - in_size, 0, count - 1);
    }
    float buf0 = 0.0f;
    for (i64 k = 0; k < width; ++k)
      wt[k] = 0;
    for (i64 k = 0; k < used; ++k)
      wt[k] = W(k + neg);
    if (fold) {
      buf0 = (float)wt[0];
      for (i64 x = 0; x < neg; ++x)
        buf0 += W(x);
      if (used > 0)
        wt[0] = buf0;
      i64 last = count - past - 1 - neg;
      if (last >= 0 && last < used) {
        float b = (float)wt[last];
        for (i64 x = count - past; x < count; ++x)
          b += W(x);
        wt[last] = b;
      }
    }
#undef W
    float inv = total == 0.0f ? 1.0f : 1.0f / total;
    for (i64 k = 0; k < width; ++k) {
      int in_use = k < used;
      ix[k] = in_use ? xmin_cut + k : 0;
      wt[k] = in_use ? (double)((float)wt[k] * inv) : 0.0;
    }
  }
}

/* ---- onnxc_rt_resize2d ------------------------------------------------- */

/* dst[ox] = sum_j w[ox, j] * src[index[ox, j]] (w NULL: one tap, copied). */
static void resize_row(const float *src, const i64 *index, const float *w,
                       i64 taps, i64 out_w, float *dst) {
  i64 ox, j;
  if (!w) {
    for (ox = 0; ox < out_w; ++ox)
      dst[ox] = src[index[ox]];
    return;
  }
  if (taps == 2) {
    for (ox = 0; ox < out_w; ++ox)
      dst[ox] = w[2 * ox] * src[index[2 * ox]] +
                w[2 * ox + 1] * src[index[2 * ox + 1]];
    return;
  }
  for (ox = 0; ox < out_w; ++ox) {
    const i64 *ix = index + ox * taps;
    const float *wx = w + ox * taps;
    float acc = wx[0] * src[ix[0]];
    for (j = 1; j < taps; ++j)
      acc += wx[j] * src[ix[j]];
    dst[ox] = acc;
  }
}

typedef struct resize_job {
  const onnxc_resize2d_params *p;
  const float *x;
  float *y;
  const i64 *h_index, *w_index;
  const float *h_weight, *w_weight;
  i64 step, chunks;
} resize_job;

/* Planes [lo, lo + count). */
static void resize_planes(const resize_job *j, i64 lo, i64 count) {
  const onnxc_resize2d_params *p = j->p;
  const i64 in_plane = p->in_h * p->in_w, out_plane = p->out_h * p->out_w;
  const i64 th = p->h_taps;
  float *rows = NULL; /* [in_h][out_w] rows interpolated along W */
  unsigned char *done = NULL;
  void *raw = NULL;
  i64 c, oy, ox, k;
  if (j->h_weight) {
    /* The flags after the rows, in the same scratch buffer. */
    i64 floats = p->in_h * p->out_w + (p->in_h + 3) / 4;
    rows = onnxc_rt_alloc_scratch(floats, &raw);
    done = (unsigned char *)(rows + p->in_h * p->out_w);
  }
  for (c = lo; c < lo + count; ++c) {
    const float *xc = j->x + c * in_plane;
    float *yc = j->y + c * out_plane;
    if (!j->h_weight) {
      /* One input row per output row: interpolated along W into Y, or a
       * copy of the output row before when that read the same one. */
      for (oy = 0; oy < p->out_h; ++oy) {
        float *yr = yc + oy * p->out_w;
        if (oy > 0 && j->h_index[oy * th] == j->h_index[(oy - 1) * th])
          memcpy(yr, yr - p->out_w, (size_t)p->out_w * sizeof(float));
        else
          resize_row(xc + j->h_index[oy * th] * p->in_w, j->w_index,
                     j->w_weight, p->w_taps, p->out_w, yr);
      }
      continue;
    }
    memset(done, 0, (size_t)p->in_h);
    for (oy = 0; oy < p->out_h; ++oy) {
      const i64 *iy = j->h_index + oy * th;
      const float *wy = j->h_weight + oy * th;
      float *yr = yc + oy * p->out_w;
      for (k = 0; k < th; ++k)
        if (!done[iy[k]]) {
          resize_row(xc + iy[k] * p->in_w, j->w_index, j->w_weight, p->w_taps,
                     p->out_w, rows + iy[k] * p->out_w);
          done[iy[k]] = 1;
        }
      if (th == 2) {
        const float *r0 = rows + iy[0] * p->out_w, *r1 = rows + iy[1] * p->out_w;
        const float w0 = wy[0], w1 = wy[1];
        for (ox = 0; ox < p->out_w; ++ox)
          yr[ox] = w0 * r0[ox] + w1 * r1[ox];
        continue;
      }
      {
        const float *r0 = rows + iy[0] * p->out_w;
        const float w0 = wy[0];
        for (ox = 0; ox < p->out_w; ++ox)
          yr[ox] = w0 * r0[ox];
      }
      for (k = 1; k < th; ++k) {
        const float *r = rows + iy[k] * p->out_w;
        const float w = wy[k];
        for (ox = 0; ox < p->out_w; ++ox)
          yr[ox] += w * r[ox];
      }
    }
  }
  if (raw)
    onnxc_rt_free_scratch(raw);
}

static void resize_chunk(void *arg, int64_t chunk) {
  const resize_job *j = arg;
  i64 lo = chunk * j->step;
  i64 count = j->p->planes - lo < j->step ? j->p->planes - lo : j->step;
  if (count > 0)
    resize_planes(j, lo, count);
}

void onnxc_rt_resize2d(const onnxc_resize2d_params *p, const float *x,
                       float *y, const int64_t *h_index, const float *h_weight,
                       const int64_t *w_index, const float *w_weight) {
  resize_job j;
  int threads;
  if (p->planes <= 0 || p->out_h <= 0 || p->out_w <= 0)
    return;
  j.p = p;
  j.x = x;
  j.y = y;
  j.h_index = h_index;
  j.w_index = w_index;
  j.h_weight = h_weight;
  j.w_weight = w_weight;
  /* About two operations per tap and output element. */
  threads = onnxc_rt_threads_for(2.0 * (double)p->planes * (double)p->out_h *
                                 (double)p->out_w *
                                 (double)(p->h_taps + p->w_taps));
  if (threads <= 1 || p->planes < 2) {
    resize_planes(&j, 0, p->planes);
    return;
  }
  /* Planes in chunks of equal size, a few per thread. */
  j.chunks = p->planes < 4 * threads ? p->planes : 4 * threads;
  j.step = (p->planes + j.chunks - 1) / j.chunks;
  j.chunks = (p->planes + j.step - 1) / j.step;
  onnxc_rt_parallel_for(j.chunks, threads, resize_chunk, &j);
}
