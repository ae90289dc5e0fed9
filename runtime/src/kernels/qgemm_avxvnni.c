/*===- qgemm_avxvnni.c - The int8 kernels' AVX-VNNI tier ------------------===*
 *
 * For CPUs with AVX-VNNI (VEX-encoded vpdpbusd on ymm: Alder Lake and
 * later, Zen 5) but no AVX-512 VNNI, or with AVX-512 turned off
 * (ONNXC_ISA=avx2). vpdpbusd sums 4 products of the panel's unsigned bytes
 * and a row's signed ones into each int32 lane: 32 products per
 * instruction. 6 rows x 16 columns per pass (12 accumulators; the VEX form
 * has no broadcast memory operand, so each row's 4 bytes are broadcast
 * into a register), two passes per panel; a panel's last 8 columns or
 * fewer in a pass of 8 (6 accumulators). The epilogue and the other loops
 * are AVX2's (qgemm_ymm.h, qgemm_avx2.c).
 *===----------------------------------------------------------------------===*/

#include "qgemm.h"

#ifdef ONNXC_QGEMM_X86

#include "qgemm_ymm.h"

#define MR 6
#define ONNXC_VNNI256 __attribute__((target("avx2,avxvnni")))

/* One half of a tile: rows (<= 6) x 16 columns, 12 accumulators in
 * ymm0-11, the panel's two vectors in ymm12-13 and each row's 4 bytes
 * broadcast into ymm14. Assembly, as for AVX-512: GCC spills the vpdpbusd
 * intrinsic's accumulators. Rows past `rows` repeat the last one. */
#define VB(r, c0, c1)                                                          \
  "vpbroadcastd (%[p" #r "],%[off]), %%ymm14\n\t"                              \
  "%{vex%} vpdpbusd %%ymm14, %%ymm12, %%ymm" #c0 "\n\t"                        \
  "%{vex%} vpdpbusd %%ymm14, %%ymm13, %%ymm" #c1 "\n\t"
#define VZ(c) "vpxor %%ymm" #c ", %%ymm" #c ", %%ymm" #c "\n\t"
#define VS(c, i) "vmovdqu %%ymm" #c ", " #i "(%[out])\n\t"

ONNXC_VNNI256 static void half_tile(const int8_t *const *p, int64_t k4,
                                    const uint8_t *pn, __m256i *acc) {
  int64_t off = 0, n = k4;
  __asm__ volatile(
      VZ(0) VZ(1) VZ(2) VZ(3) VZ(4) VZ(5) VZ(6) VZ(7) VZ(8) VZ(9) VZ(10) VZ(11)
      "test %[n], %[n]\n\t"
      "jle 2f\n\t"
      "1:\n\t"
      "vmovdqu (%[pn]), %%ymm12\n\t"
      "vmovdqu 32(%[pn]), %%ymm13\n\t"
      VB(0, 0, 1) VB(1, 2, 3) VB(2, 4, 5) VB(3, 6, 7) VB(4, 8, 9) VB(5, 10, 11)
      "add $4, %[off]\n\t"
      "sub $-128, %[pn]\n\t"
      "dec %[n]\n\t"
      "jnz 1b\n\t"
      "2:\n\t"
      VS(0, 0) VS(1, 32) VS(2, 64) VS(3, 96) VS(4, 128) VS(5, 160)
      VS(6, 192) VS(7, 224) VS(8, 256) VS(9, 288) VS(10, 320) VS(11, 352)
      : [off] "+r"(off), [pn] "+r"(pn), [n] "+r"(n)
      : [p0] "r"(p[0]), [p1] "r"(p[1]), [p2] "r"(p[2]), [p3] "r"(p[3]),
        [p4] "r"(p[4]), [p5] "r"(p[5]), [out] "r"(acc)
      : "cc", "memory", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6",
        "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14");
}

/* half_tile for 6 rows, the accumulators output operands in registers
 * the compiler picks (the epilogue reads them there, no store and reload:
 * what small depths spend most on). Two groups of 4 k per iteration (the
 * second at displacements 4 and 128), then the odd one: the loop's
 * scalar operations take issue slots half as often. */
