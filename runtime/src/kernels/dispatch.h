/*===- kernels/dispatch.h - The kernel table: one ISA tier per process ----===*
 *
 * The runtime's hot loops are microkernels grouped by family (sgemm, conv,
 * gemv, depthwise, maxpool; a qgemm section is reserved for the int8
 * kernels) and by ISA tier: portable C (every target), AVX2+FMA and
 * AVX-512 (x86-64). The drivers (gemm.c's packed-GEMM loop nest and
 * convolution paths, depthwise.c, pool.c, parallel.c's splits) are
 * ISA-independent: they call the microkernels through the table below,
 * which dispatch.c fills once per process (pthread_once) with the best
 * tier the CPU and OS support, or the tier ONNXC_ISA asks for.
 *
 * Filling is layered: the portable tier sets every slot it has, then each
 * tier up to the chosen one overwrites the slots it implements (a tier
 * inherits what it lacks from the tiers below it). A NULL slot means "no
 * such kernel in this tier": the driver takes its generic path. A slot
 * and its parameters (sgemm_tile with sgemm_mr, conv_tile with conv_mr)
 * are always set together.
 *
 * Adding a family: a struct section here (function pointer types take
 * plain pointers and int64 strides, nothing ISA-specific), a file per tier
 * (<family>_portable.c, <family>_avx2.c, ...) whose fill function sets the
 * section's slots, the fill call in its tier's onnxc_rt_fill_* function in
 * dispatch.c, and a driver that calls the slots (or its generic path when
 * they are NULL). Adding an ISA (the NEON seam): a tier value, a fill
 * function in *_neon.c files compiled with its flags for its target, and
 * its detection in dispatch.c.
 *
 * The packed layouts that the compiler writes (ONNXC_SGEMM_PANEL columns
 * per panel, runtime_abi.h) are the same for every tier: a model compiled
 * on one machine runs with whatever tier the machine that runs it has.
 *===----------------------------------------------------------------------===*/
#ifndef ONNXC_RUNTIME_KERNELS_DISPATCH_H
#define ONNXC_RUNTIME_KERNELS_DISPATCH_H

#include "common.h"

/* The tiers, in order: each one's CPU requirements include the previous
 * one's (an x86-64 CPU with AVX-512F/BW/DQ/VL has AVX2 and FMA). */
typedef enum onnxc_isa {
  ONNXC_ISA_PORTABLE = 0, /* plain C99; every target */
  ONNXC_ISA_AVX2 = 1,     /* x86-64 AVX2 + FMA (+ OS support of ymm state) */
  ONNXC_ISA_AVX512 = 2,   /* x86-64 AVX-512 F, BW, DQ, VL (+ zmm, opmask state) */
  /* NEON seam: an aarch64 tier (ONNXC_ISA_NEON) would come here, ordered
   * after portable on aarch64 (tiers of other targets are never
   * candidates), its kernels in *_neon.c. */
  ONNXC_ISA_COUNT
} onnxc_isa;

/* ---- sgemm: packed GEMM microkernels (gemm.c drives them) --------------
 * C[rows x nw] (+)= A[rows x kc] * panel, rows <= sgemm_mr, nw <= NR; A
 * read in place (A[r, p] = a[r * rsa + p * csa]), the panel kc x NR floats
 * (row p at panel + p * NR), C at c[r * rsc + col * csc], the epilogue ep
 * (may be NULL; relative to the tile). Only columns < nw are written.
 * Every element is summed over p in order, whatever rows or the tile's
 * position: results do not depend on how a call is split. */
typedef void (*onnxc_sgemm_tile_fn)(int rows, i64 kc, const float *a, i64 rsa,
                                    i64 csa, const float *panel, float *c,
                                    i64 rsc, i64 csc, i64 nw, int accumulate,
                                    const tile_ep *ep);
/* sgemm_tile over a B read in place: row k of the tile's 32 columns at
 * b + k ldb (32 floats readable per row; columns past nw are computed, not
 * stored). */
typedef void (*onnxc_sgemm_tile_strided_fn)(int rows, i64 kc, const float *a,
                                            i64 rsa, i64 csa, const float *b,
                                            i64 ldb, float *c, i64 rsc, i64 csc,
                                            i64 nw, int accumulate,
                                            const tile_ep *ep);
/* Bp <- B[0:kc, 0:nc] (unit column stride, rows rsb apart) as panels of
 * kc x NR, zero past nc. */
