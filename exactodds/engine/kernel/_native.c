/* The compiled exact kernel of exactodds: count polynomials, pair states and
 * EV numerators for many shoes per call.  The text of `exactodds batch` (its JSON-line
 * parser and writer) is in _batch_codec.c.
 *
 * Small, typed and boring on purpose: flat integer arrays in, flat integer
 * arrays (or text) out, no Python object inside a loop, the interpreter lock
 * released while it counts.  exactodds/engine/kernel/twin.py is the same
 * algorithm in Python integers; the tests hold this file to it.
 *
 * Exactness.  Every quantity is an integer polynomial in the shoe's counts,
 * evaluated with unsigned arithmetic modulo 2**64 (or 2**128).  Reduction
 * modulo 2**w is a ring homomorphism, so each result is right modulo 2**w
 * whatever the intermediate values do; a result is taken as exact only when
 * its true value is known to lie in [-2**(w-1), 2**(w-1)) (or [0, 2**w) for
 * counts).  The bounds, checked per shoe before anything is trusted:
 *   - every key count and pair-state count is a number of six-card
 *     sequences, between 0 and total = ff(N, 6);
 *   - every output j is sum_i M[i][j] * v_i over inputs v that split total
 *     (keys) or total again (pair states) or equal it (the total row), so
 *     |output j| <= bound * total with bound = the program's weight bound.
 * Counts are computed modulo 2**64 when total < 2**64, modulo 2**128 when
 * total < 2**128; outputs in 64 bits when bound * total < 2**63, in 128 bits
 * when bound * total < 2**127.  Anything larger is left to Python integers
 * (width code 2).
 */
#include "_kernel.h"


static void program_free(Program *p) {
    if (!p) return;
    free(p->parents); free(p->factors); free(p->entry_start); free(p->entry_key);
    free(p->entry_coefficient); free(p->entries); free(p->by_key_start); free(p->by_key); free(p->output_start); free(p->output_index);
    free(p->output_weight);
    if (p->bet_key) for (Py_ssize_t i = 0; i < p->bets; i++) free(p->bet_key[i]);
    if (p->bet_unavailable) for (Py_ssize_t i = 0; i < p->bets; i++) free(p->bet_unavailable[i]);
    free(p->bet_key); free(p->bet_key_length); free(p->bet_unavailable);
    free(p->bet_unavailable_length); free(p->bet_output); free(p->bet_denominator);
    free(p->bet_needs_suits);
    free(p);
}

static void capsule_free(PyObject *capsule) {
    program_free((Program *)PyCapsule_GetPointer(capsule, "exactodds.kernel.program"));
}

Program *get_program(PyObject *capsule) {
    return (Program *)PyCapsule_GetPointer(capsule, "exactodds.kernel.program");
}

/* Copy a contiguous buffer of `count` items of `itemsize` bytes into fresh memory. */
static void *copy_buffer(PyObject *object, Py_ssize_t itemsize, Py_ssize_t *count) {
    Py_buffer view;
    if (PyObject_GetBuffer(object, &view, PyBUF_C_CONTIGUOUS) < 0) return NULL;
    if (view.itemsize != itemsize || view.len % itemsize) {
        PyBuffer_Release(&view);
        PyErr_SetString(PyExc_ValueError, "kernel array has the wrong item size");
        return NULL;
    }
    *count = view.len / itemsize;
    void *memory = malloc(view.len ? view.len : 1);
    if (!memory) { PyBuffer_Release(&view); PyErr_NoMemory(); return NULL; }
    memcpy(memory, view.buf, view.len);
    PyBuffer_Release(&view);
    return memory;
}

/* program(parents: int32, factors: int16, size_start: int64[8], entry_start: int32,
 *         entry_key: int16, entry_coefficient: int64, keys, output_start: int32,
 *         output_index: int32, output_weight: int64, outputs, bound) -> capsule */
