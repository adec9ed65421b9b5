/* A depth table's sums over every composition below one prefix, in C.
 *
 * The spec is exactodds/advantage/compositions.py (its numpy path, the twin): the same
 * polynomials, fixed one value at a time, the same sums.  Here one call takes one prefix
 * (values 0 .. first-1 fixed) and walks every composition of the values first .. 9 below
 * it depth first, so each level's coefficients stay in one small buffer instead of one
 * numpy array per level, and the weights are exact integers instead of residues.
 *
 * depth_sums(first, remaining, bets, limbs, wide_from, coefficients, parameters,
 *            thresholds, binomials, sources, exponents, out) -> compositions
 *
 *   coefficients  int64, terms(first) x bets: the prefix's polynomial (terms in
 *                 compositions._terms(first) order)
 *   parameters    int64, 21: fixed[10], pool[10], offset
 *   thresholds    int64, bets: a composition passes when its numerator is above
 *   binomials     uint64, 10 x (remaining + 1): C(pool[v], x), 0 past the pool
 *   sources       int32, per level l = first .. 7, terms(l + 1) x 7: the row of level l's
 *                 term (j, m') for each term m' of level l + 1 and j = 0..6 (-1: none)
 *   exponents     int32, 28 x 2: the exponents (of values 8, 9) of compositions._terms(8)
 *   out           uint64, (3 bets + 1) x limbs, little-endian limbs: per bet the weight of
 *                 the passing compositions, their weighted shifted numerator (numerator +
 *                 offset), the weighted shifted numerator of all, then the total weight;
 *                 each composition weighted by prod over v >= first of C(pool[v], x_v)
 *                 (the prefix's own weight is the caller's)
 *
 * Exactness (the caller, compositions._native_plan, checks every premise first):
 *   - numerators: every coefficient and partial sum is a partial sum of terms
 *     w[m] * prod ff(c_v, m_v), at most the problem's bound, and 64 * bound < 2**63;
 *   - |numerator| < offset and 2 * offset < 2**63, so a shifted numerator is in
 *     (0, 2 * offset) and fits uint64;
 *   - every sum of level l (values l .. 9 still free, r cards to draw) is at most
 *     C(A_l, r) * 2 * offset, A_l the cards of the pools l .. 9 (Vandermonde: the weights
 *     of level l add up to C(A_l, r)); levels from wide_from on add in unsigned 128-bit
 *     integers, where that bound is below 2**128 (the tail, level 8, always is), the levels
 *     above in `limbs` 64-bit limbs, where it is below 2**(64 limbs); every partial sum
 *     and every product added is at most the final sum;
 *   - each binomial fits uint64, so a weight times a child's sum is one 64 x 128 or
 *     64 x limbs product.
 */
#include "_kernel.h"

#define LEVELS 10
#define MAX_LIMBS 8
#define TAIL 8

typedef struct {
    int first, wide_from, limbs;
    Py_ssize_t bets, sums;
    const int64_t *fixed, *pool;
    uint64_t offset;
    const int64_t *thresholds;
    const uint64_t *binomials;
    Py_ssize_t binomial_width;
    const int32_t *sources[LEVELS];
    const int32_t *exponents;
    int64_t capacity[LEVELS + 1]; /* cards in the pools of values l .. 9 */
    int64_t terms[LEVELS];
    int64_t *falling;             /* ff(n, j) at [n * 7 + j], n = 0 .. count_limit */
    int64_t count_limit;
    int64_t *buffers[LEVELS];     /* coefficients of level l: terms(l) x bets */
    u128 *wide[LEVELS];           /* sums of level l (l >= wide_from) */
    uint64_t *narrow[LEVELS];     /* sums of level l (l < wide_from), limbs each */
    int64_t *numerators;          /* bets */
    long long compositions;
} Walk;

static int64_t terms_of(int level) {
    /* C(16 - level, 6): exponent tuples over 10 - level values with at most six cards */
    int64_t n = 16 - level, result = 1;
    for (int k = 1; k <= 6; k++) result = result * (n - 6 + k) / k;
    return result;
}

static inline const uint64_t *binomial_row(const Walk *w, int level) {
    return w->binomials + (Py_ssize_t)level * w->binomial_width;
}

