/*===- qgemm_avxvnni.c - The int8 kernels' AVX-VNNI tier ------------------===*
 *
 * For CPUs with AVX-VNNI (VEX-encoded vpdpbusd on ymm: Alder Lake and
 * later, Zen 5) but no AVX-512 VNNI, or with AVX-512 turned off
 * (ONNXC_ISA=avx2). vpdpbusd sums 4 products of the panel's unsigned bytes
 * and a row's signed ones into each int32 lane: 32 products per
 * instruction. 6 rows x 16 columns per pass (12 accumulators; the VEX form
 * has no broadcast memory operand, so each row's 4 bytes are broadcast
 * into a register), two passes per panel. The epilogue and the other loops
 * are AVX2's (qgemm_ymm.h, qgemm_avx2.c).
 *===----------------------------------------------------------------------===*/

#include "qgemm.h"

#ifdef ONNXC_QGEMM_X86

#include "qgemm_ymm.h"

#define MR 6
#define ONNXC_VNNI256 __attribute__((target("avx2,avxvnni")))

#define ONNXC_DEFINE_TILE_VNNI256(R)                                           \
  ONNXC_VNNI256 static void tile_##R(int64_t k4, const int8_t *a,              \
                                     int64_t lda, const uint8_t *panel,        \
                                     int nw, const qepi *ep, void *c,          \
                                     int64_t rsc) {                            \
    int h, r;                                                                  \
    for (h = 0; h < 2 && 16 * h < nw; ++h) {                                   \
      __m256i acc[R][2];                                                       \
      const uint8_t *bp = panel + 64 * h;                                      \
      const int8_t *ap = a;                                                    \
      int64_t p;                                                               \
      _Pragma("GCC unroll 6") for (r = 0; r < R; ++r) acc[r][0] = acc[r][1] =  \
          _mm256_setzero_si256();                                              \
      for (p = 0; p < k4; ++p, bp += 4 * QNR, ap += 4) {                       \
        __m256i b0 = _mm256_loadu_si256((const __m256i *)bp);                  \
        __m256i b1 = _mm256_loadu_si256((const __m256i *)(bp + 32));           \
        _Pragma("GCC unroll 6") for (r = 0; r < R; ++r) {                      \
          __m256i w = _mm256_set1_epi32(onnxc_q_ld32(ap + r * lda));           \
          acc[r][0] = _mm256_dpbusd_avx_epi32(acc[r][0], b0, w);               \
          acc[r][1] = _mm256_dpbusd_avx_epi32(acc[r][1], b1, w);               \
        }                                                                      \
      }                                                                        \
      ymm_store(R, acc, nw - 16 * h < 16 ? nw - 16 * h : 16, 16 * h, ep, c,    \
                rsc);                                                          \
    }                                                                          \
  }

ONNXC_DEFINE_TILE_VNNI256(1)
ONNXC_DEFINE_TILE_VNNI256(2)
ONNXC_DEFINE_TILE_VNNI256(3)
ONNXC_DEFINE_TILE_VNNI256(4)
ONNXC_DEFINE_TILE_VNNI256(5)
ONNXC_DEFINE_TILE_VNNI256(6)

typedef void (*tile_r_fn)(int64_t, const int8_t *, int64_t, const uint8_t *,
                          int, const qepi *, void *, int64_t);
static const tile_r_fn tiles[MR + 1] = {0,      tile_1, tile_2, tile_3,
                                        tile_4, tile_5, tile_6};

static void tile(int rows, int64_t k4, const int8_t *a, int64_t lda,
                 const uint8_t *panel, int nw, const qepi *ep, void *c,
                 int64_t rsc) {
  tiles[rows](k4, a, lda, panel, nw, ep, c, rsc);
}

const qgemm_isa *onnxc_rt_qgemm_avxvnni(void) {
  static const qgemm_isa isa = {"avxvnni",
                                MR,
                                tile,
                                onnxc_rt_qinterleave_avx2,
                                onnxc_rt_qminmax_avx2,
                                onnxc_rt_qquantize_avx2};
  return &isa;
}

#else

const qgemm_isa *onnxc_rt_qgemm_avxvnni(void) { return 0; }

#endif