typedef void (*onnxc_pack_rows_fn)(const float *b, i64 rsb, i64 kc, i64 nc,
                                   float *bp);
/* The same from unit-stride columns (B transposed in memory: B[p, col] =
 * b[p + col * csb]; a Gemm's transB weights, a convolution's weights
 * W[m, (c, kh, kw)] packed by channel): panels of kc x NR, zero past nc. */
typedef void (*onnxc_pack_cols_fn)(const float *b, i64 csb, i64 kc, i64 nc,
                                   float *bp);

/* ---- gemv: products with few rows or columns --------------------------
 * C[m x n] (+)= A * B for m <= 4 or (B not packed) n <= 4, the arguments
 * as onnxc_rt_sgemm's, `packed` its ONNXC_SGEMM_B_PACKED; m, n, k > 0.
 * Returns 0, having done nothing, for the shapes and layouts it does not
 * take (the packed GEMM does them). Columns (rows, for n <= 4) are
 * computed in groups of 128 that start at multiples of 128 and never
 * depend on the rest of the call (parallel.c splits at such boundaries). */
typedef int (*onnxc_sgemm_small_fn)(i64 m, i64 n, i64 k, const float *a,
                                    i64 rsa, i64 csa, const float *b, i64 rsb,
                                    i64 csb, int packed, float *c, i64 rsc,
                                    i64 csc, int accumulate,
                                    const tile_ep *ep);

/* ---- conv: the indirect GEMM over packed weights ------------------------
 * C[ch * csc + r] (+)= sum over p < kc of xr[r][koff[p]] * panel[p][ch]
 * for r < rows <= conv_mr output positions and ch < nw <= NR channels,
 * with the epilogue ep (per-channel bias as col_bias; clamp). */
typedef void (*onnxc_conv_tile_fn)(int rows, i64 kc, const float *const *xr,
                                   const i64 *koff, const float *panel,
                                   float *c, i64 csc, i64 nw, int accumulate,
                                   const tile_ep *ep);
/* Partial sums of the K-stepped tiles (conv_tile1, conv_tile2): with
 * ONNXC_TILE2_FROM_S in sflags a tile's sums start from those in its
 * scratch s, with ONNXC_TILE2_TO_S (conv_tile1) they are left there
 * instead of stored into C (ep, accumulate unused). */
#define ONNXC_TILE2_FROM_S 1
#define ONNXC_TILE2_TO_S 2
/* conv_tile's sums over two panels at once, left in s: position r's 2 NR
 * channels at s + 2 NR r (64-byte aligned) for r < rows <= conv_mr2, the
 * first NR from the panel at `panel`, the next from panel + pstride. Each
 * input element read once for 2 NR channels; each element is the same
 * FMA chain over p as in conv_tile (the two give the same bits). Only
 * ONNXC_TILE2_FROM_S in sflags means anything. conv_store2 stores them. */
typedef void (*onnxc_conv_tile2_fn)(int rows, i64 kc, const float *const *xr,
                                    const i64 *koff, const float *panel,
                                    i64 pstride, float *s, int sflags);
/* The store of a block of conv_tile2's sums into C: C[ch * csc + r] (+)=
 * s[2 NR r + ch] for r < rows and ch < NR + nw1, with the epilogue ep0
 * for the first NR channels and ep1 for the rest (their row_bias NULL),
 * as conv_tile stores a tile of one panel. */
typedef void (*onnxc_conv_store2_fn)(const float *s, i64 rows, float *c,
                                     i64 csc, i64 nw1, int accumulate,
                                     const tile_ep *ep0, const tile_ep *ep1);
/* conv_tile with conv_tile2's partial sums (position r's NR at s + NR r)
 * over rows <= conv_mr1. */
typedef void (*onnxc_conv_tile1_fn)(int rows, i64 kc, const float *const *xr,
                                    const i64 *koff, const float *panel,
                                    float *c, i64 csc, i64 nw, int accumulate,
                                    const tile_ep *ep, float *s, int sflags);
/* The same for a panel of at most 16 channels (nw <= NR / 2: a narrow
 * layer, or the last panel of one) over rows <= conv_mr16 positions whose
 * windows are one element apart (x0 + r: consecutive outputs of a stride-1
 * row): one vector per row instead of two, half of them zeros. */