/* Level l + 1's coefficients for x cards of value l drawn (ff(fixed + x, j) per j). */
static void expand(const Walk *w, int level, int64_t x, const int64_t *parent, int64_t *child) {
    const int64_t *factor = w->falling + (w->fixed[level] + x) * 7;
    const int32_t *source = w->sources[level];
    Py_ssize_t bets = w->bets;
    for (int64_t t = 0; t < w->terms[level + 1]; t++) {
        const int32_t *row = source + t * 7;
        int64_t *target = child + t * bets;
        const int64_t *from = parent + (Py_ssize_t)row[0] * bets;
        for (Py_ssize_t b = 0; b < bets; b++) target[b] = from[b];
        for (int j = 1; j < 7 && row[j] >= 0 && factor[j]; j++) {
            const int64_t f = factor[j];
            from = parent + (Py_ssize_t)row[j] * bets;
            for (Py_ssize_t b = 0; b < bets; b++) target[b] += from[b] * f;
        }
    }
}

/* Values 8 and 9 (9 forced by the total): add each composition's weighted sums. */
static void tail(Walk *w, int64_t remaining, const int64_t *coefficients, u128 *out) {
    int64_t low = remaining - w->pool[9] > 0 ? remaining - w->pool[9] : 0;
    int64_t high = remaining < w->pool[8] ? remaining : w->pool[8];
    const uint64_t *eight = binomial_row(w, 8), *nine = binomial_row(w, 9);
    Py_ssize_t bets = w->bets;
    int64_t *numerators = w->numerators;
    for (int64_t x = low; x <= high; x++) {
        const int64_t *a = w->falling + (w->fixed[8] + x) * 7;
        const int64_t *b9 = w->falling + (w->fixed[9] + remaining - x) * 7;
        u128 weight = (u128)eight[x] * nine[remaining - x];
        for (Py_ssize_t b = 0; b < bets; b++) numerators[b] = 0;
        for (int t = 0; t < 28; t++) {
            const int64_t basis = a[w->exponents[2 * t]] * b9[w->exponents[2 * t + 1]];
            if (!basis) continue;
            const int64_t *row = coefficients + (Py_ssize_t)t * bets;
            for (Py_ssize_t b = 0; b < bets; b++) numerators[b] += row[b] * basis;
        }
        for (Py_ssize_t b = 0; b < bets; b++) {
            u128 shifted = weight * (uint64_t)(numerators[b] + (int64_t)w->offset);
            out[2 * bets + b] += shifted;
            if (numerators[b] > w->thresholds[b]) {
                out[b] += weight;
                out[bets + b] += shifted;
            }
        }
        out[3 * bets] += weight;
        w->compositions++;
    }
}

/* out[0..limbs) += factor * value[0..limbs) (the bound keeps the result in range). */
static inline void add_product(uint64_t *out, int limbs, uint64_t factor, const uint64_t *value) {
    u128 carry = 0;
    for (int i = 0; i < limbs; i++) {
        u128 sum = (u128)factor * value[i] + out[i] + carry;
        out[i] = (uint64_t)sum;
        carry = sum >> 64;
    }
}

static void walk_wide(Walk *w, int level, int64_t remaining, const int64_t *coefficients,
                      u128 *out);

/* The counts of value *level* (below 8) each prefix allows, and the level below each. */
static int64_t count_range(const Walk *w, int level, int64_t remaining, int64_t *high) {
    int64_t low = remaining - w->capacity[level + 1];
    *high = remaining < w->pool[level] ? remaining : w->pool[level];
    return low > 0 ? low : 0;
}

static void child_wide(Walk *w, int level, int64_t remaining, const int64_t *coefficients) {
    u128 *sums = w->wide[level];
    for (Py_ssize_t k = 0; k < w->sums; k++) sums[k] = 0;
    if (level == TAIL)
        tail(w, remaining, coefficients, sums);
    else
        walk_wide(w, level, remaining, coefficients, sums);
}

static void walk_wide(Walk *w, int level, int64_t remaining, const int64_t *coefficients,
                      u128 *out) {
    int64_t high, low = count_range(w, level, remaining, &high);
    const uint64_t *binomial = binomial_row(w, level);
    for (int64_t x = low; x <= high; x++) {
        expand(w, level, x, coefficients, w->buffers[level + 1]);
        child_wide(w, level + 1, remaining - x, w->buffers[level + 1]);
        const u128 *sums = w->wide[level + 1];
        for (Py_ssize_t k = 0; k < w->sums; k++) out[k] += sums[k] * binomial[x];
    }
}

