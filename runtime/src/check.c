/*===- check.c - The caller's values checked against the model's signature =*
 *
 * C99, libc only. What onnxc_run_model (runtime.c) checks before it builds
 * a single descriptor: the model's own description, each input's kind,
 * dtype, rank and static dims, the symbolic dims bound consistently across
 * inputs, sizes that fit the model's int64 offsets, sequences' items and
 * optionals' contents, and caller-provided outputs.
 *===----------------------------------------------------------------------===*/

#include "internal.h"

#include <stdint.h>
#include <stdio.h>

static const char *kind_name(int32_t kind) {
  switch (kind) {
  case ONNXC_VALUE_TENSOR:
    return "a tensor";
  case ONNXC_VALUE_SEQUENCE:
    return "a sequence";
  case ONNXC_VALUE_OPTIONAL:
    return "an optional";
  case ONNXC_VALUE_MAP:
    return "a map";
  default:
    return "a value of unknown kind";
  }
}

/* The model's own description must be usable before anything else. */
onnxc_status onnxc_rt_check_info_values(const onnxc_model_info *info,
                                      const onnxc_value_info *values, int32_t n,
                                      const char *kind) {
  int32_t i, d;
  if (n > 0 && !values)
    return onnxc_rt_error(ONNXC_ERROR_INVALID_ARGUMENT, "model info: no %s array", kind);
  for (i = 0; i < n; ++i) {
    const onnxc_value_info *vi = &values[i];
    if (vi->kind < ONNXC_VALUE_TENSOR || vi->kind > ONNXC_VALUE_MAP ||
        (vi->kind == ONNXC_VALUE_OPTIONAL &&
         vi->payload_kind != ONNXC_VALUE_TENSOR &&
         vi->payload_kind != ONNXC_VALUE_SEQUENCE) ||
        (vi->kind == ONNXC_VALUE_SEQUENCE &&
         vi->payload_kind != ONNXC_VALUE_TENSOR &&
         vi->payload_kind != ONNXC_VALUE_MAP) ||
        (onnxc_rt_is_map_value(vi) &&
         (vi->rank != 1 || (vi->key_dtype != ONNXC_DTYPE_INT64 &&
                            vi->key_dtype != ONNXC_DTYPE_STRING))))
      return onnxc_rt_error(ONNXC_ERROR_INVALID_ARGUMENT,
                  "model info: %s '%s' has kind %d (payload kind %d)", kind,
                  onnxc_rt_value_name(vi), (int)vi->kind, (int)vi->payload_kind);
    /* -1: a sequence whose items have no known rank. */
    if (vi->rank < -1 || vi->rank > ONNXC_MAX_RANK ||
        (vi->rank == -1 && onnxc_rt_content_kind(vi) != ONNXC_VALUE_SEQUENCE) ||
        (vi->rank > 0 && !vi->dims))
      return onnxc_rt_error(ONNXC_ERROR_INVALID_ARGUMENT,
                  "model info: %s '%s' has rank %d", kind, onnxc_rt_value_name(vi),
                  (int)vi->rank);
    if (onnxc_dtype_size(vi->dtype) == 0)
      return onnxc_rt_error(ONNXC_ERROR_DTYPE, "%s '%s': dtype %d is not supported", kind,
                  onnxc_rt_value_name(vi), (int)vi->dtype);
    for (d = 0; d < vi->rank; ++d) {
      int32_t s = onnxc_rt_value_symbol(vi, d);
      if (s < -1 || s >= info->num_symbols)
        return onnxc_rt_error(ONNXC_ERROR_INVALID_ARGUMENT,
                    "model info: %s '%s' dim %d has symbol %d", kind,
                    onnxc_rt_value_name(vi), (int)d, (int)s);
    }
  }
  return ONNXC_OK;
}

/* Checks one input tensor (a graph input, an item of a sequence, the value
 * of an optional) against vi's dtype, `rank` and vi's static dims (none
 * when vi->rank is -1); `label` names it ("input 'x'", "input 'x' item 2").
 * A graph input tensor (`input` >= 0) also binds its symbols. */