typedef void (*onnxc_conv_tile16_fn)(int rows, i64 kc, const float *x0,
                                     const i64 *koff, const float *panel,
                                     float *c, i64 csc, i64 nw,
                                     int accumulate, const tile_ep *ep);
/* Output positions in vector lanes, for a panel of at most 16 channels
 * over stride-1 output rows: C[r * csc + pos] (+)= sum over p < kc of
 * panel[p][r] * x0[koff[p] + pos] for channels r < rows <= conv_rmr (the
 * panel's columns from `panel` on) and positions pos < nw <= NR of one
 * output row (position pos's window at x0 + pos), with the epilogue ep
 * (per-channel bias as row_bias; clamp). Y's rows are stored as they are
 * (no transpose), and a k costs two vector loads and rows broadcasts for
 * 2 * rows FMAs, where conv_tile16 loads 17 for 16. Each element is the
 * same FMA chain over p as in conv_tile16: the two give the same bits. */
typedef void (*onnxc_conv_rtile_fn)(int rows, i64 kc, const float *x0,
                                    const i64 *koff, const float *panel,
                                    float *c, i64 csc, i64 nw, int accumulate,
                                    const tile_ep *ep);
/* One im2col panel: dst[p * NR + col] = src[p][off[col]] for col < nw,
 * 0 past nw; `contiguous`: off[col] == off[0] + col. */
typedef void (*onnxc_im2col_fn)(const float *const *src, i64 kc,
                                const int32_t *off, i64 nw, int contiguous,
                                float *dst);
/* A row of a padded input: dst[0, wp) is src[c - lo] for c in [lo, hi),
 * else 0. */
typedef void (*onnxc_pad_row_fn)(float *dst, i64 wp, i64 lo, i64 hi,
                                 const float *src);
/* A padded row split by column parity (ONNXC_CONV_X_SPLIT): even[c] =
 * src[2 c], odd[c] = src[2 c + 1], for the n floats of src. */
typedef void (*onnxc_split_row_fn)(const float *src, i64 n, float *even,
                                   float *odd);
/* A row of a padded input in channel blocks (ONNXC_CONV_X_CBLOCK): for
 * c < 16, dst[col * 16 + c] is src[c * cstride + (col - lo) * colstride]
 * for col in [lo, hi), else 0 (col < wp). */
typedef void (*onnxc_pad_row_cblock_fn)(float *dst, i64 wp, i64 lo, i64 hi,
                                        const float *src, i64 cstride,
                                        i64 colstride);

/* ---- depthwise: one channel (common.h's dw_args) ----------------------- */
typedef void (*onnxc_dw_channel_fn)(const dw_args *a);
/* Whether the tier's channel kernel reads this unpadded input in place
 * (dw_args.gm set) instead of through a zero-padded plane. */
typedef int (*onnxc_dw_reads_padding_fn)(const onnxc_conv2d_params *q);
/* Channels in vector lanes, for planes whose rows are short (a row of 16
 * lanes would be mostly masked): channels [g, g + nc), nc <= 16, of image
 * n of a depthwise call with one output channel per group, unpacked
 * weights and ONNXC_CONV_BIAS. The block's input planes are read whole
 * (into `scratch`, dw_block_scratch(q) floats, 64-byte aligned) before
 * any of its outputs is written (ONNXC_CONV_IN_PLACE); bias and clamp as
 * dw_channel, the driver applies the activation. dw_block_scratch is 0
 * where dw_block does not take the call. */
typedef void (*onnxc_dw_block_fn)(const onnxc_conv2d_params *q, const float *x,
                                  const float *w, float *y, i64 n, i64 g,
                                  i64 nc, float *scratch);
typedef i64 (*onnxc_dw_block_scratch_fn)(const onnxc_conv2d_params *q);
/* The widest output row dw_block takes. */
#define ONNXC_DW_BLOCK_MAX_W 32

/* ---- maxpool: one output row ---------------------------------------------
 * yrow[0, out_w) from `nrows` input rows (the window rows inside the
 * input) from `row`, rstride apart, columns ow * sw - pad_left + kw
 * (kw < kernel_w) with unit stride; sw 1 or 2, dilation 1. Outputs in
 * [a, b) have every window column inside [0, in_w); columns outside are
 * skipped (never read). Semantics of onnxc_rt_smaxpool2d (NaN wins, +0
 * over -0), exactly. */
