/*===- strings.c - String tensors' element functions ----------------------===*
 *
 * C99 and POSIX <regex.h> (libc only). What generated code calls for the
 * string ops (passes/Conversion/ONNXToLinalg/Strings.cpp; the ABI is in
 * runtime_abi.h): inside the model a string is an int64_t holding the
 * address of a NUL-terminated UTF-8 string (0 reads as ""). Strings the
 * model makes are allocated with onnxc_rt_alloc, so they belong to the call
 * and are freed when it ends; onnxc_run_model copies the outputs' strings
 * out first (docs/codegen.md, "String tensors").
 *===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200809L

#include "internal.h"
#include "onnxc/runtime_abi.h"

#include <errno.h>
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *str_of(int64_t s) {
  return s ? (const char *)(intptr_t)s : "";
}

static int64_t addr_of(const char *s) { return (int64_t)(intptr_t)s; }

/* A copy of `len` bytes of `s` (NUL added) owned by the call. */
static char *str_new(const char *s, size_t len, const char *site) {
  char *p = (char *)onnxc_rt_alloc(len + 1, site);
  memcpy(p, s, len);
  p[len] = '\0';
  return p;
}

/* Fails the call: "<site>: <what> '<s>'" with the string's bytes escaped
 * (at most 40 of them shown). */
static void fail_with_string(const char *site, const char *what,
                             const char *s) {
  char shown[4 * 40 + 4], msg[512];
  size_t n = 0, i;
  for (i = 0; s[i] && i < 40; ++i) {
    unsigned char c = (unsigned char)s[i];
    if (c < 0x20 || c == 0x7f || c == '\\')
      n += (size_t)snprintf(shown + n, sizeof shown - n, "\\x%02x", c);
    else
      shown[n++] = (char)c;
  }
  if (s[i])
    n += (size_t)snprintf(shown + n, sizeof shown - n, "...");
  shown[n] = '\0';
  snprintf(msg, sizeof msg, "%s: %s '%s'", site ? site : "string op", what,
           shown);
  onnxc_rt_fail(ONNXC_ERROR_RUNTIME, msg);
}

/*===-------------------------- Comparisons, concatenation ----------------===*/

int32_t onnxc_rt_str_eq(int64_t a, int64_t b) {
  return strcmp(str_of(a), str_of(b)) == 0;
}

int32_t onnxc_rt_str_cmp(int64_t a, int64_t b) {
  int c = strcmp(str_of(a), str_of(b));
  return c < 0 ? -1 : c > 0;
}

int64_t onnxc_rt_str_concat(int64_t a, int64_t b, const char *site) {
  const char *x = str_of(a), *y = str_of(b);
  size_t lx = strlen(x), ly = strlen(y);
  char *p = (char *)onnxc_rt_alloc(lx + ly + 1, site);
  memcpy(p, x, lx);
  memcpy(p + lx, y, ly + 1);
  return addr_of(p);
}

/*===-------------------------- Cast --------------------------------------===*/

int64_t onnxc_rt_str_from_f64(double v, const char *site) {
  char buf[64];
  if (isnan(v))
    return addr_of("NaN");
  if (isinf(v))
    return addr_of(v < 0 ? "-INF" : "INF");
  snprintf(buf, sizeof buf, "%.8g", v);
  return addr_of(str_new(buf, strlen(buf), site));
}

int64_t onnxc_rt_str_from_i64(int64_t v, const char *site) {
  char buf[32];
  snprintf(buf, sizeof buf, "%lld", (long long)v);
  return addr_of(str_new(buf, strlen(buf), site));
}

int64_t onnxc_rt_str_from_u64(uint64_t v, const char *site) {
  char buf[32];
  snprintf(buf, sizeof buf, "%llu", (unsigned long long)v);
  return addr_of(str_new(buf, strlen(buf), site));
}

double onnxc_rt_str_to_f64(int64_t s, const char *site) {
  const char *p = str_of(s);
  char *end;
  double v;
  errno = 0;
  v = strtod(p, &end);
  if (end == p)
    fail_with_string(site, "cannot parse as a number:", p);
  return v;
}

int64_t onnxc_rt_str_to_i64(int64_t s, const char *site) {
  const char *p = str_of(s);
  char *end;
  long long v;
  errno = 0;
  v = strtoll(p, &end, 10);
  if (end == p)
    fail_with_string(site, "cannot parse as an integer:", p);
  if (errno == ERANGE)
    fail_with_string(site, "is out of the range of int64:", p);
  return (int64_t)v;
}

uint64_t onnxc_rt_str_to_u64(int64_t s, const char *site) {
  const char *p = str_of(s);
  char *end;
  unsigned long long v;
  errno = 0;
  v = strtoull(p, &end, 10);
  if (end == p)
    fail_with_string(site, "cannot parse as an integer:", p);
  if (errno == ERANGE)
    fail_with_string(site, "is out of the range of uint64:", p);
  return (uint64_t)v;
}

/*===-------------------------- Case mapping ------------------------------===*/

