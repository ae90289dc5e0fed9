/*===- qgemm.c - int8 products: the drivers, the tier, shared helpers -----===*
 *
 * onnxc_rt_qgemm and onnxc_rt_dynamic_quantize (runtime_abi.h), the choice
 * of a tier and the helpers qconv.c (onnxc_rt_qconv2d) shares (qdriver.h).
 * Both products become tiles of one shape (qgemm.h): a
 * "rows" side of signed bytes, a "columns" side of unsigned bytes packed
 * in panels of 32 columns x groups of 4 k, multiplied by the tier's tile
 * kernel (vpdpbusd multiplies u8 by s8). So
 *   - a convolution's rows are its output channels (the weights, made
 *     signed: W, or W - 128 for uint8 weights; packed at compile time with
 *     their row sums when constant) and its columns the output positions
 *     (the input's im2col, made unsigned: X, or X + 128 for int8 input),
 *     packed here one block of positions at a time; Y is written row by
 *     row of channels, as NCHW lays it out;
 *   - a product's rows are A's (made signed, packed here per block with
 *     their sums), its columns B's (made unsigned, packed at compile time
 *     with their column sums when constant).
 * With a' and b' the stored values, za and zb the zero points shifted the
 * same way (a - za = a' - za'), the exact sum is
 *   sum (a' - za')(b' - zb') = acc - zb' * rowsum(a') - za' * colsum(b')
 *                              + K * za' * zb'
 * which becomes the epilogue's int32 terms (qepi: per row, per column and
 * products of the two when a zero point varies along both).
 *
 * The tier is chosen once (onnxc_rt_qgemm_isa: cpuid, ONNXC_ISA). A large
 * call is split over threads (onnxc_rt_parallel_for) into parts that write
 * disjoint outputs and compute every element alike: results do not depend
 * on the thread count.
 *===----------------------------------------------------------------------===*/

#define _DEFAULT_SOURCE 1 /* syscall (the AMX permission) */
#include "qdriver.h"

#include <stdlib.h>
#include <string.h>

#ifdef ONNXC_QGEMM_X86
#include <cpuid.h>
#ifdef __linux__
#include <sys/syscall.h>
#include <unistd.h>
#endif
#endif

/* ---- The tier ----------------------------------------------------------- */

enum { T_PORTABLE, T_AVX2, T_AVXVNNI, T_AVX512VNNI, T_AMX };

#ifdef ONNXC_QGEMM_X86
/* Whether this process may use AMX's tile data: Linux grants it on
 * request (arch_prctl ARCH_REQ_XCOMP_PERM for XTILEDATA, feature 18;
 * without it the first tile instruction faults). Asked once. */
static int amx_permitted(void) {
#if defined(__linux__) && defined(SYS_arch_prctl)
  static int ok = -1;
  if (ok < 0)
    ok = syscall(SYS_arch_prctl, 0x1023 /* ARCH_REQ_XCOMP_PERM */, 18) == 0;
  return ok;
#else
  return 0;
#endif
}
#endif

/* Which tiers this CPU (and OS) runs: a bit per T_*. */
static unsigned cpu_tiers(void) {
  unsigned tiers = 1u << T_PORTABLE;
#ifdef ONNXC_QGEMM_X86
  unsigned a, b, c, d, lo, hi;
  int ymm, zmm;
  const char *off = getenv("ONNXC_DISABLE_AVX512");
  if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 27)))
    return tiers; /* no OSXSAVE */
  __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  (void)hi;
  ymm = (lo & 0x6u) == 0x6u;
  zmm = (lo & 0xe6u) == 0xe6u && !(off && off[0] && strcmp(off, "0") != 0);
  if (!__get_cpuid_count(7, 0, &a, &b, &c, &d))
    return tiers;
  if (!ymm || !(b & (1u << 5)))
    return tiers; /* no AVX2 */
  tiers |= 1u << T_AVX2;
  /* AVX-512 F, DQ, BW, VL and VNNI. */
  if (zmm && (b & (1u << 16)) && (b & (1u << 17)) && (b & (1u << 30)) &&
      (b & (1u << 31)) && (c & (1u << 11)))
    tiers |= 1u << T_AVX512VNNI;
  /* AMX-TILE and AMX-INT8 (leaf 7 EDX bits 24, 25), the OS saving the
   * tile state (XCR0 bits 17, 18) and letting this process use it;
   * ONNXC_AMX=0 rules it out (A/B measurements). */
  if ((tiers & (1u << T_AVX512VNNI)) && (d & (1u << 24)) &&
      (d & (1u << 25)) && (lo & 0x60000u) == 0x60000u) {
    static int amx_on = -1;
    if (onnxc_rt_env_on("ONNXC_AMX", &amx_on) && amx_permitted())
      tiers |= 1u << T_AMX;
  }
  if (__get_cpuid_count(7, 1, &a, &b, &c, &d) && (a & (1u << 4)))
    tiers |= 1u << T_AVXVNNI;
