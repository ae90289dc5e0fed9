/*===- resize.c - Resize's antialias filter tables at run time ------------===*
 *
 * onnxc_rt_resize_aa_width / onnxc_rt_resize_aa_table (runtime_abi.h has
 * the contract): the taps and weights of one resized dim under antialias
 * when its sizes or scale are known only at run time. The arithmetic is
 * the compiler's antialiasTapTable (passes/Conversion/ONNXToLinalg/
 * Resize.cpp) step for step, ONNX Runtime's SetupUpsampleFilterAntiAlias
 * in f32, so a table built here equals the constant one the compiler
 * builds for static sizes.
 *===----------------------------------------------------------------------===*/

#include "onnxc/runtime_abi.h"

#include <math.h>

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