static PyObject *make_program(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *parents, *factors, *size_start, *entry_start, *entry_key, *entry_coefficient;
    PyObject *output_start, *output_index, *output_weight;
    Py_ssize_t keys, outputs;
    unsigned long long bound;
    if (!PyArg_ParseTuple(args, "OOOOOOnOOOnK", &parents, &factors, &size_start, &entry_start,
                          &entry_key, &entry_coefficient, &keys, &output_start, &output_index,
                          &output_weight, &outputs, &bound))
        return NULL;
    Program *p = calloc(1, sizeof(Program));
    if (!p) return PyErr_NoMemory();
    Py_ssize_t n, m;
    int64_t *starts = NULL;
    if (!(p->parents = copy_buffer(parents, 4, &p->rows))) goto fail;
    if (!(p->factors = copy_buffer(factors, 2, &n)) || n != p->rows) goto bad;
    if (!(starts = copy_buffer(size_start, 8, &n)) || n != 8) goto bad;
    for (int i = 0; i < 8; i++) p->size_start[i] = (Py_ssize_t)starts[i];
    free(starts); starts = NULL;
    if (!(p->entry_start = copy_buffer(entry_start, 4, &n)) || n != p->rows + 1) goto bad;
    if (!(p->entry_key = copy_buffer(entry_key, 2, &n))) goto bad;
    if (!(p->entry_coefficient = copy_buffer(entry_coefficient, 8, &m)) || m != n) goto bad;
    Py_ssize_t entries = n;
    p->keys = keys;
    p->inputs = keys + PAIR_INPUTS + 1;
    p->outputs = outputs;
    if (!(p->output_start = copy_buffer(output_start, 4, &n)) || n != p->inputs + 1) goto bad;
    if (!(p->output_index = copy_buffer(output_index, 4, &n))) goto bad;
    if (!(p->output_weight = copy_buffer(output_weight, 8, &m)) || m != n) goto bad;
    p->bound = bound;
    for (Py_ssize_t row = 1; row < p->rows; row++) {
        if (p->parents[row] < 0 || p->parents[row] >= row || p->factors[row] < 0 ||
            p->factors[row] >= 70)
            goto bad;
    }
    if (p->entry_start[0] != 0 || p->entry_start[p->rows] != entries) goto bad;
    for (Py_ssize_t row = 0; row < p->rows; row++)
        if (p->entry_start[row + 1] < p->entry_start[row]) goto bad;
    if (!(p->entries = malloc(sizeof(Entry) * (entries + 1)))) { PyErr_NoMemory(); goto fail; }
    for (Py_ssize_t e = 0; e < entries; e++) {

        if (p->entry_key[e] < 0 || p->entry_key[e] >= keys || keys > 65535 ||
            p->entry_coefficient[e] < 0 || p->entry_coefficient[e] > 65535)
            goto bad;
        p->entries[e].key = (uint16_t)p->entry_key[e];
        p->entries[e].coefficient = (uint16_t)p->entry_coefficient[e];
    }
    for (Py_ssize_t row = 0; row < p->size_start[4]; row++)
        if (p->entry_start[row + 1] != p->entry_start[row]) goto bad;
    if (p->rows > 65535) goto bad;
    /* Grouped by key, each key's sum runs in a register instead of through memory. */
    p->by_key_start = calloc(keys + 1, sizeof(int32_t));
    p->by_key = malloc(sizeof(Entry) * (entries + 1));
    if (!p->by_key_start || !p->by_key) { PyErr_NoMemory(); goto fail; }
    for (Py_ssize_t e = 0; e < entries; e++) p->by_key_start[p->entries[e].key + 1]++;
    for (Py_ssize_t k = 0; k < keys; k++) p->by_key_start[k + 1] += p->by_key_start[k];
    {
        int32_t *next = malloc(sizeof(int32_t) * (keys + 1));
        if (!next) { PyErr_NoMemory(); goto fail; }
        memcpy(next, p->by_key_start, sizeof(int32_t) * (keys + 1));
        for (Py_ssize_t row = 0; row < p->rows; row++)
            for (int32_t e = p->entry_start[row]; e < p->entry_start[row + 1]; e++) {
                Entry moved = {(uint16_t)row, p->entries[e].coefficient};
                p->by_key[next[p->entries[e].key]++] = moved;
            }
        free(next);
    }
    if (p->output_start[0] != 0 || p->output_start[p->inputs] != n) goto bad;
    for (Py_ssize_t i = 0; i < p->inputs; i++)
        if (p->output_start[i + 1] < p->output_start[i]) goto bad;
    for (int i = 0; i < 7; i++)
        if (p->size_start[i] < 0 || p->size_start[i] > p->size_start[i + 1]) goto bad;
    if (p->size_start[7] != p->rows || p->size_start[4] < 1) goto bad;
    for (Py_ssize_t e = 0; e < p->output_start[p->inputs]; e++)
        if (p->output_index[e] < 0 || p->output_index[e] >= outputs) goto bad;
    p->needs_keys = p->output_start[keys] > 0;
    {
        PyObject *capsule = PyCapsule_New(p, "exactodds.kernel.program", capsule_free);
        if (!capsule) goto fail;
        return capsule;
    }
bad:
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "inconsistent kernel program");
fail:
    free(starts);
    program_free(p);
    return NULL;
}