static onnxc_status check_tensor(const onnxc_model_info *info,
                                 const onnxc_value_info *vi, int32_t rank,
                                 const onnxc_tensor *t, const char *label,
                                 int32_t input, onnxc_rt_binding *bindings) {
  int32_t d, s;
  int64_t numel;
  if (t->kind != ONNXC_VALUE_TENSOR)
    return onnxc_rt_error(ONNXC_ERROR_DTYPE, "%s: expected a tensor, got %s", label,
                kind_name(t->kind));
  if (t->dtype != vi->dtype)
    return onnxc_rt_error(ONNXC_ERROR_DTYPE, "%s: expected dtype %s, got %s", label,
                onnxc_dtype_name(vi->dtype), onnxc_dtype_name(t->dtype));
  if (t->rank != rank)
    return onnxc_rt_error(ONNXC_ERROR_SHAPE, "%s: expected rank %d, got %d", label,
                (int)rank, (int)t->rank);
  for (d = 0; d < t->rank; ++d) {
    int64_t got = t->shape[d];
    if (got < 0)
      return onnxc_rt_error(ONNXC_ERROR_SHAPE, "%s dim %d: negative size %lld", label,
                  (int)d, (long long)got);
    if (vi->rank >= 0 && vi->dims[d] >= 0 && got != vi->dims[d])
      return onnxc_rt_error(ONNXC_ERROR_SHAPE, "%s dim %d: expected %lld, got %lld",
                  label, (int)d, (long long)vi->dims[d], (long long)got);
    s = input >= 0 ? onnxc_rt_value_symbol(vi, d) : -1;
    if (s < 0)
      continue;
    if (bindings[s].input < 0) {
      bindings[s].value = got;
      bindings[s].input = input;
      bindings[s].dim = d;
    } else if (bindings[s].value != got) {
      if (bindings[s].input == input)
        return onnxc_rt_error(
            ONNXC_ERROR_SHAPE,
            "symbol '%s' is %lld for input '%s' dim %d but %lld for dim %d",
            onnxc_rt_symbol_name(info, s), (long long)bindings[s].value, onnxc_rt_value_name(vi),
            (int)bindings[s].dim, (long long)got, (int)d);
      return onnxc_rt_error(ONNXC_ERROR_SHAPE,
                  "symbol '%s' is %lld for input '%s' but %lld for input '%s'",
                  onnxc_rt_symbol_name(info, s), (long long)bindings[s].value,
                  onnxc_rt_value_name(&info->inputs[bindings[s].input]), (long long)got,
                  onnxc_rt_value_name(vi));
    }
  }
  numel = onnxc_rt_shape_numel(t->shape, t->rank);
  if (numel < 0)
    return onnxc_rt_error(ONNXC_ERROR_SHAPE, "%s: too many elements", label);
  /* Every byte offset in the model must fit an int64. */
  if ((uint64_t)numel > (uint64_t)INT64_MAX / onnxc_dtype_size(vi->dtype))
    return onnxc_rt_error(ONNXC_ERROR_SHAPE,
                "%s: %lld elements of %d bytes hold more than 2^63 - 1 bytes",
                label, (long long)numel, (int)onnxc_dtype_size(vi->dtype));
  if (!t->data && numel > 0)
    return onnxc_rt_error(ONNXC_ERROR_INVALID_ARGUMENT, "%s: data is null", label);
  /* A string tensor's elements are pointers to NUL-terminated strings. */
  if (vi->dtype == ONNXC_DTYPE_STRING) {
    const char *const *strs = (const char *const *)t->data;
    int64_t i;
    for (i = 0; i < numel; ++i)
      if (!strs[i])
        return onnxc_rt_error(ONNXC_ERROR_INVALID_ARGUMENT,
                              "%s: string %lld is a null pointer", label,
                              (long long)i);
  }
  return ONNXC_OK;
}

/* The element count of the concatenated items of sequence `seq` (checked
 * items; NULL: no items); -1 when it overflows. */
int64_t onnxc_rt_sequence_numel(const onnxc_tensor *seq) {
  int64_t total = 0, i;
  for (i = 0; seq && i < seq->num_items; ++i) {
    int64_t numel = onnxc_rt_shape_numel(seq->items[i].shape, seq->items[i].rank);
    if (numel < 0 || total > INT64_MAX - numel)
      return -1;
    total += numel;
  }
  return total;
}

static onnxc_status check_sequence(const onnxc_model_info *info,
                                   const onnxc_value_info *vi,
                                   const onnxc_tensor *t, const char *label) {
  char item_label[ONNXC_RT_ERROR_CAP];
  int64_t i, numel;
  onnxc_status status;
  if (t->kind != ONNXC_VALUE_SEQUENCE)
    return onnxc_rt_error(ONNXC_ERROR_DTYPE, "%s: expected a sequence, got %s", label,
                kind_name(t->kind));
  if (t->num_items < 0)
    return onnxc_rt_error(ONNXC_ERROR_INVALID_ARGUMENT, "%s: negative item count %lld",
                label, (long long)t->num_items);
  if (t->num_items > 0 && !t->items)
    return onnxc_rt_error(ONNXC_ERROR_INVALID_ARGUMENT, "%s: items is null", label);
  /* Their rows of shapes must be addressable. */
  if (vi->rank < 0 &&
      (uint64_t)t->num_items >
          (uint64_t)(SIZE_MAX / (ONNXC_RT_SEQ_ROW_WIDTH * sizeof(int64_t))))
    return onnxc_rt_error(ONNXC_ERROR_SHAPE, "%s: too many items", label);
  for (i = 0; i < t->num_items; ++i) {
    /* Items of no declared rank each have their own. */
    int32_t rank = vi->rank >= 0 ? vi->rank : t->items[i].rank;
    snprintf(item_label, sizeof item_label, "%s item %lld", label,
             (long long)i);
    if (rank < 0 || rank > ONNXC_MAX_RANK)
      return onnxc_rt_error(ONNXC_ERROR_SHAPE, "%s: rank %d is outside [0, %d]",
                  item_label, (int)rank, ONNXC_MAX_RANK);
    status = check_tensor(info, vi, rank, &t->items[i], item_label, -1, NULL);
    if (status != ONNXC_OK)
      return status;
  }
  /* The items' concatenated copy must be addressable too. */
  numel = onnxc_rt_sequence_numel(t);
  if (numel < 0 ||
      (uint64_t)numel > (uint64_t)INT64_MAX / onnxc_dtype_size(vi->dtype))
    return onnxc_rt_error(ONNXC_ERROR_SHAPE, "%s: too many elements", label);
  return ONNXC_OK;
}

