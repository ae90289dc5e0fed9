/*===- dtype.c - Element types and status codes by name and size ---------===*
 *
 * C99, libc only. The names and sizes of the dtypes (runtime.h) and the
 * names of the status codes, for callers and for the runtime's messages.
 *===----------------------------------------------------------------------===*/

#include "internal.h"

const char *onnxc_dtype_name(int32_t dtype) {
  static const char *const names[] = {
      "undefined", "float",  "uint8",     "int8",       "uint16",  "int16",
      "int32",     "int64",  "string",    "bool",       "float16", "double",
      "uint32",    "uint64", "complex64", "complex128", "bfloat16",
      "float8e4m3fn", "float8e4m3fnuz", "float8e5m2", "float8e5m2fnuz",
      "uint4", "int4", "float4e2m1"};
  return dtype >= 0 && dtype <= 23 ? names[dtype] : "unknown";
}

int onnxc_rt_dtype_packed(int32_t dtype) {
  return dtype == ONNXC_DTYPE_UINT4 || dtype == ONNXC_DTYPE_INT4 ||
         dtype == ONNXC_DTYPE_FLOAT4E2M1;
}

size_t onnxc_dtype_bytes(int32_t dtype, int64_t numel) {
  if (numel < 0)
    return 0;
  if (onnxc_rt_dtype_packed(dtype))
    return (size_t)(numel / 2 + numel % 2);
  return (size_t)numel * onnxc_dtype_size(dtype);
}

void onnxc_rt_unpack4(int8_t *dst, const uint8_t *src, int64_t n,
                      int32_t dtype) {
  int64_t i;
  for (i = 0; i < n; ++i) {
    uint8_t nib = (uint8_t)(i % 2 ? src[i / 2] >> 4 : src[i / 2] & 0xF);
    /* int4 sign-extends; uint4 and float4e2m1 keep the nibble. */
    dst[i] = dtype == ONNXC_DTYPE_INT4 && (nib & 0x8) ? (int8_t)(nib | 0xF0)
                                                     : (int8_t)nib;
  }
}

void onnxc_rt_pack4(uint8_t *dst, const int8_t *src, int64_t n) {
  int64_t i;
  for (i = 0; i < n; ++i) {
    uint8_t nib = (uint8_t)((uint8_t)src[i] & 0xF);
    if (i % 2)
      dst[i / 2] = (uint8_t)(dst[i / 2] | (nib << 4));
    else
      dst[i / 2] = nib;
  }
}

size_t onnxc_dtype_size(int32_t dtype) {
  switch (dtype) {
  case ONNXC_DTYPE_UINT8:
  case ONNXC_DTYPE_INT8:
  case ONNXC_DTYPE_BOOL:
  case ONNXC_DTYPE_FLOAT8E4M3FN:
  case ONNXC_DTYPE_FLOAT8E4M3FNUZ:
  case ONNXC_DTYPE_FLOAT8E5M2:
  case ONNXC_DTYPE_FLOAT8E5M2FNUZ:
  case ONNXC_DTYPE_UINT4: /* packed: two per byte (onnxc_dtype_bytes) */
  case ONNXC_DTYPE_INT4:
  case ONNXC_DTYPE_FLOAT4E2M1:
    return 1;
  case ONNXC_DTYPE_UINT16:
  case ONNXC_DTYPE_INT16:
  case ONNXC_DTYPE_FLOAT16:
  case ONNXC_DTYPE_BFLOAT16:
    return 2;
  case ONNXC_DTYPE_FLOAT:
  case ONNXC_DTYPE_INT32:
  case ONNXC_DTYPE_UINT32:
    return 4;
  case ONNXC_DTYPE_INT64:
  case ONNXC_DTYPE_DOUBLE:
  case ONNXC_DTYPE_UINT64:
  case ONNXC_DTYPE_COMPLEX64:
    return 8;
  case ONNXC_DTYPE_COMPLEX128:
    return 16;
  case ONNXC_DTYPE_STRING:
    /* A string tensor's data is an array of pointers to NUL-terminated
     * UTF-8 (docs/codegen.md, "String tensors"). */
    return sizeof(const char *);
  default:
    return 0;
  }
}

const char *onnxc_status_string(onnxc_status status) {
  switch (status) {
  case ONNXC_OK:
    return "ok";
  case ONNXC_ERROR_INVALID_ARGUMENT:
    return "invalid argument";
  case ONNXC_ERROR_DTYPE:
    return "dtype mismatch";
  case ONNXC_ERROR_SHAPE:
    return "shape mismatch";
  case ONNXC_ERROR_OUT_OF_MEMORY:
    return "out of memory";
  case ONNXC_ERROR_RUNTIME:
    return "runtime error";
  }
  return "unknown status";
}