/* ------------------------------------------------------------------------ */
/* One shoe.                                                                 */

typedef struct {
    uint64_t *products; /* rows */
    uint64_t *values;   /* inputs (64-bit counts) */
    u128 *products_wide;
    u128 *values_wide;
} Scratch;

static int scratch_init(Scratch *s, const Program *p) {
    s->products = malloc(sizeof(uint64_t) * p->rows);
    s->values = malloc(sizeof(uint64_t) * p->inputs);
    s->products_wide = NULL;
    s->values_wide = NULL;
    return s->products && s->values;
}

static int scratch_wide(Scratch *s, const Program *p) {
    if (!s->products_wide) s->products_wide = malloc(sizeof(u128) * p->rows);
    if (!s->values_wide) s->values_wide = malloc(sizeof(u128) * p->inputs);
    return s->products_wide && s->values_wide;
}

static void scratch_free(Scratch *s) {
    free(s->products); free(s->values); free(s->products_wide); free(s->values_wide);
}

/* ff(n, 6) exactly if below 2**128, else 0 with *overflow set. */
u128 sequences128(uint64_t n, int *overflow) {
    *overflow = 0;
    if (n < 6) return 0;
    u128 result = 1;
    for (int k = 0; k < 6; k++) {
        u128 factor = n - k;
        if (result > ((u128)-1) / factor) { *overflow = 1; return 0; }
        result *= factor;
    }
    return result;
}

