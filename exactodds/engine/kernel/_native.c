/* The compiled exact kernel of exactodds: count polynomials, pair states and
 * EV numerators for many shoes per call, and the text of `exactodds batch`.
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
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned __int128 u128;
typedef __int128 i128;

#define RANKS 13
#define CARDS 52
#define PAIR_INPUTS 13 /* 9 suited pair states, then 4 rank-only ones */

/* A nonzero coefficient of the count polynomials: at most 720 (orderings of six
 * values), and fewer than 65536 keys: both fit 16 bits (checked when built). */
typedef struct {
    uint16_t key;
    uint16_t coefficient;
} Entry;

typedef struct {
    Py_ssize_t rows;        /* multisets, 8008 */
    int32_t *parents;       /* rows: parent row of each multiset */
    int16_t *factors;       /* rows: value * 7 + offset of the new card */
    Py_ssize_t size_start[8]; /* first row of each multiset size 0..6, [7] = rows */
    int32_t *entry_start;   /* rows + 1: CSR of nonzero (key, coefficient) per row */
    int16_t *entry_key;
    int64_t *entry_coefficient;
    Entry *entries;         /* the same pairs packed in 4 bytes, for the hot loops */
    int32_t *by_key_start;  /* keys + 1: the same pairs grouped by key ... */
    Entry *by_key;          /* ... with .key holding the row (rows < 65536, checked) */
    Py_ssize_t keys;
    Py_ssize_t inputs;      /* keys + 13 pair states + 1 total */
    Py_ssize_t outputs;
    int32_t *output_start;  /* inputs + 1: CSR of nonzero (output, weight) per input */
    int32_t *output_index;
    int64_t *output_weight;
    uint64_t bound;         /* |output| <= bound * total for every output */
    int needs_keys;         /* whether any output reads a key count (else skip the polynomials) */
    /* Batch text layout (optional): see set_layout. */
    int has_layout;
    Py_ssize_t bets;
    int32_t *bet_output;    /* output index of each bet's EV numerator, -1 if unavailable */
    int64_t *bet_denominator;
    char **bet_key;         /* '"name": ' */
    Py_ssize_t *bet_key_length;
    char **bet_unavailable; /* text of the whole '"name": {...}' entry on rank-only shoes */
    Py_ssize_t *bet_unavailable_length;
    int8_t *bet_needs_suits;
    int32_t player_output, tie_output;
    uint64_t max_denominator; /* the largest bet denominator of the layout */
} Program;

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

static Program *get_program(PyObject *capsule) {
    return (Program *)PyCapsule_GetPointer(capsule, "exactodds.kernel.program");
}