#endif
  return tiers;
}

#ifdef ONNXC_QGEMM_X86
/* AVX-512 VBMI (vpermb: the depthwise rows). */
static int cpu_vbmi(void) {
  unsigned a, b, c, d;
  return __get_cpuid_count(7, 0, &a, &b, &c, &d) && (c & (1u << 1));
}
#endif

static const qgemm_isa *tier(int t) {
  switch (t) {
#ifdef ONNXC_QGEMM_X86
  /* The x86 tiers' files are built for x86-64 only (runtime/CMakeLists.txt). */
  case T_AMX:
    return onnxc_rt_qgemm_amx(cpu_vbmi());
  case T_AVX512VNNI:
    return onnxc_rt_qgemm_avx512vnni(cpu_vbmi());
  case T_AVXVNNI:
    return onnxc_rt_qgemm_avxvnni();
  case T_AVX2:
    return onnxc_rt_qgemm_avx2();
#endif
  default:
    return onnxc_rt_qgemm_portable();
  }
}

/* The best tier at or below `top` that the CPU has and the build has. */
static const qgemm_isa *best_at_most(int top) {
  unsigned tiers = cpu_tiers();
  int t;
  for (t = top; t > T_PORTABLE; --t)
    if ((tiers & (1u << t)) && tier(t))
      return tier(t);
  return tier(T_PORTABLE);
}

/* Written by every thread that races on the first call, always with the
 * same value (or by a test, before the kernels run). */
static const qgemm_isa *volatile chosen;

const qgemm_isa *onnxc_rt_qgemm_isa(void) {
  const qgemm_isa *isa = chosen;
  if (!isa) {
    /* ONNXC_ISA as for the fp32 kernels: portable, avx2 (the AVX2 level:
     * AVX-VNNI when the CPU has it), avx512 (the default: the best, AMX
     * when the CPU has it). */
    const char *want = getenv("ONNXC_ISA");
    int top = T_AMX;
    if (want && strcmp(want, "portable") == 0)
      top = T_PORTABLE;
    else if (want && strcmp(want, "avx2") == 0)
      top = T_AVXVNNI;
    isa = best_at_most(top);
    chosen = isa;
  }
  return isa;
}

const char *onnxc_rt_qgemm_isa_name(void) { return onnxc_rt_qgemm_isa()->name; }

int onnxc_rt_qgemm_force_isa(const char *name) {
  static const char *const names[] = {"portable", "avx2", "avxvnni",
                                      "avx512vnni", "amx"};
  unsigned tiers = cpu_tiers();
  int t;
  if (!name) {
    chosen = 0;
    return 1;
  }
  for (t = T_PORTABLE; t <= T_AMX; ++t)
    if (strcmp(name, names[t]) == 0 && (tiers & (1u << t)) && tier(t)) {
      chosen = tier(t);
      return 1;
    }
  return 0;
}

/* ---- Shared helpers ---------------------------------------------------- */

/* 64-byte aligned scratch from the models' allocator (alloc.c keeps large
 * blocks for the next call); release with onnxc_rt_qfree(*raw). */
void *onnxc_rt_qalloc(i64 bytes, void **raw) {
  uintptr_t p;
  *raw = _mlir_memref_to_llvm_alloc((size_t)bytes + 64);
  if (!*raw)
    onnxc_rt_fail(ONNXC_ERROR_OUT_OF_MEMORY,
                  "out of memory for an int8 kernel's packing buffer");
  p = ((uintptr_t)*raw + 63u) & ~(uintptr_t)63u;
  return (void *)p;
}

void onnxc_rt_qfree(void *raw) {
  if (raw)
    _mlir_memref_to_llvm_free(raw);
}