/* Pair-state counts: generic in the integer type T (uint64_t or u128, wrapping). */
#define PAIR_STATES(T, NAME)                                                                    \
    static void NAME(const int64_t *ranks, const int64_t *suits, T *out) {                     \
        T total = 0;                                                                           \
        for (int r = 0; r < RANKS; r++) total += (T)(uint64_t)ranks[r];                        \
        T a[RANKS], big_a = 0, sum_a2 = 0, four = 0;                                           \
        for (int r = 0; r < RANKS; r++) {                                                      \
            T n = (T)(uint64_t)ranks[r];                                                       \
            a[r] = n * (n - 1);                                                                \
            big_a += a[r];                                                                     \
            sum_a2 += a[r] * a[r];                                                             \
            four += a[r] * (n - 2) * (n - 3);                                                  \
        }                                                                                      \
        T tail = (total - 4) * (total - 5);                                                    \
        T any_any = total * (total - 1) * (total - 2) * (total - 3);                           \
        T pair_any = big_a * (total - 2) * (total - 3);                                        \
        T pair_pair = big_a * big_a - sum_a2 + four;                                           \
        for (int i = 0; i < PAIR_INPUTS; i++) out[i] = 0;                                      \
        if (!suits) {                                                                          \
            /* rank-only states (p, b) in {0,1}^2 at 9 + 2p + b */                             \
            out[9 + 3] = pair_pair * tail;                                                     \
            out[9 + 2] = (pair_any - pair_pair) * tail;                                        \
            out[9 + 1] = (pair_any - pair_pair) * tail;                                        \
            out[9 + 0] = (any_any - 2 * pair_any + pair_pair) * tail;                          \
            return;                                                                            \
        }                                                                                      \
        T s_big = 0, sum_s2 = 0, four_s = 0, suited_pair = 0;                                  \
        for (int t = 0; t < CARDS; t++) {                                                      \
            T n = (T)(uint64_t)suits[t];                                                       \
            T s = n * (n - 1);                                                                 \
            int r = t / 4;                                                                     \
            T nr = (T)(uint64_t)ranks[r];                                                      \
            s_big += s;                                                                        \
            sum_s2 += s * s;                                                                   \
            four_s += s * (n - 2) * (n - 3);                                                   \
            suited_pair += s * (big_a - a[r] + (nr - 2) * (nr - 3));                           \
        }                                                                                      \
        T suited_any = s_big * (total - 2) * (total - 3);                                      \
        T suited_suited = s_big * s_big - sum_s2 + four_s;                                     \
        /* joint[x][y], x, y in {any, pair, suited} */                                         \
        T joint[3][3] = {{any_any, pair_any, suited_any},                                      \
                         {pair_any, pair_pair, suited_pair},                                   \
                         {suited_any, suited_pair, suited_suited}};                            \
        /* state 0 = any - pair, 1 = pair - suited, 2 = suited */                              \
        static const int sets[3][2] = {{0, 1}, {1, 2}, {2, -1}};                               \
        for (int p = 0; p < 3; p++)                                                            \
            for (int b = 0; b < 3; b++) {                                                      \
                T value = 0;                                                                   \
                for (int i = 0; i < 2; i++) {                                                  \
                    if (sets[p][i] < 0) continue;                                              \
                    for (int j = 0; j < 2; j++) {                                              \
                        if (sets[b][j] < 0) continue;                                          \
                        T term = joint[sets[p][i]][sets[b][j]];                                \
                        if ((i == 1) != (j == 1)) value -= term; else value += term;           \
                    }                                                                          \
                }                                                                              \
                out[3 * p + b] = value * tail;                                                 \
            }                                                                                  \
    }

PAIR_STATES(uint64_t, pair_states64)
PAIR_STATES(u128, pair_states128)

/* The value counts (index 0: tens and faces) of 13 rank counts. */
static void value_counts(const int64_t *ranks, uint64_t *values) {
    values[0] = (uint64_t)ranks[9] + (uint64_t)ranks[10] + (uint64_t)ranks[11] +
                (uint64_t)ranks[12];
    for (int v = 1; v < 10; v++) values[v] = (uint64_t)ranks[v - 1];
}

#define KEY_COUNTS(T, NAME)                                                                     \
    static void NAME(const Program *p, const uint64_t *counts, T total_cards, T *products,    \
                     T *out) {                                                                \
        T factor_rows[70];                                                                     \
        for (int v = 0; v < 10; v++)                                                           \
            for (int o = 0; o < 7; o++) factor_rows[v * 7 + o] = (T)counts[v] - (T)o;          \
        const int32_t *parents = p->parents;                                                   \
        const int16_t *factors = p->factors;                                                   \
        products[0] = 1;                                                                       \
        for (Py_ssize_t row = 1; row < p->rows; row++)                                         \
            products[row] = products[parents[row]] * factor_rows[factors[row]];                \
        /* Fill the unused positions of the six-card sequence: ff(N - size, 6 - size). */      \
        T tail5 = total_cards - 5, tail4 = (total_cards - 4) * (total_cards - 5);               \
        for (Py_ssize_t row = p->size_start[4]; row < p->size_start[5]; row++)                 \
            products[row] *= tail4;                                                            \
        for (Py_ssize_t row = p->size_start[5]; row < p->size_start[6]; row++)                 \
            products[row] *= tail5;                                                            \
        const int32_t *start = p->by_key_start;                                                \
        const Entry *entries = p->by_key; /* .key holds the row */                             \
        for (Py_ssize_t k = 0; k < p->keys; k++) {                                             \
            T sum = 0;                                                                         \
            for (int32_t e = start[k]; e < start[k + 1]; e++)                                  \
                sum += (T)entries[e].coefficient * products[entries[e].key];                   \
            out[k] = sum;                                                                      \
        }                                                                                      \
    }

