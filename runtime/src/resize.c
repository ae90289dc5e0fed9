/*===- resize.c - Resize over the last two dims for generated code --------===*
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

#include <string.h>

typedef int64_t i64;

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
