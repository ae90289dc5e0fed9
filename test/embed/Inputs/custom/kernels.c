/* Custom-op kernels for test/embed/custom-op.test (the ABI of
 * onnxc/custom_op.h). */
#include "onnxc/custom_op.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* com.example.Swish: y = x * sigmoid(beta * x), beta defaults to 1. */
int onnxc_custom_com_example_Swish_shape(onnxc_custom_call *call) {
  int64_t d;
  if (call->outputs[0].rank != call->inputs[0].rank)
    return 1;
  for (d = 0; d < call->inputs[0].rank; ++d)
    call->outputs[0].dims[d] = call->inputs[0].dims[d];
  return 0;
}

int onnxc_custom_com_example_Swish(onnxc_custom_call *call) {
  const onnxc_custom_attr *beta = onnxc_custom_find_attr(call, "beta");
  float b = beta && beta->kind == ONNXC_CUSTOM_ATTR_FLOAT ? beta->f : 1.0f;
  const float *x;
  float *y;
  int64_t i, n;
  if (call->num_inputs != 1 || call->num_outputs != 1 ||
      call->inputs[0].dtype != 1 || call->outputs[0].dtype != 1) {
    snprintf(call->message, call->message_size, "expects one float tensor");
    return 1;
  }
  if (!(b > 0)) {
    snprintf(call->message, call->message_size,
             "beta must be positive, got %g", b);
    return 2;
  }
  n = onnxc_custom_numel(&call->inputs[0]);
  if (n != onnxc_custom_numel(&call->outputs[0]))
    return 3;
  x = (const float *)call->inputs[0].data;
  y = (float *)call->outputs[0].data;
  for (i = 0; i < n; ++i)
    y[i] = x[i] / (1.0f + expf(-b * x[i]));
  return 0;
}

/* test.attrs.Mix: y[i][j] = x[i][j] * scale + offsets[j] + bias + k[j];
 * code[0] = strlen(tag) * 1000 + idx[0] * 100 + idx count * 10 + attrs. */
int onnxc_custom_test_attrs_Mix(onnxc_custom_call *call) {
  const onnxc_custom_attr *scale = onnxc_custom_find_attr(call, "scale");
  const onnxc_custom_attr *bias = onnxc_custom_find_attr(call, "bias");
  const onnxc_custom_attr *tag = onnxc_custom_find_attr(call, "tag");
  const onnxc_custom_attr *offsets = onnxc_custom_find_attr(call, "offsets");
  const onnxc_custom_attr *idx = onnxc_custom_find_attr(call, "idx");
  const float *x = (const float *)call->inputs[0].data;
  const int64_t *k = (const int64_t *)call->inputs[1].data;
  float *y = (float *)call->outputs[0].data;
  int64_t *code = (int64_t *)call->outputs[1].data;
  int64_t i, j, rows = call->inputs[0].dims[0], cols = call->inputs[0].dims[1];
  if (!scale || scale->kind != ONNXC_CUSTOM_ATTR_FLOAT || !bias ||
      bias->kind != ONNXC_CUSTOM_ATTR_INT || !tag ||
      tag->kind != ONNXC_CUSTOM_ATTR_STRING || !offsets ||
      offsets->kind != ONNXC_CUSTOM_ATTR_FLOATS || offsets->count != cols ||
      !idx || idx->kind != ONNXC_CUSTOM_ATTR_INTS || idx->count < 1 ||
      strcmp(call->node, "#1") != 0 || strcmp(call->domain, "test.attrs") != 0 ||
      strcmp(call->op_type, "Mix") != 0 || call->inputs[1].dtype != 7 ||
      call->outputs[1].dtype != 7 || call->outputs[1].dims[0] != 1) {
    snprintf(call->message, call->message_size, "unexpected call");
    return 1;
  }
  for (i = 0; i < rows; ++i)
    for (j = 0; j < cols; ++j)
      y[i * cols + j] = x[i * cols + j] * scale->f + offsets->floats[j] +
                        (float)bias->i + (float)k[j];
  code[0] = (int64_t)strlen(tag->s) * 1000 + idx->ints[0] * 100 +
            idx->count * 10 + call->num_attrs;
  return 0;
}