#define VR(r, c0, c1, d)                                                       \
  "vpbroadcastd " #d "(%[p" #r "],%[off]), %%ymm14\n\t"                        \
  "%{vex%} vpdpbusd %%ymm14, %%ymm12, %[a" #c0 "]\n\t"                         \
  "%{vex%} vpdpbusd %%ymm14, %%ymm13, %[a" #c1 "]\n\t"
#define VSTEP(d, pd)                                                           \
  "vmovdqu " #pd "(%[pn]), %%ymm12\n\t"                                        \
  "vmovdqu " #pd "+32(%[pn]), %%ymm13\n\t"                                     \
  VR(0, 0, 1, d) VR(1, 2, 3, d) VR(2, 4, 5, d) VR(3, 6, 7, d)                  \
  VR(4, 8, 9, d) VR(5, 10, 11, d)
#define VX(c) "vpxor %[a" #c "], %[a" #c "], %[a" #c "]\n\t"
/* The loop of half_tile6 and quarter_tile6 over STEP (one group of 4 k at
 * a displacement): n pairs of groups, then the odd one. */
#define VLOOP(STEP)                                                            \
  "test %[n], %[n]\n\t"                                                         \
  "jle 2f\n\t"                                                                  \
  "1:\n\t" STEP(0, 0) STEP(4, 128)                                              \
  "add $8, %[off]\n\t"                                                          \
  "add $256, %[pn]\n\t"                                                         \
  "dec %[n]\n\t"                                                                \
  "jnz 1b\n\t"                                                                  \
  "2:\n\t"                                                                      \
  "test %[odd], %[odd]\n\t"                                                     \
  "jz 3f\n\t" STEP(0, 0) "3:\n\t"

ONNXC_VNNI256 static inline __attribute__((always_inline)) void
half_tile6(const int8_t *const *p, int64_t k4, const uint8_t *pn,
           __m256i (*acc)[2]) {
  int64_t off = 0, n = k4 >> 1, odd = k4 & 1;
  __m256i a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11;
  __asm__ volatile(
      VX(0) VX(1) VX(2) VX(3) VX(4) VX(5) VX(6) VX(7) VX(8) VX(9) VX(10) VX(11)
      VLOOP(VSTEP)
      : [off] "+r"(off), [pn] "+r"(pn), [n] "+r"(n), [a0] "=&x"(a0),
        [a1] "=&x"(a1), [a2] "=&x"(a2), [a3] "=&x"(a3), [a4] "=&x"(a4),
        [a5] "=&x"(a5), [a6] "=&x"(a6), [a7] "=&x"(a7), [a8] "=&x"(a8),
        [a9] "=&x"(a9), [a10] "=&x"(a10), [a11] "=&x"(a11)
      : [p0] "r"(p[0]), [p1] "r"(p[1]), [p2] "r"(p[2]), [p3] "r"(p[3]),
        [p4] "r"(p[4]), [p5] "r"(p[5]), [odd] "r"(odd)
      : "cc", "memory", "xmm12", "xmm13", "xmm14");
  acc[0][0] = a0;
  acc[0][1] = a1;
  acc[1][0] = a2;
  acc[1][1] = a3;
  acc[2][0] = a4;
  acc[2][1] = a5;
  acc[3][0] = a6;
  acc[3][1] = a7;
  acc[4][0] = a8;
  acc[4][1] = a9;
  acc[5][0] = a10;
  acc[5][1] = a11;
}

/* Eight columns of 6 rows (the panel's last columns when no more than 8
 * are left: 7 x 7 maps' 49 positions are 32 + 16 + 1, 14 x 14's 196 end
 * in 4): half_tile6 with one vector of the panel, 6 accumulators, half the
 * dot products of a half tile. */
#define VQ(r, c, d)                                                            \
  "vpbroadcastd " #d "(%[p" #r "],%[off]), %%ymm14\n\t"                        \
  "%{vex%} vpdpbusd %%ymm14, %%ymm12, %[a" #c "]\n\t"
#define VQSTEP(d, pd)                                                          \
  "vmovdqu " #pd "(%[pn]), %%ymm12\n\t"                                        \
  VQ(0, 0, d) VQ(1, 1, d) VQ(2, 2, d) VQ(3, 3, d) VQ(4, 4, d) VQ(5, 5, d)