typedef void (*onnxc_maxpool_row_fn)(const float *row, i64 rstride, i64 nrows,
                                     i64 kernel_w, i64 sw, i64 pad_left,
                                     i64 in_w, i64 a, i64 b, i64 out_w,
                                     float *yrow);

/* ---- act: a fused activation (common.h's act_ep) -----------------------
 * y[0, n) = act(y[0, n)) in place, each element as act_scalar computes it
 * (vector tiers: with their own exp, within a few ulp of it). */
typedef void (*onnxc_act_row_fn)(float *y, i64 n, const act_ep *a);

/* ---- softmax: one row of onnxc_rt_softmax (runtime_abi.h) --------------
 * With m = max x[0, n) and s = sum exp(x - m) (n > 0): y = exp(x - m) * (1
 * / s), or with `log`, y = (x - m) - log(s); y may be x. A NaN in the row
 * makes s, and so every y, NaN; exp as act_row's (vector tiers: a few ulp
 * from libm's), the sum in the tier's order. */
typedef void (*onnxc_softmax_row_fn)(const float *x, float *y, i64 n,
                                     int log);

/* ---- winograd: F(4x4, 3x3) transforms (winograd.c drives them) --------
 * wino_input: V = B^T d B of the 6 x 6 patch at x, 16 channels per element
 * (element (i, j) at x + i * rs + j * 16: the padded input in channel
 * blocks), V[xi] (16 floats) at v + xi * vs for xi = 6 i + j < 36.
 * wino_output: the 4 x 4 outputs A^T M A of 16 channels from M[xi] at
 * m + xi * ms, plus the bias, or plus Y's value when accumulating, then
 * clamped, stored into Y (channel l's output row i at y + l * ycs +
 * i * yrs, columns 1 apart): the rows x cols (<= 4 x 4) of them inside Y.
 * winograd_impl.h has the matrices. */
typedef struct wino_store {
  const float *bias; /* 16 floats, or NULL */
  int accumulate, clamp;
  float lo, hi;
  i64 ycs, yrs;
} wino_store;
typedef void (*onnxc_wino_input_fn)(const float *x, i64 rs, float *v, i64 vs);
typedef void (*onnxc_wino_output_fn)(const float *m, i64 ms,
                                     const wino_store *s, float *y, int rows,
                                     int cols);