KEY_COUNTS(uint64_t, key_counts64)
KEY_COUNTS(u128, key_counts128)

/* What a shoe needs before it is counted.  Returns 0 (counts fit 64 bits), 1 (counts
 * need 128 bits), 2 (too large: Python integers), 3 (fewer than 6 cards); sets the cards,
 * the total ff(N, 6), and whether the outputs fit 64 bits (else 128). */
static int classify(const Program *p, const int64_t *ranks, uint64_t *cards_out, u128 *total_out,
                    int *narrow_out) {
    u128 cards = 0;
    for (int r = 0; r < RANKS; r++) {
        if (ranks[r] < 0) return 2;
        cards += (uint64_t)ranks[r];
    }
    if (cards >> 63) return 2;
    if (cards < 6) return 3;
    int overflow;
    u128 total = sequences128((uint64_t)cards, &overflow);
    if (overflow) return 2;
    /* Outputs fit 64 bits (signed) when bound * total < 2**63, 128 bits when < 2**127. */
    int narrow = 1, wide = 1;
    if (p->bound) {
        narrow = total < (((u128)1) << 63) / p->bound;
        wide = total < (((u128)1) << 127) / p->bound;
    }
    if (!wide) return 2;
    *cards_out = (uint64_t)cards;
    *total_out = total;
    *narrow_out = narrow;
    return (total >> 64) ? 1 : 0;
}

/* The pair states and the output stage of a shoe whose key counts (64-bit) are in
 * values[0 .. keys).  Returns the width code 0 (out64) or 1 (out128). */
static int finish64(const Program *p, uint64_t *values, const int64_t *ranks,
                    const int64_t *suits, u128 total, int narrow, uint64_t *out64,
                    u128 *out128) {
    const Py_ssize_t keys = p->keys;
    pair_states64(ranks, suits, values + keys);
    values[keys + PAIR_INPUTS] = (uint64_t)total;
    if (narrow) {
        for (Py_ssize_t j = 0; j < p->outputs; j++) out64[j] = 0;
        for (Py_ssize_t i = 0; i < p->inputs; i++) {
            uint64_t v = values[i];
            if (!v) continue;
            for (int32_t e = p->output_start[i]; e < p->output_start[i + 1]; e++)
                out64[p->output_index[e]] += (uint64_t)p->output_weight[e] * v;
        }
        return 0;
    }
    for (Py_ssize_t j = 0; j < p->outputs; j++) out128[j] = 0;
    for (Py_ssize_t i = 0; i < p->inputs; i++) {
        u128 v = values[i];
        if (!v) continue;
        for (int32_t e = p->output_start[i]; e < p->output_start[i + 1]; e++)
            out128[p->output_index[e]] += (u128)(i128)p->output_weight[e] * v;
    }
    return 1;
}

/* A shoe whose counts need 128 bits (ff(N, 6) >= 2**64): everything modulo 2**128. */
static int evaluate_wide(const Program *p, Scratch *s, const int64_t *ranks,
                         const int64_t *suits, uint64_t cards, u128 total, u128 *out128) {
    uint64_t counts[10];
    if (!scratch_wide(s, p)) return 2;
    value_counts(ranks, counts);
    u128 *values = s->values_wide;
    const Py_ssize_t keys = p->keys;
    if (p->needs_keys) key_counts128(p, counts, (u128)cards, s->products_wide, values);
    else memset(values, 0, sizeof(u128) * keys);
    pair_states128(ranks, suits, values + keys);
    values[keys + PAIR_INPUTS] = total;
    for (Py_ssize_t j = 0; j < p->outputs; j++) out128[j] = 0;
    for (Py_ssize_t i = 0; i < p->inputs; i++) {
        u128 v = values[i];
        if (!v) continue;
        for (int32_t e = p->output_start[i]; e < p->output_start[i + 1]; e++)
            out128[p->output_index[e]] += (u128)(i128)p->output_weight[e] * v;
    }
    return 1;
}