onnxc_status onnxc_rt_check_inputs(const onnxc_model_info *info,
                                 const onnxc_tensor *inputs,
                                 onnxc_rt_binding *bindings) {
  char label[ONNXC_RT_ERROR_CAP];
  int32_t i, s;
  onnxc_status status = ONNXC_OK;
  for (s = 0; s < info->num_symbols; ++s)
    bindings[s].input = -1;
  for (i = 0; i < info->num_inputs && status == ONNXC_OK; ++i) {
    const onnxc_value_info *vi = &info->inputs[i];
    const onnxc_tensor *t = &inputs[i];
    snprintf(label, sizeof label, "input '%s'", onnxc_rt_value_name(vi));
    if (t->kind != vi->kind)
      return onnxc_rt_error(ONNXC_ERROR_DTYPE, "%s: expected %s, got %s", label,
                  kind_name(vi->kind), kind_name(t->kind));
    if (vi->kind == ONNXC_VALUE_TENSOR) {
      status = check_tensor(info, vi, vi->rank, t, label, i, bindings);
      continue;
    }
    if (onnxc_rt_is_map_value(vi)) {
      status = onnxc_rt_check_map_value(vi, t, label);
      continue;
    }
    if (vi->kind == ONNXC_VALUE_SEQUENCE) {
      status = check_sequence(info, vi, t, label);
      continue;
    }
    if (t->num_items < 0 || t->num_items > 1)
      return onnxc_rt_error(ONNXC_ERROR_INVALID_ARGUMENT,
                  "%s: an optional holds 0 or 1 item, got %lld", label,
                  (long long)t->num_items);
    if (t->num_items == 1 && !t->items)
      return onnxc_rt_error(ONNXC_ERROR_INVALID_ARGUMENT, "%s: items is null", label);
    if (t->num_items == 1)
      status =
          vi->payload_kind == ONNXC_VALUE_SEQUENCE
              ? check_sequence(info, vi, &t->items[0], label)
              : check_tensor(info, vi, vi->rank, &t->items[0], label, -1, NULL);
  }
  return status;
}

/* Caller-provided outputs (tensors only): what can be checked before the
 * run. */
onnxc_status onnxc_rt_check_preset_outputs(const onnxc_model_info *info,
                                         const onnxc_tensor *outputs) {
  int32_t k, d;
  for (k = 0; k < info->num_outputs; ++k) {
    const onnxc_value_info *vi = &info->outputs[k];
    const onnxc_tensor *t = &outputs[k];
    if (vi->kind != ONNXC_VALUE_TENSOR || !t->data)
      continue;
    if (t->kind != ONNXC_VALUE_TENSOR)
      return onnxc_rt_error(ONNXC_ERROR_DTYPE, "output '%s': expected a tensor, got %s",
                  onnxc_rt_value_name(vi), kind_name(t->kind));
    if (t->dtype != vi->dtype)
      return onnxc_rt_error(ONNXC_ERROR_DTYPE, "output '%s': expected dtype %s, got %s",
                  onnxc_rt_value_name(vi), onnxc_dtype_name(vi->dtype), onnxc_dtype_name(t->dtype));
    if (t->rank != vi->rank)
      return onnxc_rt_error(ONNXC_ERROR_SHAPE, "output '%s': expected rank %d, got %d",
                  onnxc_rt_value_name(vi), (int)vi->rank, (int)t->rank);
    for (d = 0; d < t->rank; ++d)
      if (vi->dims[d] >= 0 && t->shape[d] != vi->dims[d])
        return onnxc_rt_error(ONNXC_ERROR_SHAPE,
                    "output '%s' dim %d: expected %lld, got %lld",
                    onnxc_rt_value_name(vi), (int)d, (long long)vi->dims[d],
                    (long long)t->shape[d]);
  }
  return ONNXC_OK;
}
