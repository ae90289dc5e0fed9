/*===- copy.c - The compiler's large copies, split over threads ----------===*
 *
 * onnxc_rt_copy (runtime_abi.h): onnxc-parallel-copies makes the static
 * copies of 256 KiB and more of optimized models (a Concat input copied
 * into its slice of the result, a padded buffer's interior) calls of it.
 * Its dims merged where both sides walk them as one (a slice of whole
 * channel planes becomes one row), a copy large enough for a parallel
 * region (onnxc_rt_threads_for, ONNXC_COPY_FLOP_PER_ELEMENT) is split by
 * rows, or, with fewer rows than parts wanted, into column ranges of whole
 * cache lines; the rows go through memref.c's strided row copy. The parts
 * write disjoint bytes.
 *===----------------------------------------------------------------------===*/

#include "internal.h"

#include <stdint.h>

/* A copy with its dims merged (copy_merge), cut into units: `pieces`
 * column ranges of `piece` elements (the last takes the rest) of each of
 * the `rows` rows (the outer dims' odometer). */
typedef struct copy_job {
  char *dst;
  const char *src;
  int64_t rank, size;
  int64_t sizes[ONNXC_MAX_RANK], ss[ONNXC_MAX_RANK], ds[ONNXC_MAX_RANK];
  int64_t pieces, piece;
} copy_job;

/* Drops dims of size 1 and merges dim k into dim k + 1 where both strides
 * walk them as one (stride[k] = stride[k + 1] * size[k + 1]): a Concat
 * input's copy into its slice becomes one row. Returns 0 when the copy is
 * empty. */
static int copy_merge(copy_job *j, const int64_t *sizes, const int64_t *ss,
                      const int64_t *ds, int64_t rank) {
  int64_t k;
  j->rank = 0;
  for (k = 0; k < rank; ++k) {
    int64_t r = j->rank;
    if (sizes[k] == 0)
      return 0;
    if (sizes[k] == 1)
      continue;
    if (r > 0 && j->ss[r - 1] == ss[k] * sizes[k] &&
        j->ds[r - 1] == ds[k] * sizes[k]) {
      /* dim r - 1 then dim k, as one: the inner stride, both sizes. */
      j->sizes[r - 1] *= sizes[k];
      j->ss[r - 1] = ss[k];
      j->ds[r - 1] = ds[k];
      continue;
    }
    j->sizes[r] = sizes[k];
    j->ss[r] = ss[k];
    j->ds[r] = ds[k];
    ++j->rank;
  }
  if (j->rank == 0) { /* one element */
    j->sizes[0] = 1;
    j->ss[0] = j->ds[0] = 1;
    j->rank = 1;
  }
  return 1;
}

/* The offsets (elements) of row `row` in the source and destination, and
 * its index over the outer dims in `index`. */
static void copy_row_at(const copy_job *j, int64_t row, int64_t *index,
                        int64_t *so, int64_t *doff) {
  int64_t k;
  *so = *doff = 0;
  for (k = j->rank - 2; k >= 0; --k) {
    index[k] = row % j->sizes[k];
    row /= j->sizes[k];
    *so += index[k] * j->ss[k];
    *doff += index[k] * j->ds[k];
  }
}

/* Units [first, end) of the job: whole rows walked with an odometer, or
 * column ranges of a few rows. */
static void copy_units(void *p, int64_t first, int64_t end) {
  const copy_job *j = p;
  int64_t r = j->rank, inner = j->sizes[r - 1], index[ONNXC_MAX_RANK];
  int64_t u, so, doff, k;
  if (j->pieces > 1) {
    for (u = first; u < end; ++u) {
      int64_t c0 = (u % j->pieces) * j->piece;
      int64_t c1 = u % j->pieces == j->pieces - 1 ? inner : c0 + j->piece;
      copy_row_at(j, u / j->pieces, index, &so, &doff);
      so += c0 * j->ss[r - 1];
      doff += c0 * j->ds[r - 1];
      onnxc_rt_copy_row(j->dst + doff * j->size, j->ds[r - 1], j->src + so * j->size,
               j->ss[r - 1], c1 - c0, j->size);
    }
    return;
  }
  copy_row_at(j, first, index, &so, &doff);
  for (u = first; u < end; ++u) {
    onnxc_rt_copy_row(j->dst + doff * j->size, j->ds[r - 1], j->src + so * j->size,
             j->ss[r - 1], inner, j->size);
    for (k = r - 2; k >= 0; --k) {
      so += j->ss[k];
      doff += j->ds[k];
      if (++index[k] < j->sizes[k])
        break;
      so -= index[k] * j->ss[k];
      doff -= index[k] * j->ds[k];
      index[k] = 0;
    }
  }
}

void onnxc_rt_copy(const int64_t *params, const void *src, void *dst) {
  int64_t rank = params[0], size = params[1], rows = 1, k, inner, total;
  const int64_t *sizes = params + 2;
  copy_job j;
  int threads;
  if (rank < 1 || rank > ONNXC_MAX_RANK)
    onnxc_rt_fail(ONNXC_ERROR_RUNTIME, "copy of a rank outside [1, ONNXC_MAX_RANK]");
  if (!copy_merge(&j, sizes, sizes + rank, sizes + 2 * rank, rank))
    return;
  j.dst = (char *)dst;
  j.src = (const char *)src;
  j.size = size;
  for (k = 0; k + 1 < j.rank; ++k)
    rows *= j.sizes[k];
  inner = j.sizes[j.rank - 1];
  total = rows * inner;
  threads = onnxc_rt_threads_for(ONNXC_COPY_FLOP_PER_ELEMENT * (double)total);
  if (threads <= 1) {
    onnxc_rt_copy_view(j.dst, j.ds, j.src, j.ss, j.sizes, j.rank, size);
    return;
  }
  /* Few rows: each cut into column ranges of whole cache lines, so that
   * there are about 4 units a thread. */
  j.pieces = 1;
  j.piece = inner;
  if (rows < 4 * (int64_t)threads) {
    int64_t line = size < 64 ? 64 / size : 1;
    int64_t want = (4 * (int64_t)threads + rows - 1) / rows;
    j.piece = ((inner + want - 1) / want + line - 1) / line * line;
    j.pieces = (inner + j.piece - 1) / j.piece;
  }
  onnxc_rt_parallel_range(rows * j.pieces, 1, threads, copy_units, &j);
}