/* The key counts of LANES shoes at once, modulo 2**64, laid out [row][lane]: the same
 * steps as key_counts64, in lockstep, so the compiler can use vector registers. */
#define LANES 8
/* Function multiversioning needs GCC 11+ (for the x86-64-v4 name) and glibc's ifunc. */
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 11 && defined(__x86_64__) && \
    defined(__GLIBC__)
#define VECTOR_CLONES __attribute__((target_clones("default", "avx2", "arch=x86-64-v4")))
#else
#define VECTOR_CLONES
#endif

/* GCC and Clang vector extensions: plain C arithmetic on LANES 64-bit integers, lowered
 * to whatever vector instructions the target has (scalar code where it has none). */
typedef uint64_t lanes_t __attribute__((vector_size(8 * LANES)));

VECTOR_CLONES
static void key_counts64_lanes(const Program *p, const uint64_t (*counts)[10],
                               const uint64_t *cards, lanes_t *restrict products,
                               lanes_t *restrict out) {
    lanes_t factor_rows[70];
    for (int v = 0; v < 10; v++)
        for (int o = 0; o < 7; o++)
            for (int l = 0; l < LANES; l++) factor_rows[v * 7 + o][l] = counts[l][v] - (uint64_t)o;
    const int32_t *parents = p->parents;
    const int16_t *factors = p->factors;
    for (int l = 0; l < LANES; l++) products[0][l] = 1;
    for (Py_ssize_t row = 1; row < p->rows; row++)
        products[row] = products[parents[row]] * factor_rows[factors[row]];
    lanes_t tail4, tail5;
    for (int l = 0; l < LANES; l++) {
        tail5[l] = cards[l] - 5;
        tail4[l] = (cards[l] - 4) * (cards[l] - 5);
    }
    for (Py_ssize_t row = p->size_start[4]; row < p->size_start[5]; row++) products[row] *= tail4;
    for (Py_ssize_t row = p->size_start[5]; row < p->size_start[6]; row++) products[row] *= tail5;
    const int32_t *start = p->by_key_start;
    const Entry *entries = p->by_key;
    for (Py_ssize_t key = 0; key < p->keys; key++) {
        lanes_t sum = {0};
        for (int32_t e = start[key]; e < start[key + 1]; e++)
            sum += (uint64_t)entries[e].coefficient * products[entries[e].key];
        out[key] = sum;
    }
}

/* Store one shoe's result (width code 0 or 1) as low/high rows. */
static void store(int code, Py_ssize_t J, const uint64_t *out64, const u128 *out128,
                  int64_t *low, int64_t *high) {
    if (code == 0) {
        for (Py_ssize_t j = 0; j < J; j++) {
            low[j] = (int64_t)out64[j];
            high[j] = low[j] < 0 ? -1 : 0;
        }
    } else {
        for (Py_ssize_t j = 0; j < J; j++) {
            low[j] = (int64_t)(uint64_t)out128[j];
            high[j] = (int64_t)(uint64_t)(out128[j] >> 64);
        }
    }
}

/* Evaluate n shoes: rows of ranks (n x 13), suited flags, suits (n x 52, read when
 * suited); writes low/high (n x J) and the width code of each shoe.  No Python call:
 * runs without the interpreter lock.  Returns 0 when out of memory. */