typedef struct onnxc_kernels {
  onnxc_isa isa;
  const char *name; /* "portable", "avx2", "avx512" */

  /* sgemm */
  int sgemm_mr;
  /* sgemm_tile, conv_tile and conv_tile16 apply tile_ep.act themselves
   * (else the drivers call act_row on what they stored) */
  int tile_act;
  onnxc_sgemm_tile_fn sgemm_tile;
  /* (NULL: none; the 1 x 1 convolutions pack their input) and the most
   * input channels of a 1 x 1 convolution that reads its input through it
   * (conv.c; more pack it, and so do products of >= 64 input and >= 128
   * output channels). Same-run A/B, Intel Xeon, one thread, AVX-512
   * (160): 32 -> 16 channels at 112 x 112 0.162 -> 0.132 ms, 96 -> 24 at
   * 56 x 56 0.127 -> 0.095, 144 -> 24 0.218 -> 0.200, 24 -> 144 0.198 ->
   * 0.186; 256 -> 256 2% slower; MobileNetV2 -3.8%, MobileNetV3 -2.1%,
   * EfficientNet-B0 -3.5%. AVX2 (96): 32 -> 16 and 96 -> 24 6-7% faster,
   * 144 -> 24 5% slower. 64 -> 256 and 128 -> 256 at 56 x 56 were 2-5%
   * faster packed on both tiers (twenty-third session). */
  onnxc_sgemm_tile_strided_fn sgemm_tile_strided;
  i64 sgemm_strided_k;
  onnxc_pack_rows_fn pack_rows;
  onnxc_pack_cols_fn pack_cols;

  /* gemv (NULL: the packed GEMM does few rows too) */
  onnxc_sgemm_small_fn sgemm_small;

  /* conv (conv_tile NULL: packed weights are unpacked for im2col + GEMM;
   * im2col NULL: a scalar copy) */
  int conv_mr;
  onnxc_conv_tile_fn conv_tile;
  /* (NULL: every panel through conv_tile) */
  int conv_mr2;
  onnxc_conv_tile2_fn conv_tile2;
  /* (with conv_tile2) A block's positions stored at once, after its tiles
   * left their sums in the scratch: 16 x 16 transposes and runs of 16
   * positions a channel. Each tile storing its own 6 positions (8 x 16
   * transposes, masked runs of 6) took 10% longer on ResNet's stem, 3 ->
   * 64 channels 7 x 7 / 2 (docs/performance.md). */
  onnxc_conv_store2_fn conv_store2;
  /* (NULL: single panels through conv_tile) from a K of conv_k1 on. The
   * AVX-512 tile1 is 12 rows, conv_tile 8: with a deep K, whose weights
   * would come from L2 (96 -> 32 channels, 3 x 3: 8%; 256 -> 32: 11%);
   * not with a shallow one, where conv_tile runs faster (16 -> 32: 12
   * rows took 15% longer, the epilogue of 12 in two transposed stores and
   * the 12 window pointers, more than the registers hold). AVX2's is
   * conv_tile's 6 rows with K in steps: 13-23% on 3 x 3 convolutions of
   * 32 to 512 channels (bench/conv_cblock.c, Intel Xeon). */
  int conv_mr1;
  onnxc_conv_tile1_fn conv_tile1;
  i64 conv_k1;
  /* (NULL: narrow panels take conv_tile) */
  int conv_mr16;
  onnxc_conv_tile16_fn conv_tile16;
  /* (NULL: narrow panels over rows take conv_tile16) */
  int conv_rmr;
  onnxc_conv_rtile_fn conv_rtile;
  /* conv_tile16 over a copy in channel blocks (ONNXC_CONV_X_CBLOCK):
   * position r's window at x0 + r * ONNXC_CONV_CBLOCK (consecutive
   * outputs of a stride-1 row). NULL: such panels take conv_tile. */
  onnxc_conv_tile16_fn conv_tile16c;
  onnxc_im2col_fn im2col;
  onnxc_pad_row_fn pad_row;
  onnxc_pad_row_cblock_fn pad_row_cblock;
  onnxc_split_row_fn split_row;

  /* depthwise (dw_channel NULL: the plain loop nest of gemm.c;
   * dw_reads_padding NULL: always through a padded plane) */
  onnxc_dw_channel_fn dw_channel;
  /* Grouped convolutions with at most this many input and output channels
   * per group take dw_channel too (at most ONNXC_DW_GROUPED_MAX,
   * internal.h): 8 on AVX-512 and portable; 4 on AVX2, whose conv tile
   * has a one-vector pass for a group's 8 channels (the GEMM path 30%
   * faster there: ResNeXt's 256 -> 256 in 32 groups, 3 x 3 / 2 at 56 x 56
   * 1.60 -> 1.12 ms, / 1 at 28 x 28 0.80 -> 0.57; groups of 4 2x slower). */
  int dw_grouped_max;
  onnxc_dw_reads_padding_fn dw_reads_padding;
  /* (NULL: every plane through dw_channel) */
  onnxc_dw_block_fn dw_block;
  onnxc_dw_block_scratch_fn dw_block_scratch;

  /* winograd (every tier sets them): F(4x4, 3x3), then F(2x2, 3x3)
   * (4 x 4 points, xi < 16, 2 x 2 outputs) */
  onnxc_wino_input_fn wino_input;
  /* The columns of the sgemm tile the Winograd products run through (32
   * on AVX-512 and portable: a whole panel; AVX2's tiles are half panels,
   * 16): winograd.c takes layers whose output channels fill 3/4 of the
   * tiles' columns. A 16-channel layer leaves half of a 32-wide tile
   * empty: U-Net's 16-channel layers at 256 x 256 ran 15-45% slower than
   * the direct path on AVX-512; on AVX2 its 48 -> 16 layer 12.3 -> 7.4
   * ms, 16 -> 16 4.0 -> 3.4. */
  int wino_width;
  onnxc_wino_output_fn wino_output;
  onnxc_wino_input_fn wino_input2;
  onnxc_wino_output_fn wino_output2;

  /* maxpool (NULL: a scalar window max per output) */
  onnxc_maxpool_row_fn maxpool_row;

  /* act (always set: the portable tier's loop over act_scalar) */
  onnxc_act_row_fn act_row;

  /* softmax (always set: the portable tier's, with libm's expf) */
  onnxc_softmax_row_fn softmax_row;

  /* qgemm: reserved for the int8 kernels (u8 x s8 -> s32 products,
   * VNNI / AVX-VNNI tiers); they add their slots here. */
} onnxc_kernels;