static void walk_narrow(Walk *w, int level, int64_t remaining, const int64_t *coefficients,
                        uint64_t *out) {
    int64_t high, low = count_range(w, level, remaining, &high);
    const uint64_t *binomial = binomial_row(w, level);
    int limbs = w->limbs;
    uint64_t value[MAX_LIMBS];
    for (int64_t x = low; x <= high; x++) {
        expand(w, level, x, coefficients, w->buffers[level + 1]);
        if (level + 1 >= w->wide_from) {
            child_wide(w, level + 1, remaining - x, w->buffers[level + 1]);
            const u128 *sums = w->wide[level + 1];
            for (Py_ssize_t k = 0; k < w->sums; k++) {
                for (int i = 0; i < limbs; i++) value[i] = 0;
                value[0] = (uint64_t)sums[k];
                value[1] = (uint64_t)(sums[k] >> 64);
                add_product(out + k * limbs, limbs, binomial[x], value);
            }
        } else {
            uint64_t *sums = w->narrow[level + 1];
            memset(sums, 0, (size_t)(w->sums * limbs) * sizeof(uint64_t));
            walk_narrow(w, level + 1, remaining - x, w->buffers[level + 1], sums);
            for (Py_ssize_t k = 0; k < w->sums; k++)
                add_product(out + k * limbs, limbs, binomial[x], sums + k * limbs);
        }
    }
}

static void walk_free(Walk *w) {
    free(w->falling);
    free(w->numerators);
    for (int l = 0; l < LEVELS; l++) {
        free(w->buffers[l]);
        free(w->wide[l]);
        free(w->narrow[l]);
    }
}

static int walk_allocate(Walk *w) {
    w->falling = malloc((size_t)(w->count_limit + 1) * 7 * sizeof(int64_t));
    w->numerators = malloc((size_t)w->bets * sizeof(int64_t));
    if (!w->falling || !w->numerators) return 0;
    for (int64_t n = 0; n <= w->count_limit; n++) {
        int64_t value = 1;
        for (int j = 0; j < 7; j++) {
            w->falling[n * 7 + j] = value;
            value = n - j > 0 ? value * (n - j) : 0;
        }
    }
    for (int l = w->first; l < LEVELS; l++) {
        w->buffers[l] = malloc((size_t)(w->terms[l] * w->bets) * sizeof(int64_t));
        if (!w->buffers[l]) return 0;
        if (l >= w->wide_from)
            w->wide[l] = malloc((size_t)w->sums * sizeof(u128));
        else
            w->narrow[l] = malloc((size_t)(w->sums * w->limbs) * sizeof(uint64_t));
        if (!w->wide[l] && !w->narrow[l]) return 0;
    }
    return 1;
}

static int depth_buffers(PyObject **objects, Py_buffer *views, int n) {
    for (int i = 0; i < n; i++) {
        int flags = PyBUF_C_CONTIGUOUS | (i == n - 1 ? PyBUF_WRITABLE : 0);
        if (PyObject_GetBuffer(objects[i], &views[i], flags) < 0) {
            for (int j = 0; j < i; j++) PyBuffer_Release(&views[j]);
            return 0;
        }
    }
    return 1;
}

