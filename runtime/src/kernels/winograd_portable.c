/*===- kernels/winograd_portable.c - Winograd transforms, portable C ----===*
 *
 * winograd_impl.h compiled for the portable tier (every target).
 *===----------------------------------------------------------------------===*/

#include "dispatch.h"

#define WINO_FILL onnxc_rt_winograd_fill_portable
#include "winograd_impl.h"