int32_t onnxc_rt_qzp_at(const void *zp, int is_signed, i64 i) {
  if (!zp)
    return 0;
  return is_signed ? (int32_t)((const int8_t *)zp)[i]
                   : (int32_t)((const uint8_t *)zp)[i];
}

/* The rows side: dst[r][0, kp) = (int8)(src[r * ld + q] ^ flip) for q < k,
 * 0 past k; sums[r] their sum. */
void onnxc_rt_qpack_rows(const uint8_t *src, i64 rows, i64 k, i64 ld,
                      uint8_t flip, int8_t *dst, i64 kp, int32_t *sums) {
  i64 r, q;
  for (r = 0; r < rows; ++r) {
    const uint8_t *s = src + r * ld;
    int8_t *d = dst + r * kp;
    int32_t sum = 0;
    for (q = 0; q < k; ++q) {
      int8_t v = (int8_t)(uint8_t)(s[q] ^ flip);
      d[q] = v;
      sum += v;
    }
    for (; q < kp; ++q)
      d[q] = 0;
    sums[r] = sum;
  }
}

/* The epilogue fields that do not depend on the tile. */
void onnxc_rt_qepi_base(const onnxc_qparams *q, int ch_row, qepi *ep) {
  memset(ep, 0, sizeof *ep);
  ep->out = (int)(q->flags & ONNXC_Q_OUT_MASK);
  ep->ch_row = ch_row;
  if (ep->out == ONNXC_Q_OUT_F32) {
    ep->clamp = (q->flags & ONNXC_Q_CLAMP) != 0;
    ep->lo = q->clamp_lo;
    ep->hi = q->clamp_hi;
  } else if (ep->out != ONNXC_Q_OUT_I32) {
    int s8 = ep->out == ONNXC_Q_OUT_S8;
    ep->yzp = onnxc_rt_qzp_at(q->y_zp, s8, 0);
    ep->lo = (float)((s8 ? -128 : 0) - ep->yzp);
    ep->hi = (float)((s8 ? 127 : 255) - ep->yzp);
    if (q->flags & ONNXC_Q_CLAMP) { /* a Relu before the requantization */
      ep->lo = q->clamp_lo > ep->lo ? q->clamp_lo : ep->lo;
      ep->hi = q->clamp_hi < ep->hi ? q->clamp_hi : ep->hi;
    }
  }
}

/* Per output channel c < channels: the float multiplier of the epilogue
 * (F32: a_scale * b_scale[c]; U8 / S8: a_scale * b_scale[c] / y_scale, in
 * that order, as ONNX Runtime) and the float bias (F32 with a bias). */
void onnxc_rt_qchannel_scales(const onnxc_qparams *q, i64 channels,
                           float *scale, float *fbias) {
  int out = (int)(q->flags & ONNXC_Q_OUT_MASK);
  int per = (q->flags & ONNXC_Q_B_SCALE_PER_CHANNEL) != 0;
  i64 c;
  if (out == ONNXC_Q_OUT_I32)
    return;
  for (c = 0; c < channels; ++c) {
    float s = q->a_scale[0] * q->b_scale[per ? c : 0];
    if (out != ONNXC_Q_OUT_F32)
      s = s / q->y_scale[0];
    scale[c] = s;
    if (fbias)
      fbias[c] = ((const float *)q->bias)[c];
  }
}

/* The requantization's int32 bias of channel c, or 0. */
int32_t onnxc_rt_qint_bias(const onnxc_qparams *q, i64 c) {
  int out = (int)(q->flags & ONNXC_Q_OUT_MASK);
  if (out == ONNXC_Q_OUT_I32 || out == ONNXC_Q_OUT_F32 ||
      !(q->flags & ONNXC_Q_BIAS) || !q->bias)
    return 0;
  return ((const int32_t *)q->bias)[c];
}

static int int_bias_any(const onnxc_qparams *q) {
  int out = (int)(q->flags & ONNXC_Q_OUT_MASK);
  return out != ONNXC_Q_OUT_I32 && out != ONNXC_Q_OUT_F32 &&
         (q->flags & ONNXC_Q_BIAS) && q->bias;
}

size_t onnxc_rt_qout_size(const onnxc_qparams *q) {
  int out = (int)(q->flags & ONNXC_Q_OUT_MASK);
  return out == ONNXC_Q_OUT_I32 || out == ONNXC_Q_OUT_F32 ? 4 : 1;
}