/* The shapes the caller promised, and the counts in range. */
static int walk_fits(Walk *w, const Py_buffer *views, int64_t remaining) {
    enum { COEFFICIENTS, PARAMETERS, THRESHOLDS, BINOMIALS, SOURCES, EXPONENTS, OUT };
    if (w->first < 0 || w->first > TAIL || w->wide_from < w->first || w->wide_from > TAIL ||
        w->limbs < 2 || w->limbs > MAX_LIMBS || w->bets < 1 || w->bets > 100000 ||
        remaining < 0 || remaining > 1400)
        return 0;
    Py_ssize_t source_rows = 0;
    for (int l = w->first; l < TAIL; l++) source_rows += w->terms[l + 1];
    if (views[COEFFICIENTS].len != w->terms[w->first] * w->bets * 8 ||
        views[PARAMETERS].len != 21 * 8 || views[THRESHOLDS].len != w->bets * 8 ||
        views[BINOMIALS].len != 10 * (remaining + 1) * 8 ||
        views[SOURCES].len != source_rows * 7 * 4 || views[EXPONENTS].len != 28 * 2 * 4 ||
        views[OUT].len != w->sums * w->limbs * 8)
        return 0;
    const int64_t *parameters = views[PARAMETERS].buf;
    /* Counts up to 1400 keep ff(n, 6) < 2**63 (the falling factorial table). */
    for (int v = 0; v < 20; v++)
        if (parameters[v] < 0 || parameters[v] > 1000000 ||
            (v < 10 && parameters[v] + remaining > 1400))
            return 0;
    if (parameters[20] < 1 || parameters[20] > INT64_MAX / 2) return 0;
    const int32_t *sources = views[SOURCES].buf;
    for (Py_ssize_t i = 0; i < source_rows * 7; i++)
        if (sources[i] < -1 || sources[i] >= terms_of(0)) return 0;
    const int32_t *exponents = views[EXPONENTS].buf;
    for (int i = 0; i < 56; i++)
        if (exponents[i] < 0 || exponents[i] > 6) return 0;
    return 1;
}

PyObject *depth_sums(PyObject *Py_UNUSED(self), PyObject *args) {
    enum { VIEWS = 7 };
    PyObject *objects[VIEWS];
    Walk w;
    memset(&w, 0, sizeof w);
    long long remaining;
    if (!PyArg_ParseTuple(args, "iLniiOOOOOOO", &w.first, &remaining, &w.bets, &w.limbs,
                          &w.wide_from, &objects[0], &objects[1], &objects[2], &objects[3],
                          &objects[4], &objects[5], &objects[6]))
        return NULL;
    Py_buffer views[VIEWS];
    if (!depth_buffers(objects, views, VIEWS)) return NULL;
    w.sums = 3 * w.bets + 1;
    for (int l = 0; l < LEVELS; l++) w.terms[l] = terms_of(l);
    if (!walk_fits(&w, views, remaining)) {
        for (int i = 0; i < VIEWS; i++) PyBuffer_Release(&views[i]);
        PyErr_SetString(PyExc_ValueError, "depth_sums arrays do not match the problem");
        return NULL;
    }
    const int64_t *parameters = views[1].buf;
    w.fixed = parameters;
    w.pool = parameters + 10;
    w.offset = (uint64_t)parameters[20];
    w.thresholds = views[2].buf;
    w.binomials = views[3].buf;
    w.binomial_width = (Py_ssize_t)remaining + 1;
    const int32_t *sources = views[4].buf;
    for (int l = w.first; l < TAIL; l++) {
        w.sources[l] = sources;
        sources += w.terms[l + 1] * 7;
    }
    w.exponents = views[5].buf;
    w.capacity[LEVELS] = 0;
    for (int l = LEVELS - 1; l >= 0; l--) w.capacity[l] = w.capacity[l + 1] + w.pool[l];
    for (int l = 0; l < LEVELS; l++)
        if (w.fixed[l] + remaining > w.count_limit) w.count_limit = w.fixed[l] + remaining;
    int ok = walk_allocate(&w);
    if (ok) {
        const int64_t *coefficients = views[0].buf;
        uint64_t *out = views[6].buf;
        memset(out, 0, (size_t)(w.sums * w.limbs) * sizeof(uint64_t));
        Py_BEGIN_ALLOW_THREADS
        if (w.first >= w.wide_from) {
            child_wide(&w, w.first, remaining, coefficients);
            for (Py_ssize_t k = 0; k < w.sums; k++) {
                out[k * w.limbs] = (uint64_t)w.wide[w.first][k];
                out[k * w.limbs + 1] = (uint64_t)(w.wide[w.first][k] >> 64);
            }
        } else {
            walk_narrow(&w, w.first, remaining, coefficients, out);
        }
        Py_END_ALLOW_THREADS
    }
    walk_free(&w);
    for (int i = 0; i < VIEWS; i++) PyBuffer_Release(&views[i]);
    if (!ok) return PyErr_NoMemory();
    return PyLong_FromLongLong(w.compositions);
}