/* Copy a contiguous buffer of `count` items of `itemsize` bytes into fresh memory. */
static void *copy_buffer(PyObject *object, Py_ssize_t itemsize, Py_ssize_t *count) {
    Py_buffer view;
    if (PyObject_GetBuffer(object, &view, PyBUF_C_CONTIGUOUS) < 0) return NULL;
    if (view.itemsize != itemsize && view.len % itemsize) {
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
static u128 sequences128(uint64_t n, int *overflow) {
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
static int evaluate_many(const Program *p, Py_ssize_t n, const int64_t *ranks,
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

/* ------------------------------------------------------------------------ */
/* Batch text.                                                               */

typedef struct {
    char *data;
    size_t length, capacity;
} Text;

static int text_reserve(Text *t, size_t more) {
    if (t->length + more <= t->capacity) return 1;
    size_t capacity = t->capacity ? t->capacity : 65536;
    while (capacity < t->length + more) capacity *= 2;
    char *data = realloc(t->data, capacity);
    if (!data) return 0;
    t->data = data;
    t->capacity = capacity;
    return 1;
}

static inline void text_put(Text *t, const char *s, size_t n) {
    memcpy(t->data + t->length, s, n);
    t->length += n;
}
#define PUT_LITERAL(t, s) text_put((t), (s), sizeof(s) - 1)

static size_t u128_digits(u128 value, char *buffer) {
    /* decimal digits of value into buffer (no terminator), returns length */
    char reversed[48];
    size_t n = 0;
    if (value == 0) { buffer[0] = '0'; return 1; }
    while (value >> 64) {
        /* divide by 10**19 to reduce the number of 128-bit divisions */
        const uint64_t chunk = 10000000000000000000ULL;
        uint64_t rest = (uint64_t)(value % chunk);
        value /= chunk;
        for (int i = 0; i < 19; i++) { reversed[n++] = (char)('0' + rest % 10); rest /= 10; }
    }
    uint64_t small = (uint64_t)value;
    while (small) { reversed[n++] = (char)('0' + small % 10); small /= 10; }
    for (size_t i = 0; i < n; i++) buffer[i] = reversed[n - 1 - i];
    return n;
}

static inline void put_u128(Text *t, u128 value) {
    t->length += u128_digits(value, t->data + t->length);
}

static u128 gcd128(u128 a, u128 b) {
    if (!a) return b;
    if (!b) return a;
    if (!((a | b) >> 64)) {
        uint64_t x = (uint64_t)a, y = (uint64_t)b;
        int shift = __builtin_ctzll(x | y);
        x >>= __builtin_ctzll(x);
        do {
            y >>= __builtin_ctzll(y);
            if (x > y) { uint64_t swap = x; x = y; y = swap; }
            y -= x;
        } while (y);
        return (u128)x << shift;
    }
    while (b) { u128 r = a % b; a = b; b = r; }
    return a;
}

/* 2 * r compared with d, and r -> 10 * r mod d with the digit, for r < d < 2**128. */
static int next_digit(u128 *remainder, u128 denominator) {
    u128 r = *remainder;
    if (denominator >> 124) {
        /* 10 r may overflow: add r ten times modulo d, counting the wraps. */
        u128 accumulator = 0;
        int digit = 0;
        for (int i = 0; i < 10; i++) {
            if (accumulator >= denominator - r) { accumulator -= denominator - r; digit++; }
            else accumulator += r;
        }
        *remainder = accumulator;
        return digit;
    }
    u128 ten = r * 10;
    int digit = (int)(ten / denominator);
    *remainder = ten - (u128)digit * denominator;
    return digit;
}

/* The exact "n/d" (or "n") and the half-even decimal with `digits` places of
 * magnitude / denominator; writes the two texts (without sign) into their buffers. */
static void ratio_texts(u128 magnitude, u128 denominator, int digits, char *exact,
                        size_t *exact_length, char *rounded, size_t *rounded_length,
                        int *rounded_zero) {
    u128 common = gcd128(magnitude, denominator);
    magnitude /= common;
    denominator /= common;
    size_t n = u128_digits(magnitude, exact);
    if (denominator != 1) {
        exact[n++] = '/';
        n += u128_digits(denominator, exact + n);
    }
    *exact_length = n;
    u128 whole = magnitude / denominator, remainder = magnitude % denominator;
    char fraction[128];
    for (int i = 0; i < digits; i++) fraction[i] = (char)('0' + next_digit(&remainder, denominator));
    /* half even: compare 2 * remainder with denominator */
    int up;
    if (remainder > denominator - remainder) up = 1;
    else if (remainder == denominator - remainder && remainder) {
        int last = digits ? fraction[digits - 1] - '0' : (int)(whole & 1);
        up = last & 1;
    } else up = 0;
    if (up) {
        int i = digits - 1;
        for (; i >= 0; i--) {
            if (fraction[i] == '9') fraction[i] = '0';
            else { fraction[i]++; break; }
        }
        if (i < 0) whole += 1;
    }
    size_t m = u128_digits(whole, rounded);
    int zero = whole == 0;
    if (digits) {
        rounded[m++] = '.';
        memcpy(rounded + m, fraction, digits);
        m += digits;
        for (int i = 0; i < digits && zero; i++) zero = fraction[i] == '0';
    }
    *rounded_length = m;
    *rounded_zero = zero;
}

/* Rank and suit of a key's characters, -1 for any other; filled once at import, before
 * any thread can read them. */
static signed char rank_of[256];
static signed char suit_of[256];

static void parse_tables_init(void) {
    memset(rank_of, -1, sizeof rank_of);
    memset(suit_of, -1, sizeof suit_of);
    const char *symbols = "A23456789TJQK";
    for (int i = 0; i < 13; i++) rank_of[(unsigned char)symbols[i]] = (signed char)i;
    suit_of['S'] = 0; suit_of['H'] = 1; suit_of['D'] = 2; suit_of['C'] = 3;
}

/* Parse one line: returns 0 (a shoe: ranks[13], and suits[52] when *suited), 1 (blank),
 * 2 (anything else: the Python reader decides). */
static int parse_line(const char *s, Py_ssize_t length, int64_t *ranks, int64_t *suits,
                      int *suited) {
    const char *end = s + length;
#define SKIP_SPACE while (s < end && (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')) s++
    SKIP_SPACE;
    if (s == end) return 1;
    if (*s++ != '{') return 2;
    uint64_t seen_ranks = 0, seen_cards = 0;
    int kind = 0; /* 1 ranks, 2 cards */
    for (int r = 0; r < RANKS; r++) ranks[r] = 0;
    for (int c = 0; c < CARDS; c++) suits[c] = 0;
    uint64_t total = 0;
    for (;;) {
        SKIP_SPACE;
        if (s >= end || *s++ != '"') return 2;
        const char *key = s;
        while (s < end && *s != '"' && *s != '\\') s++;
        if (s >= end || *s != '"') return 2;
        Py_ssize_t key_length = s - key;
        s++;
        int rank, card = -1;
        if (key_length == 1 && (rank = rank_of[(unsigned char)key[0]]) >= 0) {
            if (kind == 2) return 2;
            kind = 1;
            if (seen_ranks >> rank & 1) return 2;
            seen_ranks |= 1ULL << rank;
        } else if (key_length == 2 && (rank = rank_of[(unsigned char)key[0]]) >= 0 &&
                   suit_of[(unsigned char)key[1]] >= 0) {
            if (kind == 1) return 2;
            kind = 2;
            card = rank * 4 + suit_of[(unsigned char)key[1]];
            if (seen_cards >> card & 1) return 2;
            seen_cards |= 1ULL << card;
        } else return 2;
        SKIP_SPACE;
        if (s >= end || *s++ != ':') return 2;
        SKIP_SPACE;
        const char *digits = s;
        uint64_t value = 0;
        while (s < end && *s >= '0' && *s <= '9') value = value * 10 + (uint64_t)(*s++ - '0');
        Py_ssize_t count = s - digits;
        /* Plain JSON integers of at most 17 digits: larger shoes take the Python path. */
        if (count == 0 || count > 17 || (count > 1 && digits[0] == '0')) return 2;
        if (s < end && (*s == '.' || *s == 'e' || *s == 'E')) return 2;
        total += value;
        if (card >= 0) { suits[card] = (int64_t)value; ranks[rank] += (int64_t)value; }
        else ranks[rank] = (int64_t)value;
        SKIP_SPACE;
        if (s >= end) return 2;
        if (*s == ',') { s++; continue; }
        if (*s == '}') { s++; break; }
        return 2;
    }
    SKIP_SPACE;
    if (s != end) return 2;
    if (total < 6) return 2;
#undef SKIP_SPACE
    *suited = kind == 2;
    return 0;
}

/* Write one result line (without the newline). */
static int format_line(Text *t, const Program *p, const int64_t *ranks, int suited,
                       int code, const uint64_t *out64, const u128 *out128, int digits) {
    static const char *symbols[13] = {"A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"};
    u128 cards = 0;
    for (int r = 0; r < RANKS; r++) cards += (uint64_t)ranks[r];
    int overflow;
    u128 total = sequences128((uint64_t)cards, &overflow);
    u128 player = code == 0 ? out64[p->player_output] : out128[p->player_output];
    u128 tie = code == 0 ? out64[p->tie_output] : out128[p->tie_output];
    /* Head: 13 ranks and 5 numbers of at most 39 digits, and the keys; 400 + 4 * digits
     * bounds a bet's two exact ratios (79 characters each), two decimals and the keys. */
    size_t need = 1500 + (size_t)p->bets * (size_t)(400 + 4 * digits);
    for (Py_ssize_t b = 0; b < p->bets; b++)
        need += (size_t)p->bet_key_length[b] + (size_t)p->bet_unavailable_length[b];
    if (!text_reserve(t, need)) return 0;
    PUT_LITERAL(t, "{\"shoe\": {\"cards\": ");
    put_u128(t, cards);
    PUT_LITERAL(t, ", \"ranks\": {");
    for (int r = 0; r < RANKS; r++) {
        if (r) PUT_LITERAL(t, ", ");
        t->data[t->length++] = '"';
        t->data[t->length++] = symbols[r][0];
        PUT_LITERAL(t, "\": ");
        put_u128(t, (uint64_t)ranks[r]);
    }
    PUT_LITERAL(t, "}}, \"total\": ");
    put_u128(t, total);
    PUT_LITERAL(t, ", \"outcomes\": {\"banker\": ");
    put_u128(t, total - player - tie);
    PUT_LITERAL(t, ", \"player\": ");
    put_u128(t, player);
    PUT_LITERAL(t, ", \"tie\": ");
    put_u128(t, tie);
    PUT_LITERAL(t, "}, \"bets\": {");
    char exact[96], rounded[200];
    size_t exact_length, rounded_length;
    int rounded_zero;
    for (Py_ssize_t b = 0; b < p->bets; b++) {
        if (b) PUT_LITERAL(t, ", ");
        if (!suited && p->bet_needs_suits[b]) {
            text_put(t, p->bet_unavailable[b], p->bet_unavailable_length[b]);
            continue;
        }
        text_put(t, p->bet_key[b], p->bet_key_length[b]);
        int32_t j = p->bet_output[b];
        i128 numerator = code == 0 ? (i128)(int64_t)out64[j] : (i128)out128[j];
        int negative = numerator < 0;
        u128 magnitude = negative ? (u128)(-numerator) : (u128)numerator;
        u128 denominator = total * (u128)(uint64_t)p->bet_denominator[b];
        ratio_texts(magnitude, denominator, digits, exact, &exact_length, rounded,
                    &rounded_length, &rounded_zero);
        int exact_zero = magnitude == 0;
        /* ev then house edge = -ev; the signs follow fraction_string / ratio_strings */
        for (int side = 0; side < 2; side++) {
            int minus = side == 0 ? negative : !negative;
            if (side == 0) PUT_LITERAL(t, "{\"computable\": true, \"ev\": \"");
            else PUT_LITERAL(t, "\", \"house_edge\": \"");
            if (minus && !exact_zero) t->data[t->length++] = '-';
            text_put(t, exact, exact_length);
            if (side == 0) PUT_LITERAL(t, "\", \"ev_decimal\": \"");
            else PUT_LITERAL(t, "\", \"house_edge_decimal\": \"");
            if (minus && !rounded_zero) t->data[t->length++] = '-';
            text_put(t, rounded, rounded_length);
        }
        PUT_LITERAL(t, "\"}");
    }
    PUT_LITERAL(t, "}}");
    return 1;
}

/* set_layout(program, player_output, tie_output, [(key_text: bytes, unavailable_text: bytes,
 *            needs_suits: bool, ev_output: int, denominator: int)...]) */
static PyObject *set_layout(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *capsule, *bets;
    int player, tie;
    if (!PyArg_ParseTuple(args, "OiiO!", &capsule, &player, &tie, &PyList_Type, &bets))
        return NULL;
    Program *p = get_program(capsule);
    if (!p) return NULL;
    if (p->has_layout) {
        PyErr_SetString(PyExc_ValueError, "the kernel program already has a layout");
        return NULL;
    }
    Py_ssize_t n = PyList_GET_SIZE(bets);
    if (player < 0 || player >= p->outputs || tie < 0 || tie >= p->outputs) goto bad_index;
    p->bets = n;
    p->bet_output = calloc(n + 1, sizeof(int32_t));
    p->bet_denominator = calloc(n + 1, sizeof(int64_t));
    p->bet_key = calloc(n + 1, sizeof(char *));
    p->bet_key_length = calloc(n + 1, sizeof(Py_ssize_t));
    p->bet_unavailable = calloc(n + 1, sizeof(char *));
    p->bet_unavailable_length = calloc(n + 1, sizeof(Py_ssize_t));
    p->bet_needs_suits = calloc(n + 1, 1);
    if (!p->bet_output || !p->bet_denominator || !p->bet_key || !p->bet_key_length ||
        !p->bet_unavailable || !p->bet_unavailable_length || !p->bet_needs_suits)
        return PyErr_NoMemory();
    for (Py_ssize_t b = 0; b < n; b++) {
        const char *key, *unavailable;
        Py_ssize_t key_length, unavailable_length;
        int needs_suits, output;
        long long denominator;
        if (!PyArg_ParseTuple(PyList_GET_ITEM(bets, b), "y#y#piL", &key, &key_length,
                              &unavailable, &unavailable_length, &needs_suits, &output,
                              &denominator))
            return NULL;
        if (output < 0 || output >= p->outputs || denominator < 1) goto bad_index;
        p->bet_key[b] = malloc(key_length + 1);
        p->bet_unavailable[b] = malloc(unavailable_length + 1);
        if (!p->bet_key[b] || !p->bet_unavailable[b]) return PyErr_NoMemory();
        memcpy(p->bet_key[b], key, key_length);
        memcpy(p->bet_unavailable[b], unavailable, unavailable_length);
        p->bet_key_length[b] = key_length;
        p->bet_unavailable_length[b] = unavailable_length;
        p->bet_needs_suits[b] = (int8_t)needs_suits;
        p->bet_output[b] = output;
        p->bet_denominator[b] = denominator;
        if ((uint64_t)denominator > p->max_denominator) p->max_denominator = (uint64_t)denominator;
    }
    p->player_output = player;
    p->tie_output = tie;
    p->has_layout = 1;
    Py_RETURN_NONE;
bad_index:
    PyErr_SetString(PyExc_ValueError, "kernel layout index out of range");
    return NULL;
}

/* batch(program, lines: list[str], digits) -> (text: str, ends: bytes, status: bytes)
 * For each line, status 0 (its result line, newline included, ends at ends[i] in text),
 * 1 (blank: nothing written) or 2 (left to the Python reader: nothing written). */
static PyObject *batch(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *capsule, *lines;
    int digits;
    if (!PyArg_ParseTuple(args, "OO!i", &capsule, &PyList_Type, &lines, &digits)) return NULL;
    Program *p = get_program(capsule);
    if (!p) return NULL;
    if (!p->has_layout) {
        PyErr_SetString(PyExc_ValueError, "the kernel program has no batch layout");
        return NULL;
    }
    if (digits < 0 || digits > 100) {
        PyErr_SetString(PyExc_ValueError, "digits must be from 0 to 100");
        return NULL;
    }
    Py_ssize_t n = PyList_GET_SIZE(lines);
    const Py_ssize_t J = p->outputs;
    const char **texts = malloc(sizeof(char *) * (n + 1));
    Py_ssize_t *lengths = malloc(sizeof(Py_ssize_t) * (n + 1));
    int64_t *ends = malloc(sizeof(int64_t) * (n + 1));
    char *status = malloc(n + 1);
    int64_t *ranks = malloc(sizeof(int64_t) * RANKS * (n + 1));
    int64_t *suits = malloc(sizeof(int64_t) * CARDS * (n + 1));
    int8_t *suited = malloc(n + 1);
    int8_t *width = malloc(n + 1);
    int64_t *low = malloc(sizeof(int64_t) * J * (n + 1));
    int64_t *high = malloc(sizeof(int64_t) * J * (n + 1));
    u128 *out128 = malloc(sizeof(u128) * (J + 1));
    Text text = {NULL, 0, 0};
    PyObject *result = NULL;
    if (!texts || !lengths || !ends || !status || !ranks || !suits || !suited || !width ||
        !low || !high || !out128) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *line = PyList_GET_ITEM(lines, i);
        texts[i] = NULL;
        /* Only ASCII text is parsed here: anything else is the Python reader's. */
        if (PyUnicode_Check(line) && PyUnicode_IS_READY(line) && PyUnicode_IS_ASCII(line)) {
            texts[i] = (const char *)PyUnicode_DATA(line);
            lengths[i] = PyUnicode_GET_LENGTH(line);
        } else if (PyBytes_Check(line)) {
            texts[i] = PyBytes_AS_STRING(line);
            lengths[i] = PyBytes_GET_SIZE(line);
            for (Py_ssize_t k = 0; k < lengths[i]; k++)
                if ((unsigned char)texts[i][k] >= 128) { texts[i] = NULL; break; }
        }
    }
    int failed = 0;
    Py_BEGIN_ALLOW_THREADS
    /* Parse every line, count every shoe parsed, then write the lines in order. */
    for (Py_ssize_t i = 0; i < n; i++) {
        int is_suited = 0;
        int kind = texts[i] ? parse_line(texts[i], lengths[i], ranks + i * RANKS,
                                         suits + i * CARDS, &is_suited)
                            : 2;
        status[i] = (char)kind;
        suited[i] = (int8_t)is_suited;
        if (kind != 0) {
            /* Not a shoe to count: give the evaluator a harmless row it will skip. */
            memset(ranks + i * RANKS, 0, sizeof(int64_t) * RANKS);
            suited[i] = 0;
        }
    }
    if (!evaluate_many(p, n, ranks, suited, suits, low, high, width)) failed = 1;
    for (Py_ssize_t i = 0; i < n && !failed; i++) {
        if (status[i] == 0) {
            int code = width[i];
            /* The EV denominators total * d must fit 128 bits to be written here. */
            uint64_t cards = 0;
            for (int r = 0; r < RANKS; r++) cards += (uint64_t)ranks[i * RANKS + r];
            int overflow;
            u128 total = sequences128(cards, &overflow);
            if (overflow || (p->max_denominator && total > ((u128)-1) / p->max_denominator))
                code = 2;
            if (code == 0 || code == 1) {
                for (Py_ssize_t j = 0; j < J; j++)
                    out128[j] = ((u128)(uint64_t)high[i * J + j] << 64) | (uint64_t)low[i * J + j];
                if (!format_line(&text, p, ranks + i * RANKS, suited[i], code,
                                 (const uint64_t *)(low + i * J), out128, digits) ||
                    !text_reserve(&text, 1)) {
                    failed = 1;
                    break;
                }
                text.data[text.length++] = '\n';
            } else status[i] = 2;
        }
        ends[i] = (int64_t)text.length;
    }
    Py_END_ALLOW_THREADS
    if (failed) { PyErr_NoMemory(); goto done; }
    {
        PyObject *string = PyUnicode_New((Py_ssize_t)text.length, 127);
        if (!string) goto done;
        if (text.length) memcpy(PyUnicode_DATA(string), text.data, text.length);
        PyObject *ends_bytes = PyBytes_FromStringAndSize((const char *)ends, n * 8);
        PyObject *status_bytes = PyBytes_FromStringAndSize(status, n);
        if (ends_bytes && status_bytes)
            result = PyTuple_Pack(3, string, ends_bytes, status_bytes);
        Py_DECREF(string);
        Py_XDECREF(ends_bytes);
        Py_XDECREF(status_bytes);
    }
done:
    free(texts); free(lengths); free(ends); free(status); free(ranks); free(suits);
    free(suited); free(width); free(low); free(high); free(out128);
    free(text.data);
    return result;
}

/* format(program, ranks: int64[13], suited: bool, code, low: int64[J], high: int64[J], digits)
 * -> str: the result line of one shoe already evaluated (for lines the Python reader read). */
static PyObject *format_one(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *capsule, *ranks_object, *low_object, *high_object;
    int suited, code, digits;
    if (!PyArg_ParseTuple(args, "OOpiOOi", &capsule, &ranks_object, &suited, &code, &low_object,
                          &high_object, &digits))
        return NULL;
    Program *p = get_program(capsule);
    if (!p) return NULL;
    if (!p->has_layout || (code != 0 && code != 1) || digits < 0 || digits > 100) {
        PyErr_SetString(PyExc_ValueError, "cannot format this result in the kernel");
        return NULL;
    }
    Py_buffer views[3];
    PyObject *objects[3] = {ranks_object, low_object, high_object};
    int got = 0;
    PyObject *result = NULL;
    for (; got < 3; got++)
        if (PyObject_GetBuffer(objects[got], &views[got], PyBUF_C_CONTIGUOUS) < 0) goto done;
    if (views[0].len != RANKS * 8 || views[1].len != p->outputs * 8 ||
        views[2].len != p->outputs * 8) {
        PyErr_SetString(PyExc_ValueError, "kernel arrays have the wrong length");
        goto done;
    }
    {
        const int64_t *low = views[1].buf, *high = views[2].buf;
        u128 *wide = malloc(sizeof(u128) * (p->outputs + 1));
        Text text = {NULL, 0, 0};
        if (!wide) { PyErr_NoMemory(); goto done; }
        for (Py_ssize_t j = 0; j < p->outputs; j++)
            wide[j] = ((u128)(uint64_t)high[j] << 64) | (uint64_t)low[j];
        if (format_line(&text, p, views[0].buf, suited, code, (const uint64_t *)low, wide,
                        digits)) {
            result = PyUnicode_New((Py_ssize_t)text.length, 127);
            if (result) memcpy(PyUnicode_DATA(result), text.data, text.length);
        } else PyErr_NoMemory();
        free(text.data);
        free(wide);
    }
done:
    for (int i = 0; i < got; i++) PyBuffer_Release(&views[i]);
    return result;
}

static PyMethodDef methods[] = {
    {"program", make_program, METH_VARARGS, "Build a kernel program from flat arrays."},
    {"set_layout", set_layout, METH_VARARGS, "Attach the batch text layout to a program."},
    {"evaluate", evaluate, METH_VARARGS, "Evaluate many shoes (releases the GIL)."},
    {"batch", batch, METH_VARARGS, "Parse, evaluate and format batch lines (releases the GIL)."},
    {"format", format_one, METH_VARARGS, "Format one evaluated shoe as a batch line."},
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