static void shift_cols(qepi *ep, i64 c) {
  if (ep->cadd)
    ep->cadd += c;
  if (ep->cmul)
    ep->cmul += c;
  if (ep->cmul2)
    ep->cmul2 += c;
  if (!ep->ch_row) {
    if (ep->scale)
      ep->scale += c;
    if (ep->bias)
      ep->bias += c;
  }
}

void onnxc_rt_qmultiply(const qgemm_isa *isa, const mm_args *x) {
  i64 panels = ceil_div(x->ncols, QNR), r, pj;
  /* AMX: tiles configured for this call's depth (on this thread). */
  int chunk = isa->amx_begin && x->rows >= 16 ? onnxc_q_amx_chunk(x->k4) : 0;
  if (chunk && !isa->amx_begin(chunk))
    chunk = 0;
  for (r = 0; r < x->rows; r += isa->mr) {
    int rows = (int)min64(isa->mr, x->rows - r);
    qepi er = x->ep;
    onnxc_q_shift_rows(&er, r);
    for (pj = 0; pj < panels; ++pj) {
      i64 c0 = pj * QNR;
      const uint8_t *bp = x->bp + pj * x->pstride;
      uint8_t *c = x->c + (r * x->rsc + c0) * x->osize;
      int nw = (int)min64(QNR, x->ncols - c0);
      qepi ec = er;
      shift_cols(&ec, c0);
      if (chunk) /* (fewer than 16 rows: its VNNI tile) */
        isa->amx_tile(rows, chunk, x->k4, x->a + r * x->lda, x->lda, bp, nw,
                      &ec, c, x->rsc);
      else
        isa->tile(rows, x->k4, x->a + r * x->lda, x->lda, bp, nw, &ec, c,
                  x->rsc);
    }
  }
  if (chunk)
    isa->amx_end();
}

/* ---- Matrix product ----------------------------------------------------- */

typedef struct qgemm_job {
  const onnxc_qgemm_params *p;
  const qgemm_isa *isa;
  const uint8_t *a;
  const uint8_t *bp; /* packed B: one, or one per batch item (bstride) */
  i64 bstride;       /* bytes between the packed B of batch items */
  uint8_t *c;
  i64 k4, kp, panels, mc;
  uint8_t aflip;
  int zr_row, zc_col;
  int32_t zr0, zc0;
  size_t osize;
  qepi base;
  /* per column (n of them), per packed B: */
  const int32_t *cadd, *cmul, *cmul2;
  i64 cstride; /* elements between the arrays of batch items */
  const float *scale, *bias;
  int by_rows;
  i64 step, chunks_per_item;
} qgemm_job;

/* The panel of columns [n0, n0 + 32) of B[k x n] (row stride ldb), flipped
 * by `flip`, 0 past n and k; adds each column's stored sum to sums. */
static void pack_panel(const qgemm_isa *isa, const uint8_t *b, i64 k, i64 ldb,
                       i64 nw, uint8_t flip, uint8_t *dst, int32_t *sums) {
  uint8_t tmp[4][QNR];
  const uint8_t *rows[4] = {tmp[0], tmp[1], tmp[2], tmp[3]};
  i64 q4, t, col, k4 = ceil_div(k, 4);
  for (q4 = 0; q4 < k4; ++q4, dst += 4 * QNR) {
    for (t = 0; t < 4; ++t) {
      i64 kk = 4 * q4 + t;
      memset(tmp[t], 0, QNR);
      if (kk >= k)
        continue;
      for (col = 0; col < nw; ++col) {
        tmp[t][col] = (uint8_t)(b[kk * ldb + col] ^ flip);
        sums[col] += tmp[t][col];
      }
    }
    isa->interleave(rows, rows, QNR, dst);
  }
}

