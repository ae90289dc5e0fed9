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

/* Float to string as the ONNX reference implementation does (numpy's
 * x.astype(str)): the shortest decimal digits that read back as the same
 * value of the source type (float64, float32, float16, bfloat16; of the
 * shortest ones, the closest), written positionally ("1.0", "0.0001",
 * "123456790.0") when 1e-4 <= |v| < 1e16 or v is 0, else in scientific
 * form ("1e-05", "3.4e+38", "1.5e+16": no ".0", an exponent of two digits
 * at least); "nan", "inf", "-inf", "-0.0". The digits come from printf's
 * correctly rounded "%.*e" at increasing precision; a candidate is kept when
 * it rounds back to v (strtod for float64; for the narrower types, when it
 * lies inside v's rounding interval, whose ends are exact in double). */

/* Significand bits (without the implicit one) and the smallest normal
 * exponent of each kind (ONNXC_RT_FLOAT_*). */
static const int float_mant_bits[4] = {52, 23, 10, 7};
static const int float_min_exp[4] = {-1022, -126, -14, -126};
static const int float_max_digits[4] = {17, 9, 5, 4};

/* Whether the decimal `s` reads back as v (a value of kind `kind`), under
 * round to nearest, ties to even. */
static int float_round_trips(const char *s, double v, int kind) {
  double c, a, ulp, lo, hi, m;
  int e, odd;
  if (kind == ONNXC_RT_FLOAT_F64)
    return strtod(s, NULL) == v;
  c = fabs(strtod(s, NULL));
  a = fabs(v);           /* not 0: onnxc_rt_format_float writes 0 itself */
  (void)frexp(a, &e);    /* a = f * 2^e, 0.5 <= f < 1 */
  e -= 1;                /* a = 1.xxx * 2^e */
  if (e < float_min_exp[kind])
    e = float_min_exp[kind];
  ulp = ldexp(1.0, e - float_mant_bits[kind]);
  m = a / ulp;           /* the integer significand */
  odd = fmod(m, 2.0) != 0;
  hi = a + ulp / 2;      /* past the largest finite value: rounds to inf */
  lo = (a == ldexp(1.0, e) && e > float_min_exp[kind]) ? a - ulp / 4
                                                       : a - ulp / 2;
  if (odd)
    return c > lo && c < hi;
  return c >= lo && c <= hi;
}

/* The `p`-digit decimal next to digits[0..p) (an integer), up (+1) or down
 * (-1), in place; `exp10` follows a carry or a borrow. */
static void decimal_step(char *digits, int p, int *exp10, int dir) {
  int i;
  if (dir > 0) {
    for (i = p - 1; i >= 0 && digits[i] == '9'; --i)
      digits[i] = '0';
    if (i >= 0) {
      ++digits[i];
    } else {        /* 99..9 + 1 = 100..0: one more digit, shifted */
      digits[0] = '1';
      ++*exp10;
    }
    return;
  }
  for (i = p - 1; i >= 0 && digits[i] == '0'; --i)
    digits[i] = '9';
  --digits[i];      /* digits[0] >= '1': some digit is not 0 */
  if (digits[0] == '0') { /* 100..0 - 1 = 099..9: shift left, pad with 9 */
    memmove(digits, digits + 1, (size_t)(p - 1));
    digits[p - 1] = '9';
    --*exp10;
  }
}

/* digits[0..p) * 10^(exp10 - p + 1) as a "%.*e" string, into buf. */
static void decimal_text(char *buf, size_t size, int neg, const char *digits,
                         int p, int exp10) {
  snprintf(buf, size, "%s%c%s%.*se%d", neg ? "-" : "", digits[0],
           p > 1 ? "." : "", p - 1, digits + 1, exp10);
}

int onnxc_rt_format_float(char *buf, size_t size, double v, int kind) {
  char digits[32], tmp[48], cand[48];
  int neg = signbit(v) != 0, p, exp10 = 0, n, i, len;
  double a = fabs(v);
  if (isnan(v))
    return snprintf(buf, size, "nan");
  if (isinf(v))
    return snprintf(buf, size, neg ? "-inf" : "inf");
  if (a == 0)
    return snprintf(buf, size, neg ? "-0.0" : "0.0");
  for (p = 1; p <= float_max_digits[kind]; ++p) {
    int e2, dir;
    /* "d.ddde+XX": the closest p-digit decimal. */
    snprintf(tmp, sizeof tmp, "%.*e", p - 1, a);
    digits[0] = tmp[0];
    memcpy(digits + 1, tmp + 2, (size_t)(p - 1));
    digits[p] = '\0';
    e2 = atoi(strchr(tmp, 'e') + 1);
    if (float_round_trips(tmp, a, kind)) {
      exp10 = e2;
      break;
    }
    /* Below a power of two the interval is narrower: the closest p-digit
     * decimal may fall out of it below while the next one above is in. */
    dir = strtod(tmp, NULL) < a ? 1 : -1;
    decimal_step(digits, p, &e2, dir);
    decimal_text(cand, sizeof cand, 0, digits, p, e2);
    if (float_round_trips(cand, a, kind)) {
      exp10 = e2;
      break;
    }
  }
  if (p > float_max_digits[kind]) { /* not reached: %.16e/%.8e round-trip */
    p = float_max_digits[kind];
    snprintf(tmp, sizeof tmp, "%.*e", p - 1, a);
    digits[0] = tmp[0];
    memcpy(digits + 1, tmp + 2, (size_t)(p - 1));
    exp10 = atoi(strchr(tmp, 'e') + 1);
  }
  len = p;
  while (len > 1 && digits[len - 1] == '0')
    --len;
  digits[len] = '\0';
  n = 0;
  if (neg)
    tmp[n++] = '-';
  if (a >= 1e-4 && a < 1e16) {
    if (exp10 >= 0) {
      for (i = 0; i <= exp10; ++i)
        tmp[n++] = i < len ? digits[i] : '0';
      tmp[n++] = '.';
      if (len > exp10 + 1)
        for (i = exp10 + 1; i < len; ++i)
          tmp[n++] = digits[i];
      else
        tmp[n++] = '0';
    } else {
      tmp[n++] = '0';
      tmp[n++] = '.';
      for (i = 0; i < -exp10 - 1; ++i)
        tmp[n++] = '0';
      for (i = 0; i < len; ++i)
        tmp[n++] = digits[i];
    }
    tmp[n] = '\0';
  } else {
    tmp[n++] = digits[0];
    if (len > 1) {
      tmp[n++] = '.';
      for (i = 1; i < len; ++i)
        tmp[n++] = digits[i];
    }
    snprintf(tmp + n, sizeof tmp - (size_t)n, "e%c%02d", exp10 < 0 ? '-' : '+',
             exp10 < 0 ? -exp10 : exp10);
  }
  return snprintf(buf, size, "%s", tmp);
}

int64_t onnxc_rt_str_from_float(double v, int32_t kind, const char *site) {
  char buf[48];
  int n = onnxc_rt_format_float(buf, sizeof buf, v, kind);
  return addr_of(str_new(buf, (size_t)n, site));
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
