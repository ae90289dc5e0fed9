/*===- kernels/winograd_avx2.c - Winograd transforms, AVX2 -------------===*
 *
 * winograd_impl.h compiled with this tier's flags (runtime/CMakeLists.txt);
 * dispatch.c calls its fill only on CPUs that have the ISA.
 *===----------------------------------------------------------------------===*/

#include "dispatch.h"

#ifdef ONNXC_X86
#define WINO_FILL onnxc_rt_winograd_fill_avx2
#include "winograd_impl.h"
#else
typedef int onnxc_winograd_avx2_empty; /* not x86-64: nothing here */
#endif