ONNXC_VNNI256 static inline __attribute__((always_inline)) void
quarter_tile6(const int8_t *const *p, int64_t k4, const uint8_t *pn,
              __m256i (*acc)[2]) {
  int64_t off = 0, n = k4 >> 1, odd = k4 & 1;
  __m256i a0, a1, a2, a3, a4, a5;
  __asm__ volatile(
      VX(0) VX(1) VX(2) VX(3) VX(4) VX(5)
      VLOOP(VQSTEP)
      : [off] "+r"(off), [pn] "+r"(pn), [n] "+r"(n), [a0] "=&x"(a0),
        [a1] "=&x"(a1), [a2] "=&x"(a2), [a3] "=&x"(a3), [a4] "=&x"(a4),
        [a5] "=&x"(a5)
      : [p0] "r"(p[0]), [p1] "r"(p[1]), [p2] "r"(p[2]), [p3] "r"(p[3]),
        [p4] "r"(p[4]), [p5] "r"(p[5]), [odd] "r"(odd)
      : "cc", "memory", "xmm12", "xmm14");
  acc[0][0] = a0;
  acc[1][0] = a1;
  acc[2][0] = a2;
  acc[3][0] = a3;
  acc[4][0] = a4;
  acc[5][0] = a5;
  acc[0][1] = acc[1][1] = acc[2][1] = acc[3][1] = acc[4][1] = acc[5][1] =
      _mm256_setzero_si256();
}

#undef VB
#undef VZ
#undef VS
#undef VR
#undef VX
#undef VSTEP
#undef VQ
#undef VQSTEP
#undef VLOOP

/* The quarter's pass and epilogue, apart from tile: inlined there, the
 * half tile's registers went through memory (a 64 -> 64 layer at 56 x 56,
 * which takes no quarter, 5% slower). */
ONNXC_VNNI256 static __attribute__((noinline)) void
quarter(int rows, int64_t k4, const int8_t *const *p, const uint8_t *pn,
        int ncol, int col0, const qepi *ep, void *c, int64_t rsc) {
  __m256i acc[MR][2];
  quarter_tile6(p, k4, pn, acc);
  ymm_store(rows, acc, ncol, col0, ep, c, rsc);
}

ONNXC_VNNI256 static void tile(int rows, int64_t k4, const int8_t *a,
                               int64_t lda, const uint8_t *panel, int nw,
                               const qepi *ep, void *c, int64_t rsc) {
  const int8_t *p[MR];
  int h, r;
  for (r = 0; r < MR; ++r)
    p[r] = a + (r < rows ? r : rows - 1) * lda;
  /* 8 columns or fewer left (in the first half or the second): a quarter
   * for them. */
  if (nw <= 8 || (nw > 16 && nw <= 24)) {
    h = nw <= 8 ? 0 : 1;
    quarter(rows, k4, p, panel + 64 * h, nw - 16 * h, 16 * h, ep, c, rsc);
    if (h == 0)
      return;
    nw = 16; /* the first half's as below */
  }
  if (rows == MR) { /* a full tile: accumulators in registers */
    for (h = 0; h < 2 && 16 * h < nw; ++h) {
      __m256i acc[MR][2];
      half_tile6(p, k4, panel + 64 * h, acc);
      ymm_store(MR, acc, nw - 16 * h < 16 ? nw - 16 * h : 16, 16 * h, ep, c,
                rsc);
    }
    return;
  }
  for (h = 0; h < 2 && 16 * h < nw; ++h) {
    __m256i sums[2 * MR], acc[MR][2];
    half_tile(p, k4, panel + 64 * h, sums);
    for (r = 0; r < MR; ++r) {
      acc[r][0] = sums[2 * r];
      acc[r][1] = sums[2 * r + 1];
    }
    ymm_store(rows, acc, nw - 16 * h < 16 ? nw - 16 * h : 16, 16 * h, ep, c,
              rsc);
  }
}

ONNXC_YMM_DEFINE_ISA(onnxc_rt_qgemm_avxvnni, "avxvnni", 1)

#else

const qgemm_isa *onnxc_rt_qgemm_avxvnni(void) { return 0; }

#endif
