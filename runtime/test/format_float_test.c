/*===- format_float_test.c - Cast-to-string formatting, one value a line ---===*
 *
 * Drives onnxc_rt_format_float (runtime/src/strings.c) for
 * test/runtime/Inputs/format_float_check.py, which compares the output with
 * numpy's str() (float64, float32, float16) and an exact reference
 * (bfloat16). Reads lines "KIND HEXBITS" (KIND: f64, f32, f16, bf16; the
 * value's bits in that type, in hex) and writes one formatted string a line.
 *===----------------------------------------------------------------------===*/

#include "onnxc/runtime_abi.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double half_to_double(unsigned h) {
  int e = (int)((h >> 10) & 0x1f);
  double m = (double)(h & 0x3ff), v;
  if (e == 31)
    v = m != 0 ? NAN : INFINITY;
  else if (e == 0)
    v = ldexp(m, -24);
  else
    v = ldexp(m + 1024.0, e - 25);
  return (h & 0x8000) ? -v : v;
}

int main(void) {
  char kind[8], buf[64];
  unsigned long long bits;
  while (scanf("%7s %llx", kind, &bits) == 2) {
    double v;
    int k;
    if (strcmp(kind, "f64") == 0) {
      memcpy(&v, &bits, sizeof v);
      k = ONNXC_RT_FLOAT_F64;
    } else if (strcmp(kind, "f32") == 0 || strcmp(kind, "bf16") == 0) {
      unsigned u = strcmp(kind, "bf16") == 0 ? (unsigned)bits << 16
                                             : (unsigned)bits;
      float f;
      memcpy(&f, &u, sizeof f);
      v = f;
      k = kind[0] == 'b' ? ONNXC_RT_FLOAT_BF16 : ONNXC_RT_FLOAT_F32;
    } else if (strcmp(kind, "f16") == 0) {
      v = half_to_double((unsigned)bits);
      k = ONNXC_RT_FLOAT_F16;
    } else {
      fprintf(stderr, "unknown kind '%s'\n", kind);
      return 1;
    }
    onnxc_rt_format_float(buf, sizeof buf, v, k);
    puts(buf);
  }
  return 0;
}