static void qgemm_part(const qgemm_job *j, i64 item, i64 m_lo, i64 m_hi,
                       i64 j_lo, i64 j_hi) {
  const onnxc_qgemm_params *p = j->p;
  const qgemm_isa *isa = j->isa;
  i64 K = p->k, N = p->n, M = p->m;
  i64 rows_max = min64(j->mc, m_hi - m_lo);
  void *raw;
  int8_t *ap = onnxc_rt_qalloc(rows_max * (j->kp + 12), &raw);
  int32_t *ra = (int32_t *)(ap + rows_max * j->kp);
  int32_t *radd = ra + rows_max, *rmul = radd + rows_max;
  int32_t *rmul2 = ra; /* -zr: overwrites the sums once used */
  const uint8_t *bp = j->bp + item * j->bstride;
  i64 coff = item * j->cstride;
  int a_signed = (p->q.flags & ONNXC_Q_A_SIGNED) != 0;
  i64 mb, r;
  for (mb = m_lo; mb < m_hi; mb += j->mc) {
    i64 rows = min64(j->mc, m_hi - mb);
    onnxc_rt_qpack_rows(j->a + (item * M + mb) * K, rows, K, K, j->aflip, ap, j->kp, ra);
    /* T = acc - zc[n] * RA[m] - zr[m] * CB[n] + K * zr[m] * zc[n]: the
     * per-row terms (onnxc_rt_qgemm has the per-column ones). */
    for (r = 0; r < rows; ++r) {
      uint32_t zr = (uint32_t)j->zr0, rs = (uint32_t)ra[r];
      if (j->zr_row)
        zr = (uint32_t)(onnxc_rt_qzp_at(p->q.a_zp, a_signed, mb + r) -
                        (a_signed ? 0 : 128));
      if (!j->zr_row && !j->zc_col) {
        radd[r] = (int32_t)(0u - (uint32_t)j->zc0 * rs);
      } else if (!j->zr_row) {
        rmul[r] = (int32_t)rs; /* x cmul = -zc[n] */
      } else if (!j->zc_col) {
        radd[r] = (int32_t)(0u - (uint32_t)j->zc0 * rs +
                            (uint32_t)K * zr * (uint32_t)j->zc0);
        rmul[r] = (int32_t)(0u - zr); /* x cmul = CB[n] */
      } else {
        rmul[r] = (int32_t)(rs - (uint32_t)K * zr); /* x cmul = -zc[n] */
        rmul2[r] = (int32_t)(0u - zr);              /* x cmul2 = CB[n] */
      }
    }
    {
      mm_args x;
      i64 c0 = j_lo * QNR;
      x.k4 = j->k4;
      x.a = ap;
      x.lda = j->kp;
      x.bp = bp + j_lo * j->k4 * 4 * QNR;
      x.pstride = j->k4 * 4 * QNR;
      x.rows = rows;
      x.ncols = min64(j_hi * QNR, N) - c0;
      x.c = j->c + ((item * M + mb) * N + c0) * j->osize;
      x.rsc = N;
      x.osize = j->osize;
      x.ep = j->base;
      x.ep.radd = !j->zc_col ? radd : NULL;
      x.ep.rmul = j->zr_row || j->zc_col ? rmul : NULL;
      x.ep.rmul2 = j->zr_row && j->zc_col ? rmul2 : NULL;
      x.ep.cadd = j->cadd ? j->cadd + coff + c0 : NULL;
      x.ep.cmul = j->cmul ? j->cmul + coff + c0 : NULL;
      x.ep.cmul2 = j->cmul2 ? j->cmul2 + coff + c0 : NULL;
      x.ep.scale = j->scale ? j->scale + c0 : NULL;
      x.ep.bias = j->bias ? j->bias + c0 : NULL;
      onnxc_rt_qmultiply(isa, &x);
    }
  }
  onnxc_rt_qfree(raw);
}

static void qgemm_chunk(void *arg, int64_t chunk) {
  const qgemm_job *j = arg;
  i64 item = chunk / j->chunks_per_item, part = chunk % j->chunks_per_item;
  if (j->by_rows) {
    i64 lo = part * j->step;
    qgemm_part(j, item, lo, min64(j->p->m, lo + j->step), 0, j->panels);
  } else {
    i64 lo = part * j->step;
    qgemm_part(j, item, 0, j->p->m, lo, min64(j->panels, lo + j->step));
  }
}