/* Decodes one UTF-8 code point at *p (advancing it); a byte that does not
 * start a valid sequence decodes as itself with *valid = 0. */
static uint32_t utf8_next(const unsigned char **p, int *valid) {
  const unsigned char *s = *p;
  uint32_t c = s[0];
  int n = c < 0x80 ? 0 : (c & 0xe0) == 0xc0 ? 1 : (c & 0xf0) == 0xe0 ? 2
                     : (c & 0xf8) == 0xf0   ? 3
                                            : -1;
  int i;
  *valid = 1;
  if (n < 0) {
    *valid = 0;
    *p = s + 1;
    return c;
  }
  if (n == 0) {
    *p = s + 1;
    return c;
  }
  c &= 0x3fu >> n;
  for (i = 1; i <= n; ++i) {
    if ((s[i] & 0xc0) != 0x80) {
      *valid = 0;
      *p = s + 1;
      return s[0];
    }
    c = (c << 6) | (s[i] & 0x3f);
  }
  *p = s + n + 1;
  return c;
}

static size_t utf8_put(uint32_t c, char *out) {
  if (c < 0x80) {
    out[0] = (char)c;
    return 1;
  }
  if (c < 0x800) {
    out[0] = (char)(0xc0 | (c >> 6));
    out[1] = (char)(0x80 | (c & 0x3f));
    return 2;
  }
  if (c < 0x10000) {
    out[0] = (char)(0xe0 | (c >> 12));
    out[1] = (char)(0x80 | ((c >> 6) & 0x3f));
    out[2] = (char)(0x80 | (c & 0x3f));
    return 3;
  }
  out[0] = (char)(0xf0 | (c >> 18));
  out[1] = (char)(0x80 | ((c >> 12) & 0x3f));
  out[2] = (char)(0x80 | ((c >> 6) & 0x3f));
  out[3] = (char)(0x80 | (c & 0x3f));
  return 4;
}

/* The "C" locale's case mappings: ASCII letters only. */
static uint32_t ascii_lower(uint32_t c) {
  return c >= 'A' && c <= 'Z' ? c + 32 : c;
}
static uint32_t ascii_upper(uint32_t c) {
  return c >= 'a' && c <= 'z' ? c - 32 : c;
}

/* The UTF-8 locales' (en_US.UTF-8, C.UTF-8) simple one-to-one case
 * mappings of ASCII, Latin-1, Latin Extended-A, basic Greek and Cyrillic
 * letters; other code points map to themselves (docs/supported-ops.md,
 * StringNormalizer). */
static int latin_ext_a_upper_even(uint32_t c) {
  return (c >= 0x100 && c <= 0x12f) || (c >= 0x132 && c <= 0x137) ||
         (c >= 0x14a && c <= 0x177);
}
static int latin_ext_a_upper_odd(uint32_t c) {
  return (c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17e);
}

static uint32_t to_lower(uint32_t c) {
  if (c >= 'A' && c <= 'Z')
    return c + 32;
  if (c < 0x80)
    return c;
  if (c >= 0xc0 && c <= 0xde && c != 0xd7)
    return c + 32;
  if (latin_ext_a_upper_even(c))
    return c | 1;
  if (latin_ext_a_upper_odd(c))
    return (c & 1) ? c + 1 : c;
  if (c == 0x178)
    return 0xff;
  if (c >= 0x391 && c <= 0x3a9 && c != 0x3a2)
    return c + 32;
  if (c >= 0x410 && c <= 0x42f)
    return c + 32;
  if (c >= 0x400 && c <= 0x40f)
    return c + 80;
  return c;
}

static uint32_t to_upper(uint32_t c) {
  if (c >= 'a' && c <= 'z')
    return c - 32;
  if (c < 0x80)
    return c;
  if (c >= 0xe0 && c <= 0xfe && c != 0xf7)
    return c - 32;
  if (c == 0xff)
    return 0x178;
  if (latin_ext_a_upper_even(c))
    return c & ~(uint32_t)1;
  if (latin_ext_a_upper_odd(c))
    return (c & 1) ? c : c - 1;
  if (c >= 0x3b1 && c <= 0x3c9 && c != 0x3c2)
    return c - 32;
  if (c >= 0x430 && c <= 0x44f)
    return c - 32;
  if (c >= 0x450 && c <= 0x45f)
    return c - 80;
  return c;
}

/* `s` with every code point mapped by `map` (invalid bytes kept), owned by
 * the call. */
static char *map_case(const char *s, uint32_t (*map)(uint32_t),
                      const char *site) {
  size_t len = strlen(s), n = 0;
  /* A mapping keeps each code point's UTF-8 length within one byte of the
   * original in the ranges above (at most 2 bytes for 1): 2x suffices. */
  char *out = (char *)onnxc_rt_alloc(2 * len + 1, site);
  const unsigned char *p = (const unsigned char *)s;
  while (*p) {
    const unsigned char *start = p;
    int valid;
    uint32_t c = utf8_next(&p, &valid);
    if (!valid) {
      out[n++] = (char)*start;
      continue;
    }
    n += utf8_put(map(c), out + n);
  }
  out[n] = '\0';
  return out;
}