/* The table of this process: filled on first use (thread-safe), then
 * constant. */
ONNXC_HIDDEN const onnxc_kernels *onnxc_rt_kernels(void);

/* The best tier this CPU and OS support (cpuid, xgetbv). */
ONNXC_HIDDEN onnxc_isa onnxc_rt_isa_supported(void);

/* The tier to use given the environment's ONNXC_ISA and
 * ONNXC_DISABLE_AVX512 values (either may be NULL) and the best supported
 * tier: ONNXC_ISA names a tier, lowered to `best` when the CPU lacks it;
 * without it, ONNXC_DISABLE_AVX512 set (not empty, not "0") caps the tier
 * at avx2. *bad is set when ONNXC_ISA is not a tier name (then ignored). */
ONNXC_HIDDEN onnxc_isa onnxc_rt_isa_choose(const char *isa_env,
                                           const char *disable_avx512,
                                           onnxc_isa best, int *bad);

/* The tier's name ("portable", "avx2", "avx512"). */
ONNXC_HIDDEN const char *onnxc_rt_isa_name(onnxc_isa isa);

/* The fill functions of the kernel files: each sets the slots of its
 * family that its tier provides (dispatch.c calls them tier by tier). */
ONNXC_HIDDEN void onnxc_rt_sgemm_fill_portable(onnxc_kernels *k);
ONNXC_HIDDEN void onnxc_rt_pack_fill_portable(onnxc_kernels *k);
/* pack.c's im2col, which gemm.c also calls where gathers cannot take the
 * offsets. */
ONNXC_HIDDEN void onnxc_rt_im2col_portable(const float *const *src, i64 kc,
                                           const int32_t *off, i64 nw,
                                           int contiguous, float *dst);
/* The portable pad_row_cblock: the vector tiers' copies for strided
 * columns. */
ONNXC_HIDDEN void onnxc_rt_pad_row_cblock_portable(float *dst, i64 wp, i64 lo,
                                                   i64 hi, const float *src,
                                                   i64 cstride, i64 colstride);
ONNXC_HIDDEN void onnxc_rt_maxpool_fill_portable(onnxc_kernels *k);
ONNXC_HIDDEN void onnxc_rt_depthwise_fill_portable(onnxc_kernels *k);
ONNXC_HIDDEN void onnxc_rt_act_fill_portable(onnxc_kernels *k);
ONNXC_HIDDEN void onnxc_rt_winograd_fill_portable(onnxc_kernels *k);
#ifdef ONNXC_X86
ONNXC_HIDDEN void onnxc_rt_sgemm_fill_avx2(onnxc_kernels *k);
ONNXC_HIDDEN void onnxc_rt_pack_fill_avx2(onnxc_kernels *k);
ONNXC_HIDDEN void onnxc_rt_gemv_fill_avx2(onnxc_kernels *k);
ONNXC_HIDDEN void onnxc_rt_depthwise_fill_avx2(onnxc_kernels *k);
ONNXC_HIDDEN void onnxc_rt_maxpool_fill_avx2(onnxc_kernels *k);
ONNXC_HIDDEN void onnxc_rt_act_fill_avx2(onnxc_kernels *k);
ONNXC_HIDDEN void onnxc_rt_winograd_fill_avx2(onnxc_kernels *k);
ONNXC_HIDDEN void onnxc_rt_sgemm_fill_avx512(onnxc_kernels *k);
ONNXC_HIDDEN void onnxc_rt_pack_fill_avx512(onnxc_kernels *k);
ONNXC_HIDDEN void onnxc_rt_gemv_fill_avx512(onnxc_kernels *k);
ONNXC_HIDDEN void onnxc_rt_act_fill_avx512(onnxc_kernels *k);
ONNXC_HIDDEN void onnxc_rt_depthwise_fill_avx512(onnxc_kernels *k);
ONNXC_HIDDEN void onnxc_rt_maxpool_fill_avx512(onnxc_kernels *k);
ONNXC_HIDDEN void onnxc_rt_winograd_fill_avx512(onnxc_kernels *k);
#endif

#endif /* ONNXC_RUNTIME_KERNELS_DISPATCH_H */
