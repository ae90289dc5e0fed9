/*===- kernels/dispatch.c - Filling the kernel table once per process -----===*
 *
 * The tier is chosen on the first kernel call: the best one the CPU has
 * and the OS enables (cpuid and xgetbv on x86-64; portable elsewhere),
 * unless ONNXC_ISA=portable|avx2|avx512 asks for another. A tier the CPU
 * lacks falls back to the best it has below it (ONNXC_ISA=avx512 on an
 * AVX2 laptop runs avx2), silently: tests may ask for every tier on any
 * machine. ONNXC_DISABLE_AVX512=1 (the older switch) caps the tier at avx2
 * when ONNXC_ISA is not set. An unknown ONNXC_ISA value is ignored with a
 * warning on stderr. pthread_once makes the fill thread-safe; the table is
 * read-only afterwards.
 *===----------------------------------------------------------------------===*/

#include "dispatch.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef ONNXC_X86
#include <cpuid.h>
#endif

static const char *const names[ONNXC_ISA_COUNT] = {"portable", "avx2",
                                                   "avx512"};

const char *onnxc_rt_isa_name(onnxc_isa isa) {
  return isa >= 0 && isa < ONNXC_ISA_COUNT ? names[isa] : "?";
}

onnxc_isa onnxc_rt_isa_supported(void) {
#ifdef ONNXC_X86
  unsigned eax, ebx, ecx, edx, xcr0, hi;
  int avx2, avx512;
  if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx))
    return ONNXC_ISA_PORTABLE;
  /* OSXSAVE (27), AVX (28), FMA (12). */
  if (!(ecx & (1u << 27)) || !(ecx & (1u << 28)) || !(ecx & (1u << 12)))
    return ONNXC_ISA_PORTABLE;
  __asm__ volatile("xgetbv" : "=a"(xcr0), "=d"(hi) : "c"(0));
  (void)hi;
  if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx))
    return ONNXC_ISA_PORTABLE;
  /* The OS saves the xmm and ymm state (XCR0 bits 1, 2); AVX2 (leaf 7
   * EBX bit 5). */
  avx2 = (xcr0 & 0x6u) == 0x6u && (ebx & (1u << 5));
  /* And the opmask and zmm state (bits 5, 6, 7); AVX-512 F (16), DQ (17),
   * BW (30), VL (31). */
  avx512 = avx2 && (xcr0 & 0xe6u) == 0xe6u &&
           (ebx & ((1u << 16) | (1u << 17) | (1u << 30) | (1u << 31))) ==
               ((1u << 16) | (1u << 17) | (1u << 30) | (1u << 31));
  return avx512 ? ONNXC_ISA_AVX512 : avx2 ? ONNXC_ISA_AVX2 : ONNXC_ISA_PORTABLE;
#else
  return ONNXC_ISA_PORTABLE;
#endif
}

onnxc_isa onnxc_rt_isa_choose(const char *isa_env, const char *disable_avx512,
                              onnxc_isa best, int *bad) {
  onnxc_isa want = best;
  int i;
  *bad = 0;
  if (isa_env && isa_env[0]) {
    for (i = 0; i < ONNXC_ISA_COUNT; ++i)
      if (strcmp(isa_env, names[i]) == 0)
        break;
    if (i < ONNXC_ISA_COUNT)
      return (onnxc_isa)i < best ? (onnxc_isa)i : best;
    *bad = 1;
  }
  if (disable_avx512 && disable_avx512[0] && strcmp(disable_avx512, "0") != 0 &&
      want > ONNXC_ISA_AVX2)
    want = ONNXC_ISA_AVX2;
  return want;
}

static onnxc_kernels table;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void fill(void) {
  int bad;
  const char *env = getenv("ONNXC_ISA");
  onnxc_isa isa = onnxc_rt_isa_choose(env, getenv("ONNXC_DISABLE_AVX512"),
                                      onnxc_rt_isa_supported(), &bad);
  if (bad)
    fprintf(stderr,
            "onnxc: ignoring ONNXC_ISA='%s' (not one of portable, avx2, "
            "avx512)\n",
            env);
  memset(&table, 0, sizeof table);
  onnxc_rt_sgemm_fill_portable(&table);
  onnxc_rt_pack_fill_portable(&table);
  onnxc_rt_maxpool_fill_portable(&table);
  onnxc_rt_depthwise_fill_portable(&table);
  onnxc_rt_act_fill_portable(&table);
  onnxc_rt_winograd_fill_portable(&table);
#ifdef ONNXC_X86
  if (isa >= ONNXC_ISA_AVX2) {
    onnxc_rt_sgemm_fill_avx2(&table);
    onnxc_rt_pack_fill_avx2(&table);
    onnxc_rt_gemv_fill_avx2(&table);
    onnxc_rt_depthwise_fill_avx2(&table);
    onnxc_rt_maxpool_fill_avx2(&table);
    onnxc_rt_act_fill_avx2(&table);
    onnxc_rt_winograd_fill_avx2(&table);
  }
  if (isa >= ONNXC_ISA_AVX512) {
    onnxc_rt_sgemm_fill_avx512(&table);
    onnxc_rt_pack_fill_avx512(&table);
    onnxc_rt_gemv_fill_avx512(&table);
    onnxc_rt_depthwise_fill_avx512(&table);
    onnxc_rt_maxpool_fill_avx512(&table);
    onnxc_rt_act_fill_avx512(&table);
    onnxc_rt_winograd_fill_avx512(&table);
  }
#endif
  /* NEON seam: on aarch64, `if (isa >= ONNXC_ISA_NEON)` the *_neon.c fill
   * functions would come here. */
  table.isa = isa;
  table.name = names[isa];
}

const onnxc_kernels *onnxc_rt_kernels(void) {
  pthread_once(&once, fill);
  return &table;
}