/* Whether `a` and `b` are equal once `lower` mapped their code points. */
static int equal_ignoring_case(const char *a, const char *b,
                               uint32_t (*lower)(uint32_t)) {
  const unsigned char *p = (const unsigned char *)a,
                      *q = (const unsigned char *)b;
  while (*p && *q) {
    int va, vb;
    uint32_t x = utf8_next(&p, &va), y = utf8_next(&q, &vb);
    if (va != vb || (va ? lower(x) != lower(y) : x != y))
      return 0;
  }
  return *p == *q;
}

/*===-------------------------- StringNormalizer --------------------------===*/

int64_t onnxc_rt_str_normalize(const int64_t *in, int64_t n, int64_t *out,
                               int32_t case_action, int32_t case_sensitive,
                               int32_t unicode, const char *stopwords,
                               int64_t num_stopwords, const char *site) {
  uint32_t (*lower)(uint32_t) = unicode ? to_lower : ascii_lower;
  uint32_t (*upper)(uint32_t) = unicode ? to_upper : ascii_upper;
  int64_t i, j, count = 0;
  for (i = 0; i < n; ++i) {
    const char *s = str_of(in[i]);
    const char *w = stopwords;
    int stop = 0;
    for (j = 0; j < num_stopwords && !stop; ++j, w += strlen(w) + 1)
      stop = case_sensitive ? strcmp(s, w) == 0 : equal_ignoring_case(s, w, lower);
    if (stop)
      continue;
    if (case_action == 1)
      out[count++] = addr_of(map_case(s, lower, site));
    else if (case_action == 2)
      out[count++] = addr_of(map_case(s, upper, site));
    else
      out[count++] = addr_of(s);
  }
  /* Nothing kept: one empty string (`out` has room for one). */
  if (count == 0)
    out[count++] = 0;
  return count;
}

/*===-------------------------- StringSplit -------------------------------===*/

/* StringSplit of one string, as ONNX Runtime does it: by `delim`, or,
 * when it is "" (or 0), by runs of spaces (' ' only; leading and trailing
 * ones dropped); at most maxsplit + 1 pieces (maxsplit < 0: no limit), the
 * last one the rest of the string as it is. An empty string has no piece.
 * With `out` NULL, counts the pieces; else writes them (owned by the call). */
static int64_t split(int64_t str, int64_t delimiter, int64_t maxsplit,
                     int64_t *out, const char *site) {
  const char *s = str_of(str), *d = str_of(delimiter);
  size_t dl = strlen(d);
  int64_t count = 0;
  if (!*s)
    return 0;
  if (dl == 0) {
    const char *p = s;
    for (;;) {
      const char *start;
      while (*p == ' ')
        ++p;
      if (!*p)
        break;
      start = p;
      if (maxsplit >= 0 && count == maxsplit) {
        if (out)
          out[count] = addr_of(str_new(start, strlen(start), site));
        ++count;
        break;
      }
      while (*p && *p != ' ')
        ++p;
      if (out)
        out[count] = addr_of(str_new(start, (size_t)(p - start), site));
      ++count;
    }
    return count;
  }
  {
    const char *p = s;
    for (;;) {
      const char *hit =
          maxsplit >= 0 && count == maxsplit ? NULL : strstr(p, d);
      if (!hit) {
        if (out)
          out[count] = addr_of(str_new(p, strlen(p), site));
        return count + 1;
      }
      if (out)
        out[count] = addr_of(str_new(p, (size_t)(hit - p), site));
      ++count;
      p = hit + dl;
    }
  }
}

int64_t onnxc_rt_str_split(int64_t str, int64_t delimiter, int64_t maxsplit,
                           int64_t *out, int64_t width, const char *site) {
  int64_t count = split(str, delimiter, maxsplit, out, site), i;
  for (i = count; out && i < width; ++i)
    out[i] = 0;
  return count;
}

/*===-------------------------- RegexFullMatch ----------------------------===*/

void onnxc_rt_regex_full_match(const int64_t *in, int64_t n, uint8_t *out,
                               const char *pattern, const char *site) {
  regex_t re;
  size_t len = strlen(pattern);
  char *anchored = (char *)malloc(len + 5);
  int rc;
  int64_t i;
  if (!anchored)
    onnxc_rt_fail(ONNXC_ERROR_OUT_OF_MEMORY, site);
  /* A full match: the pattern anchored at both ends, as one group. */
  memcpy(anchored, "^(", 2);
  memcpy(anchored + 2, pattern, len);
  memcpy(anchored + 2 + len, ")$", 3);
  rc = regcomp(&re, anchored, REG_EXTENDED | REG_NOSUB);
  free(anchored);
  if (rc != 0)
    fail_with_string(site, "the pattern does not compile as a POSIX extended "
                           "regular expression:",
                     pattern);
  for (i = 0; i < n; ++i)
    out[i] = regexec(&re, str_of(in[i]), 0, NULL, 0) == 0;
  regfree(&re);
}