void onnxc_rt_qgemm(const onnxc_qgemm_params *p, const void *a, const void *b,
                    void *c) {
  const onnxc_qparams *q = &p->q;
  const qgemm_isa *isa = onnxc_rt_qgemm_isa();
  qgemm_job j;
  int a_signed = (q->flags & ONNXC_Q_A_SIGNED) != 0;
  int b_signed = (q->flags & ONNXC_Q_B_SIGNED) != 0;
  int out = (int)(q->flags & ONNXC_Q_OUT_MASK);
  i64 N = p->n, K = p->k, packs, i, col, panel_bytes, units;
  int32_t *cadd = NULL, *cmul = NULL, *cmul2 = NULL, *cb_all;
  float *scale, *fbias;
  void *raw_b = NULL, *raw_arrays;
  uint8_t bflip = b_signed ? 0x80 : 0;
  int threads;
  memset(&j, 0, sizeof j);
  if (p->batch <= 0 || p->m <= 0 || N <= 0)
    return;
  j.p = p;
  j.isa = isa;
  j.a = a;
  j.c = c;
  j.k4 = ceil_div(K, 4);
  j.kp = 4 * j.k4;
  j.panels = ceil_div(N, QNR);
  j.osize = onnxc_rt_qout_size(q);
  panel_bytes = j.panels * j.k4 * 4 * QNR;
  /* B as the columns side, with its column sums: packed by the compiler
   * (one for the batch), else here (once, or per item when it varies). */
  packs = !(q->flags & ONNXC_Q_B_PACKED) && p->b_batch_stride != 0 ? p->batch : 1;
  cb_all = onnxc_rt_qalloc(packs * N * 16 + N * 8, &raw_arrays);
  if (q->flags & ONNXC_Q_B_PACKED) {
    /* The compiler's constant: kept in the runtime's pages when large. */
    b = onnxc_rt_kept_bytes(b, (size_t)(panel_bytes + N * 4));
    j.bp = b;
    memcpy(cb_all, (const uint8_t *)b + panel_bytes, (size_t)N * 4);
  } else {
    uint8_t *bp = onnxc_rt_qalloc(packs * panel_bytes, &raw_b);
    memset(cb_all, 0, (size_t)(packs * N) * 4);
    for (i = 0; i < packs; ++i)
      for (col = 0; col < N; col += QNR)
        pack_panel(isa, (const uint8_t *)b + i * p->b_batch_stride + col, K, N,
                   min64(QNR, N - col), bflip,
                   bp + i * panel_bytes + (col / QNR) * j.k4 * 4 * QNR,
                   cb_all + i * N + col);
    j.bp = bp;
    j.bstride = packs > 1 ? panel_bytes : 0;
  }
  j.cstride = packs > 1 ? N : 0;
  scale = (float *)(cb_all + packs * N * 4);
  fbias = out == ONNXC_Q_OUT_F32 && (q->flags & ONNXC_Q_BIAS) && q->bias
              ? scale + N
              : NULL;
  /* Stored a' = a ^ aflip (a - 128 for uint8), b' = b ^ bflip (b + 128 for
   * int8); the zero points shifted alike. */
  j.aflip = a_signed ? 0 : 0x80;
  j.zr_row = (q->flags & ONNXC_Q_A_ZP_PER_ROW) != 0;
  j.zc_col = (q->flags & ONNXC_Q_B_ZP_PER_CHANNEL) != 0;
  j.zr0 = onnxc_rt_qzp_at(q->a_zp, a_signed, 0) - (a_signed ? 0 : 128);
  j.zc0 = onnxc_rt_qzp_at(q->b_zp, b_signed, 0) + (b_signed ? 128 : 0);
  /* The per-column terms (qgemm_part has the per-row ones). */
  for (i = 0; i < packs; ++i) {
    int32_t *cb = cb_all + i * N;
    int32_t *ca = cb_all + packs * N + i * N, *cm = ca + packs * N;
    for (col = 0; col < N; ++col) {
      uint32_t zc = (uint32_t)(j.zc_col ? onnxc_rt_qzp_at(q->b_zp, b_signed, col) +
                                              (b_signed ? 128 : 0)
                                        : j.zc0);
      uint32_t s = (uint32_t)cb[col], zr = (uint32_t)j.zr0;
      /* The requantization's int32 bias, then -zr * CB[n] + K * zr * zc[n]
       * when zr is one for all rows. */
      ca[col] = onnxc_rt_qint_bias(q, col);
      if (!j.zr_row)
        ca[col] = (int32_t)((uint32_t)ca[col] - zr * s + (uint32_t)K * zr * zc);
      cm[col] = (int32_t)(0u - zc); /* x rmul = RA[m] (- K zr[m]) */
    }
  }
  if (!j.zr_row || int_bias_any(q))
    cadd = cb_all + packs * N;
  if (!j.zr_row) {
    if (j.zc_col)
      cmul = cb_all + 2 * packs * N;
  } else {
    if (!j.zc_col) {
      cmul = cb_all; /* x rmul = -zr[m] */
    } else {
      cmul = cb_all + 2 * packs * N; /* -zc[n] */
      cmul2 = cb_all;                /* CB[n] */
    }
  }
  j.cadd = cadd;
  j.cmul = cmul;
  j.cmul2 = cmul2;
  onnxc_rt_qchannel_scales(q, N, scale, fbias);
  j.scale = out == ONNXC_Q_OUT_I32 ? NULL : scale;
  j.bias = fbias;
  onnxc_rt_qepi_base(q, 0, &j.base);
  /* Rows of A per packed block: about 64 KiB. */
  j.mc = max64(isa->mr, (65536 / j.kp) / isa->mr * isa->mr);
  threads = onnxc_rt_threads_for(2.0 * (double)p->batch * (double)p->m *
                                 (double)N * (double)K);
  units = (i64)threads * PARTS_PER_THREAD;
  if (threads <= 1) {
    j.by_rows = 1;
    j.step = p->m;
    j.chunks_per_item = 1;
  } else if (j.panels >= units || j.panels >= ceil_div(p->m, isa->mr)) {
    j.by_rows = 0;
    j.step = ceil_div(j.panels, min64(j.panels, units));
    j.chunks_per_item = ceil_div(j.panels, j.step);
  } else {
    i64 tiles = ceil_div(p->m, isa->mr);
    j.by_rows = 1;
    j.step = ceil_div(tiles, min64(tiles, units)) * isa->mr;
    j.chunks_per_item = ceil_div(p->m, j.step);
  }
  onnxc_rt_parallel_for(p->batch * j.chunks_per_item, threads, qgemm_chunk,
                        &j);
  onnxc_rt_qfree(raw_arrays);
  onnxc_rt_qfree(raw_b);
}