int evaluate_many(const Program *p, Py_ssize_t n, const int64_t *ranks,
                         const int8_t *suited, const int64_t *suits, int64_t *low,
                         int64_t *high, int8_t *width) {
    const Py_ssize_t J = p->outputs, keys = p->keys;
    Scratch scratch;
    /* The lane blocks (half a megabyte) are allocated when a block first needs them. */
    lanes_t *lane_products = NULL;
    lanes_t *lane_keys = NULL;
    uint64_t *out64 = malloc(sizeof(uint64_t) * (J + 1));
    u128 *out128 = malloc(sizeof(u128) * (J + 1));
    int ok = scratch_init(&scratch, p) && out64 && out128;
    if (ok) {
        Py_ssize_t lane_shoe[LANES];
        u128 lane_total[LANES];
        int lane_narrow[LANES];
        uint64_t lane_counts[LANES][10], lane_cards[LANES];
        int lanes = 0;
        for (Py_ssize_t i = 0; i <= n; i++) {
            if (i < n) {
                const int64_t *shoe_ranks = ranks + i * RANKS;
                const int64_t *shoe_suits = suited[i] ? suits + i * CARDS : NULL;
                uint64_t cards;
                u128 total;
                int narrow;
                int kind = classify(p, shoe_ranks, &cards, &total, &narrow);
                if (kind == 1) {
                    int code = evaluate_wide(p, &scratch, shoe_ranks, shoe_suits, cards, total,
                                             out128);
                    width[i] = (int8_t)code;
                    if (code == 1) store(1, J, out64, out128, low + i * J, high + i * J);
                    continue;
                }
                if (kind != 0) { width[i] = (int8_t)kind; continue; }
                if (!p->needs_keys) {
                    memset(scratch.values, 0, sizeof(uint64_t) * keys);
                    int code = finish64(p, scratch.values, shoe_ranks, shoe_suits, total, narrow,
                                        out64, out128);
                    width[i] = (int8_t)code;
                    store(code, J, out64, out128, low + i * J, high + i * J);
                    continue;
                }
                lane_shoe[lanes] = i;
                lane_total[lanes] = total;
                lane_narrow[lanes] = narrow;
                lane_cards[lanes] = cards;
                value_counts(shoe_ranks, lane_counts[lanes]);
                lanes++;
                if (lanes < LANES) continue;
            }
            if (!lanes) continue;
            /* Unused lanes repeat the first shoe; their results are not read. */
            for (int l = lanes; l < LANES; l++) {
                memcpy(lane_counts[l], lane_counts[0], sizeof lane_counts[0]);
                lane_cards[l] = lane_cards[0];
            }
            /* A nearly empty block costs as much as a full one: few shoes go one by one. */
            int blocked = lanes > LANES / 4;
            if (blocked && !lane_products) {
                lane_products = aligned_alloc(64, sizeof(lanes_t) * ((p->rows + 1) | 1) * 2);
                lane_keys = aligned_alloc(64, sizeof(lanes_t) * ((keys + 1) | 1) * 2);
                if (!lane_products || !lane_keys) { ok = 0; break; }
            }
            if (blocked)
                key_counts64_lanes(p, (const uint64_t (*)[10])lane_counts, lane_cards,
                                   lane_products, lane_keys);
            for (int l = 0; l < lanes; l++) {
                Py_ssize_t shoe = lane_shoe[l];
                if (blocked)
                    for (Py_ssize_t k = 0; k < keys; k++) scratch.values[k] = lane_keys[k][l];
                else
                    key_counts64(p, lane_counts[l], lane_cards[l], scratch.products,
                                 scratch.values);
                int code = finish64(p, scratch.values, ranks + shoe * RANKS,
                                    suited[shoe] ? suits + shoe * CARDS : NULL, lane_total[l],
                                    lane_narrow[l], out64, out128);
                width[shoe] = (int8_t)code;
                store(code, J, out64, out128, low + shoe * J, high + shoe * J);
            }
            lanes = 0;
        }
    }
    scratch_free(&scratch);
    free(lane_products);
    free(lane_keys);
    free(out64);
    free(out128);
    return ok;
}

