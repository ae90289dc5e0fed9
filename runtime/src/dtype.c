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
      "uint32",    "uint64", "complex64", "complex128", "bfloat16"};
  return dtype >= 0 && dtype <= 16 ? names[dtype] : "unknown";
}

size_t onnxc_dtype_size(int32_t dtype) {
  switch (dtype) {
  case ONNXC_DTYPE_UINT8:
  case ONNXC_DTYPE_INT8:
  case ONNXC_DTYPE_BOOL:
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