/* ---- DynamicQuantizeLinear ----------------------------------------------- */

typedef struct dq_job {
  const qgemm_isa *isa;
  const float *x;
  uint8_t *y;
  i64 n, step;
  float *lo, *hi; /* per chunk */
  float scale;
  int32_t zp;
} dq_job;

static void dq_minmax_chunk(void *arg, int64_t chunk) {
  const dq_job *j = arg;
  i64 lo = chunk * j->step, len = min64(j->step, j->n - lo);
  j->isa->minmax(j->x + lo, len, &j->lo[chunk], &j->hi[chunk]);
}

static void dq_quantize_chunk(void *arg, int64_t chunk) {
  const dq_job *j = arg;
  i64 lo = chunk * j->step, len = min64(j->step, j->n - lo);
  j->isa->quantize(j->x + lo, len, j->y + lo, j->scale, j->zp);
}

void onnxc_rt_dynamic_quantize(const float *x, int64_t n, uint8_t *y,
                               float *scale, uint8_t *zero_point) {
  dq_job j;
  float lo = 0.0f, hi = 0.0f, s, z, los[64], his[64];
  i64 chunks = 1, c;
  int threads = n > 0 ? onnxc_rt_threads_for(8.0 * (double)n) : 1;
  j.isa = onnxc_rt_qgemm_isa();
  j.x = x;
  j.y = y;
  j.n = n;
  if (n > 0) {
    chunks = min64(min64(64, (i64)threads * PARTS_PER_THREAD), ceil_div(n, 4096));
    j.step = ceil_div(ceil_div(n, chunks), 64) * 64;
    chunks = ceil_div(n, j.step);
    j.lo = los;
    j.hi = his;
    onnxc_rt_parallel_for(chunks, threads, dq_minmax_chunk, &j);
    lo = los[0];
    hi = his[0];
    for (c = 1; c < chunks; ++c) {
      lo = los[c] < lo ? los[c] : lo;
      hi = his[c] > hi ? his[c] : hi;
    }
  }
  /* The range includes 0 (as in ONNX Runtime, a NaN bound is left as is). */
  lo = lo > 0.0f ? 0.0f : lo;
  hi = hi < 0.0f ? 0.0f : hi;
  s = hi == lo ? 1.0f : (hi - lo) / 255.0f;
  z = 0.0f - lo / s;
  z = z < 0.0f ? 0.0f : z > 255.0f ? 255.0f : z;
  z = onnxc_q_round_even(z);
  *scale = s;
  *zero_point = (uint8_t)(int32_t)z;
  if (n <= 0)
    return;
  j.scale = s;
  j.zp = (int32_t)z;
  onnxc_rt_parallel_for(chunks, threads, dq_quantize_chunk, &j);
}