/* evaluate(program, ranks: int64[n*13], suited: int8[n], suits: int64[n*52],
 *          low: int64[n*J] (written), high: int64[n*J] (written), width: int8[n] (written))
 * Suit counts of shoe i are read only when suited[i]; `suits` holds n*52 entries
 * (rows of rank-only shoes are ignored).  128-bit results are split as high*2**64 + low. */
static PyObject *evaluate(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *capsule, *objects[6];
    if (!PyArg_ParseTuple(args, "OOOOOOO", &capsule, &objects[0], &objects[1], &objects[2],
                          &objects[3], &objects[4], &objects[5]))
        return NULL;
    Program *p = get_program(capsule);
    if (!p) return NULL;
    Py_buffer views[6];
    int flags[6] = {PyBUF_C_CONTIGUOUS, PyBUF_C_CONTIGUOUS, PyBUF_C_CONTIGUOUS,
                    PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE, PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE,
                    PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE};
    int got = 0;
    for (; got < 6; got++)
        if (PyObject_GetBuffer(objects[got], &views[got], flags[got]) < 0) goto release;
    Py_ssize_t n = views[1].len;
    Py_ssize_t J = p->outputs;
    if (views[0].len != n * RANKS * 8 || views[2].len < n * CARDS * 8 ||
        views[3].len != n * J * 8 || views[4].len != n * J * 8 || views[5].len != n) {
        PyErr_SetString(PyExc_ValueError, "kernel arrays do not match the number of shoes");
        goto release;
    }
    {
        const int64_t *ranks = views[0].buf;
        const int8_t *suited = views[1].buf;
        const int64_t *suits = views[2].buf;
        int64_t *low = views[3].buf, *high = views[4].buf;
        int8_t *width = views[5].buf;
        int ok;
        Py_BEGIN_ALLOW_THREADS
        ok = evaluate_many(p, n, ranks, suited, suits, low, high, width);
        Py_END_ALLOW_THREADS
        if (!ok) { PyErr_NoMemory(); goto release; }
    }
    for (int i = 0; i < got; i++) PyBuffer_Release(&views[i]);
    Py_RETURN_NONE;
release:
    for (int i = 0; i < got; i++) PyBuffer_Release(&views[i]);
    return NULL;
}

static PyMethodDef methods[] = {
    {"program", make_program, METH_VARARGS, "Build a kernel program from flat arrays."},
    {"set_layout", set_layout, METH_VARARGS, "Attach the batch text layout to a program."},
    {"evaluate", evaluate, METH_VARARGS, "Evaluate many shoes (releases the GIL)."},
    {"batch", batch, METH_VARARGS, "Parse, evaluate and format batch lines (releases the GIL)."},
    {"format", format_one, METH_VARARGS, "Format one evaluated shoe as a batch line."},
    {"shuffle", shuffle, METH_VARARGS, "Shuffle a simulation's shoes (releases the GIL)."},
    {"deal", deal, METH_VARARGS, "Deal a simulation's shoes to the cut (releases the GIL)."},
    {"evaluate_shoe", evaluate_shoe, METH_VARARGS, "Evaluate one shoe from its Python counts."},
    {"bet_analyses", bet_analyses, METH_VARARGS, "One shoe's kernel-priced bet analyses."},
    {"pair_study", pair_study, METH_VARARGS,
     "Deal and tally a pairs-only study's shoes (releases the GIL)."},
    {"value_study", value_study, METH_VARARGS,
     "Deal, price and tally a value-bet study's shoes (releases the GIL)."},
    {"stream_states", stream_states, METH_VARARGS,
     "Each shoe's PCG64 state as numpy seeds it (releases the GIL)."},
    {"depth_sums", depth_sums, METH_VARARGS, "A depth table's sums below one prefix."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_exactodds_kernel",
    "The compiled exact kernel of exactodds (see exactodds.engine.kernel).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__exactodds_kernel(void) {
    parse_tables_init();
    return PyModule_Create(&module);
}
