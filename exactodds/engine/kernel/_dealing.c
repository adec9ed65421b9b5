/* Dealing shoes of a simulation: shuffle, burn, deal rounds to the cut card, and each
 * round's summary key and the composition a counter knows before it.
 *
 * The spec is exactodds/simulation/dealing_twin.py (the same loops in Python integers);
 * tests/test_dealing_reference.py holds both to the former numpy dealing field for field.
 *
 * shuffle(states, size, cards, repeated): shoe i's random keys are numpy's PCG64 stream
 * from (state, increment) = states[i] (numpy's random_raw: step, then the XSL-RR output);
 * its cards are the positions sorted by key, modulo 52 (distinct keys have one sorted
 * order whatever the sort).  A shoe with two equal keys is flagged in
 * repeated[i] and its row left for the caller to draw again (numpy's own path).
 *
 * deal(cards, parameters, tableau, outputs...): every shoe's rounds in order, as flat
 * int64 rows (the known composition also by rank, for the pair bets' closed form).  Returns the number of rounds, or -1 (nothing is valid) if the outputs are
 * too short: the caller sizes them for shoes * (size / 4 + 1) rounds, the most that fit.
 *
 * Overflow: every value is a card type (0-51), a position in a shoe (below 52 * 64 + 6),
 * a count of rounds (below that, times the shoes of a block), a summary key (below
 * 10 * 10 * 2 * 2 * 2 * 2 * 9 = 14400) or a known count (between -(cards of a shoe) and
 * decks, stacked shoes may hold more of a card than the decks do): all far inside int64.
 * The PCG64 state is arithmetic modulo 2**128 by definition (unsigned __int128 wraps).
 */
#include "_kernel.h"

#include <math.h>

#define ROUND_CARDS 6

static inline uint64_t pcg64_next(u128 *state, u128 increment) {
    static const u128 multiplier =
        ((u128)0x2360ED051FC65DA4ULL << 64) | (u128)0x4385DF649FCCF645ULL;
    *state = *state * multiplier + increment;
    uint64_t high = (uint64_t)(*state >> 64), low = (uint64_t)*state;
    uint64_t word = high ^ low;
    unsigned rotation = (unsigned)(*state >> 122);
    return (word >> rotation) | (word << ((64 - rotation) & 63));
}

/* Sort keys[0..n) ascending, carrying places: a counting sort by the top bits (about
 * one bucket a key, at most 2**BUCKET_BITS) into the scratch arrays, then an insertion sort back, which only moves keys
 * within their bucket (random keys: about one key a bucket, so about linear time; any
 * keys: still sorted). */
#define BUCKET_BITS 12
static void bucket_sort(uint64_t *keys, uint16_t *places, uint64_t *key_scratch,
                        uint16_t *place_scratch, int32_t *count, Py_ssize_t n) {
    int bits = 1;
    while (bits < BUCKET_BITS && ((Py_ssize_t)1 << bits) < n) bits++;
    const int shift = 64 - bits, buckets = 1 << bits;
    memset(count, 0, (size_t)(buckets + 1) * sizeof(int32_t));
    for (Py_ssize_t i = 0; i < n; i++) count[(keys[i] >> shift) + 1]++;
    for (int bucket = 0; bucket < buckets; bucket++) count[bucket + 1] += count[bucket];
    for (Py_ssize_t i = 0; i < n; i++) {
        int32_t to = count[keys[i] >> shift]++;
        key_scratch[to] = keys[i];
        place_scratch[to] = places[i];
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        uint64_t key = key_scratch[i];
        uint16_t place = place_scratch[i];
        Py_ssize_t j = i;
        while (j > 0 && keys[j - 1] > key) {
            keys[j] = keys[j - 1];
            places[j] = places[j - 1];
            j--;
        }
        keys[j] = key;
        places[j] = place;
    }
}

static int shuffle_shoes(Py_ssize_t shoes, Py_ssize_t size, const uint64_t *states,
                         int64_t *cards, int8_t *repeated) {
    uint64_t *keys = malloc(2 * (size_t)size * sizeof(uint64_t));
    uint16_t *places = malloc(2 * (size_t)size * sizeof(uint16_t));
    int32_t *count = malloc(((1 << BUCKET_BITS) + 1) * sizeof(int32_t));
    if (!keys || !places || !count) { free(keys); free(places); free(count); return 0; }
    for (Py_ssize_t shoe = 0; shoe < shoes; shoe++) {
        const uint64_t *words = states + 4 * shoe; /* state high, low; increment high, low */
        u128 state = ((u128)words[0] << 64) | words[1];
        u128 increment = ((u128)words[2] << 64) | words[3];
        for (Py_ssize_t i = 0; i < size; i++) {
            keys[i] = pcg64_next(&state, increment);
            places[i] = (uint16_t)i;
        }
        bucket_sort(keys, places, keys + size, places + size, count, size);
        repeated[shoe] = 0;
        for (Py_ssize_t i = 1; i < size; i++)
            if (keys[i] == keys[i - 1]) repeated[shoe] = 1;
        int64_t *row = cards + shoe * size;
        for (Py_ssize_t i = 0; i < size; i++) row[i] = places[i] % CARDS;
    }
    free(keys);
    free(places);
    free(count);
    return 1;
}

/* The tableau, flat: natural totals [10], Player draws [10], Banker draws when the
 * Player stood [10], Banker draws by (total, Player's third card value) [100]. */
typedef struct {
    const int8_t *natural, *player_draws, *banker_stood, *banker_draws;
} Tableau;

static inline int card_value(int64_t card) {
    int64_t rank = card / 4;
    return rank < 9 ? (int)rank + 1 : 0;
}

/* The round starting at cards[0..6): its cards used and its summary key. */
static inline int play_round(const Tableau *t, const int64_t *cards, int64_t *key) {
    int v[ROUND_CARDS];
    for (int i = 0; i < ROUND_CARDS; i++) v[i] = card_value(cards[i]);
    int player = (v[0] + v[2]) % 10, banker = (v[1] + v[3]) % 10;
    int player_natural = t->natural[player] != 0, banker_natural = t->natural[banker] != 0;
    int natural = player_natural | banker_natural;
    int player_third = !natural && t->player_draws[player];
    int banker_third = !natural && (player_third ? t->banker_draws[banker * 10 + v[4]]
                                                 : t->banker_stood[banker]);
    int banker_card = player_third ? v[5] : v[4];
    int final_player = player_third ? (player + v[4]) % 10 : player;
    int final_banker = banker_third ? (banker + banker_card) % 10 : banker;
    int player_pair = cards[0] == cards[2] ? 2 : cards[0] / 4 == cards[2] / 4;
    int banker_pair = cards[1] == cards[3] ? 2 : cards[1] / 4 == cards[3] / 4;
    int64_t k = final_player;
    k = k * 10 + final_banker;
    k = k * 2 + player_third;
    k = k * 2 + banker_third;
    k = k * 2 + player_natural;
    k = k * 2 + banker_natural;
    *key = k * 9 + player_pair * 3 + banker_pair;
    return 4 + player_third + banker_third;
}

/* Where a shoe's first round starts: after the exposed card and its burn (burn < 0, the
 * standard burn) or after *burn* cards face down. */
static inline Py_ssize_t first_position(const int64_t *row, int64_t burn) {
    if (burn >= 0) return (Py_ssize_t)burn;
    return 1 + (card_value(row[0]) ? card_value(row[0]) : 10);
}

/* The rounds still to deal after a round at *position* that used *used* cards: -1 while
 * the cut card has not come out, else how many more (0: the shoe is done). */
static inline int64_t rounds_left(int64_t remaining, Py_ssize_t position, int used,
                                  Py_ssize_t cut_at, int64_t after_cut,
                                  int64_t cut_first_rounds) {
    if (remaining < 0 && position + used > cut_at)
        return (position >= cut_at ? cut_first_rounds : 1 + after_cut) - 1;
    return remaining > 0 ? remaining - 1 : remaining;
}

typedef struct {
    int64_t *exposed, *rounds_per_shoe;                              /* shoes */
    int64_t *round_shoe, *round_number, *depth, *round_cards, *summary; /* capacity */
    int64_t *known;                                                  /* capacity x 52 */
    int64_t *ranks;                                                  /* capacity x 13 */
    Py_ssize_t capacity;
} Dealt;

/* parameters: decks, burn (-1: standard, else cards burned face down), cut, after_cut,
 * cut_first_rounds. */
static Py_ssize_t deal_shoes(Py_ssize_t shoes, Py_ssize_t size, const int64_t *cards,
                             const int64_t *parameters, const Tableau *t, Dealt *out) {
    int64_t decks = parameters[0], burn = parameters[1], cut = parameters[2];
    int64_t after_cut = parameters[3], cut_first_rounds = parameters[4];
    Py_ssize_t cut_at = size - (Py_ssize_t)cut, last_start = size - ROUND_CARDS;
    Py_ssize_t rounds = 0;
    for (Py_ssize_t shoe = 0; shoe < shoes; shoe++) {
        const int64_t *row = cards + shoe * size;
        int64_t counts[CARDS], rank_counts[RANKS];
        for (int c = 0; c < CARDS; c++) counts[c] = decks;
        for (int r = 0; r < RANKS; r++) rank_counts[r] = 4 * decks;
        Py_ssize_t position = first_position(row, burn);
        out->exposed[shoe] = burn < 0 ? row[0] : -1;
        if (burn < 0) {
            counts[row[0]]--;
            rank_counts[row[0] / 4]--;
        }
        int64_t number = 0, remaining = -1; /* -1: the cut card has not come out */
        while (position <= last_start && remaining != 0) {
            if (rounds >= out->capacity) return -1;
            int64_t key;
            int used = play_round(t, row + position, &key);
            out->round_shoe[rounds] = shoe;
            out->round_number[rounds] = number++;
            out->depth[rounds] = position;
            out->round_cards[rounds] = used;
            out->summary[rounds] = key;
            memcpy(out->known + rounds * CARDS, counts, sizeof counts);
            memcpy(out->ranks + rounds * RANKS, rank_counts, sizeof rank_counts);
            for (int i = 0; i < used; i++) {
                counts[row[position + i]]--;
                rank_counts[row[position + i] / 4]--;
            }
            remaining = rounds_left(remaining, position, used, cut_at, after_cut, cut_first_rounds);
            position += used;
            rounds++;
        }
        out->rounds_per_shoe[shoe] = number;
    }
    return rounds;
}

static int get_buffers(PyObject **objects, Py_buffer *views, const int *writable, int n) {
    for (int i = 0; i < n; i++) {
        int flags = PyBUF_C_CONTIGUOUS | (writable[i] ? PyBUF_WRITABLE : 0);
        if (PyObject_GetBuffer(objects[i], &views[i], flags) < 0) {
            for (int j = 0; j < i; j++) PyBuffer_Release(&views[j]);
            return 0;
        }
    }
    return 1;
}

static void release_buffers(Py_buffer *views, int n) {
    for (int i = 0; i < n; i++) PyBuffer_Release(&views[i]);
}

PyObject *shuffle(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *objects[3];
    Py_ssize_t size;
    if (!PyArg_ParseTuple(args, "OnOO", &objects[0], &size, &objects[1], &objects[2]))
        return NULL;
    Py_buffer views[3];
    int writable[3] = {0, 1, 1};
    if (!get_buffers(objects, views, writable, 3)) return NULL;
    Py_ssize_t shoes = views[2].len;
    if (size < 1 || size > 65536 || views[0].len != shoes * 4 * 8 ||
        views[1].len != shoes * size * 8) {
        release_buffers(views, 3);
        PyErr_SetString(PyExc_ValueError, "shuffle arrays do not match the number of shoes");
        return NULL;
    }
    int ok;
    Py_BEGIN_ALLOW_THREADS
    ok = shuffle_shoes(shoes, size, views[0].buf, views[1].buf, views[2].buf);
    Py_END_ALLOW_THREADS
    release_buffers(views, 3);
    if (!ok) return PyErr_NoMemory();
    Py_RETURN_NONE;
}

PyObject *deal(PyObject *Py_UNUSED(self), PyObject *args) {
    enum { CARDS_IN, PARAMETERS, NATURAL, PLAYER, STOOD, BANKER, EXPOSED, PER_SHOE, SHOE,
           NUMBER, DEPTH, USED, SUMMARY, KNOWN, RANK_COUNTS, VIEWS };
    PyObject *objects[VIEWS];
    Py_ssize_t shoes;
    if (!PyArg_ParseTuple(args, "nOOOOOOOOOOOOOOO", &shoes, &objects[0], &objects[1],
                          &objects[2], &objects[3], &objects[4], &objects[5], &objects[6],
                          &objects[7], &objects[8], &objects[9], &objects[10], &objects[11],
                          &objects[12], &objects[13], &objects[14]))
        return NULL;
    Py_buffer views[VIEWS];
    int writable[VIEWS] = {0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1};
    if (!get_buffers(objects, views, writable, VIEWS)) return NULL;
    Py_ssize_t capacity = views[SHOE].len / 8;
    Py_ssize_t size = shoes > 0 ? views[CARDS_IN].len / 8 / shoes : 0;
    int fits = shoes > 0 && views[CARDS_IN].len == shoes * size * 8 && size >= ROUND_CARDS &&
               views[PARAMETERS].len == 5 * 8 && views[NATURAL].len == 10 &&
               views[PLAYER].len == 10 && views[STOOD].len == 10 && views[BANKER].len == 100 &&
               views[EXPOSED].len == shoes * 8 && views[PER_SHOE].len == shoes * 8;
    for (int i = NUMBER; i <= SUMMARY; i++) fits = fits && views[i].len == capacity * 8;
    fits = fits && views[KNOWN].len == capacity * CARDS * 8 &&
           views[RANK_COUNTS].len == capacity * RANKS * 8;
    const int64_t *parameters = views[PARAMETERS].buf;
    const int64_t *cards = views[CARDS_IN].buf;
    if (fits) {
        int64_t burn = parameters[1];
        fits = parameters[0] >= 1 && burn >= -1 && burn <= size && parameters[2] >= 0 &&
               parameters[2] <= size && parameters[3] >= 0 && parameters[4] >= 1;
        for (Py_ssize_t i = 0; fits && i < shoes * size; i++)
            fits = cards[i] >= 0 && cards[i] < CARDS;
    }
    if (!fits) {
        release_buffers(views, VIEWS);
        PyErr_SetString(PyExc_ValueError, "deal arrays do not match the shoes and rounds");
        return NULL;
    }
    Tableau t = {views[NATURAL].buf, views[PLAYER].buf, views[STOOD].buf, views[BANKER].buf};
    Dealt out = {views[EXPOSED].buf, views[PER_SHOE].buf, views[SHOE].buf, views[NUMBER].buf,
                 views[DEPTH].buf, views[USED].buf, views[SUMMARY].buf, views[KNOWN].buf,
                 views[RANK_COUNTS].buf, capacity};
    Py_ssize_t rounds;
    Py_BEGIN_ALLOW_THREADS
    rounds = deal_shoes(shoes, size, cards, parameters, &t, &out);
    Py_END_ALLOW_THREADS
    release_buffers(views, VIEWS);
    return PyLong_FromSsize_t(rounds);
}

/* ---- Stream states: each shoe's PCG64 (state, increment), as numpy seeds it ----------
 *
 * stream_states(run, first_shoe, shoes, out): shoe first_shoe + i's generator is
 * PCG64(SeedSequence(seed, spawn_key=(shoe,))); *run* holds the seed's 32-bit words (at
 * least 4, zero-padded), and out[i] gets (state high, state low, increment high,
 * increment low), the words shuffle() reads.  The spec is exactodds/simulation/dealing.py
 * (_stream_states and _pool_words: SeedSequence's hash mixing in uint32 arithmetic, then
 * PCG64's seeding modulo 2**128); tests/test_pair_study.py holds both equal.  Every
 * operation is modulo 2**32 or 2**128 by definition (unsigned wrap-around).
 */
#define HASH_INIT_A 0x43B0D7E5u
#define HASH_MULT_A 0x931E8875u
#define HASH_INIT_B 0x8B51F9DDu
#define HASH_MULT_B 0x58F38DEDu
#define MIX_LEFT 0xCA01F9DDu
#define MIX_RIGHT 0x4973F715u
#define RUN_MOST 8

static inline uint32_t hashed(uint32_t value, uint32_t *constant) {
    value ^= *constant;
    *constant *= HASH_MULT_A;
    value *= *constant;
    return value ^ (value >> 16);
}

static inline uint32_t mixed(uint32_t left, uint32_t right) {
    uint32_t result = MIX_LEFT * left - MIX_RIGHT * right;
    return result ^ (result >> 16);
}

static void seed_one(const uint32_t *entropy, int words, uint64_t *out) {
    uint32_t constant = HASH_INIT_A, pool[4], state[8];
    for (int i = 0; i < 4; i++) pool[i] = hashed(entropy[i], &constant);
    for (int source = 0; source < 4; source++)
        for (int target = 0; target < 4; target++)
            if (source != target) pool[target] = mixed(pool[target], hashed(pool[source], &constant));
    for (int extra = 4; extra < words; extra++)
        for (int target = 0; target < 4; target++)
            pool[target] = mixed(pool[target], hashed(entropy[extra], &constant));
    constant = HASH_INIT_B;
    for (int i = 0; i < 8; i++) {
        uint32_t value = pool[i % 4] ^ constant;
        constant *= HASH_MULT_B;
        value *= constant;
        state[i] = value ^ (value >> 16);
    }
    uint64_t w[4];
    for (int i = 0; i < 4; i++) w[i] = (uint64_t)state[2 * i] | ((uint64_t)state[2 * i + 1] << 32);
    static const u128 multiplier =
        ((u128)0x2360ED051FC65DA4ULL << 64) | (u128)0x4385DF649FCCF645ULL;
    u128 increment = ((((u128)w[2] << 64) | w[3]) << 1) | 1;
    u128 seeded = increment + (((u128)w[0] << 64) | w[1]);
    seeded = seeded * multiplier + increment;
    out[0] = (uint64_t)(seeded >> 64), out[1] = (uint64_t)seeded;
    out[2] = (uint64_t)(increment >> 64), out[3] = (uint64_t)increment;
}

PyObject *stream_states(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *objects[2];
    unsigned long long first;
    Py_ssize_t shoes;
    if (!PyArg_ParseTuple(args, "OKnO", &objects[0], &first, &shoes, &objects[1])) return NULL;
    Py_buffer views[2];
    int writable[2] = {0, 1};
    if (!get_buffers(objects, views, writable, 2)) return NULL;
    Py_ssize_t run = views[0].len / 4;
    if (run < 4 || run > RUN_MOST || views[0].len != run * 4 || shoes < 0 ||
        views[1].len != shoes * 4 * 8 || (shoes > 0 && (uint64_t)(shoes - 1) > UINT64_MAX - first)) {
        release_buffers(views, 2);
        PyErr_SetString(PyExc_ValueError, "stream state arrays do not match the shoes");
        return NULL;
    }
    const uint32_t *words = views[0].buf;
    uint64_t *out = views[1].buf;
    Py_BEGIN_ALLOW_THREADS
    uint32_t entropy[RUN_MOST + 2];
    memcpy(entropy, words, (size_t)run * 4);
    for (Py_ssize_t i = 0; i < shoes; i++) {
        uint64_t shoe = (uint64_t)first + (uint64_t)i;
        entropy[run] = (uint32_t)shoe;
        entropy[run + 1] = (uint32_t)(shoe >> 32);
        seed_one(entropy, (int)run + (shoe >> 32 ? 2 : 1), out + 4 * i);
    }
    Py_END_ALLOW_THREADS
    release_buffers(views, 2);
    Py_RETURN_NONE;
}

/* ---- Pair studies: deal, price, decide, settle and tally in one pass ------------------
 *
 * pair_study(shoes, cards, parameters, tableau x4, bets, per_shoe, sums, depth, histogram,
 * bands, touched): for a study whose every bet is a pair bet (exactodds/simulation/pairs.py: its
 * outcome depends only on whether one hand's first two cards are a rank pair), flat
 * stakes and perfect play (bet when the exact EV > 0) or always, each shoe of *cards* is
 * dealt as deal_shoes deals it and every round is priced, decided, settled and tallied
 * here, without writing the rounds out.  The spec is the numpy road it replaces
 * (exactodds/simulation/block.py: pairs.py's closed form, the strategies, sizing.py's
 * flat stakes, figures.py's risk sums); exactodds/simulation/pair_study.py says which
 * buffer holds what, and tests/test_pair_study.py holds both roads equal field for field.
 *
 * Per round, for a shoe of n unseen cards with N_r of rank r and S = sum N_r (N_r - 1)
 * (kept up to date card by card): each bet's EV numerator (S win + (n (n - 1) - S) lose)
 * (n - 2) (n - 3) (n - 4) (n - 5) over n (n - 1) (n - 2) ... (n - 5) d, as pairs.py writes
 * them; the EV's float64 (the float division of the two), its fixed point (rint of the
 * float times 2**40) and histogram bin (floor of the float times 10000), all as numpy
 * computes them (the same IEEE operations in the same order; no fused multiply-add: none
 * of them is a product followed by a sum).
 *
 * Overflow: the caller (pair_study.py, _fits) proves before the call that every EV
 * numerator and denominator is below 2**62 (pairs.py's own bound, with n at most the
 * shoe's cards), that each per-shoe sum (of results, EVs, squares, combined results and
 * their squares, products of two bets' results, bets made, units staked: at most
 * (size / 4 + 1) rounds of terms each below the per-round bound) is below 2**62 and that
 * the product of any two of them times the block's shoes is below 2**126 (checked per
 * block): so every per-round value and per-shoe sum (ShoeSums) fits int64 and every sum
 * over shoes (the i128 sums) fits __int128.  The band and depth sums (int64, over the
 * block's rounds) are below its rounds x the per-round bound, checked per block to be
 * below 2**63 (pair_study.py, _block_fits: nothing is added to them in int64 after).
 */

enum { BET_HAND, BET_WIN, BET_LOSE, BET_DENOMINATOR, BET_ALWAYS, BET_STAKE, BET_SCALE,
       BET_BIN_LOW, BET_BIN_SPAN, BET_BAND_LOW, BET_BAND_SPAN, BET_FIELDS };
/* Per bet, the i128 sums, then the combined ones, then the products (see pair_study.py). */
enum { SUM_MADE, SUM_EV_MADE, SUM_POSITIVE, SUM_WAGERED, SUM_X, SUM_XX, SUM_XR, SUM_E,
       SUM_EE, SUM_ER, SUM_Q, SUM_QQ, SUM_QR, SUM_QX, SUM_QE, SUM_XE, BET_SUMS };
enum { COMBINED_X, COMBINED_XX, COMBINED_XR, COMBINED_E, COMBINED_EE, COMBINED_ER,
       COMBINED_Q, COMBINED_QQ, COMBINED_QR, COMBINED_QX, COMBINED_QE, COMBINED_XE,
       COMBINED_SUMS };
#define PAIR_BETS_MAX 16
/* The most bets a shoe's sums hold (the value study's limit; the pair study's is lower). */
#define SHOE_BETS_MAX 32
#define BAND_FIELDS 5

static inline int64_t floor_divide(int64_t a, int64_t b) { /* b > 0 */
    int64_t q = a / b;
    return (a % b != 0 && a < 0) ? q - 1 : q;
}

/* floor(value) as an integer, without the libm call: truncate, then step down below zero
 * (exact for |value| < 2**63; here |value| is at most 10000 x the largest pay). */
static inline int64_t floor_of(double value) {
    int64_t truncated = (int64_t)value;
    return (double)truncated > value ? truncated - 1 : truncated;
}

typedef struct {
    Py_ssize_t bets, decks;
    const int64_t *bet; /* bets x BET_FIELDS */
    int64_t *per_shoe;  /* shoes x 3: rounds, combined result, its lowest running total */
    i128 *sums;         /* bets x BET_SUMS, COMBINED_SUMS, bets (bets + 1) / 2 products */
    int64_t *depth;     /* bets x decks x 2: EV sum (fixed point), rounds */
    int64_t *histogram; /* per bet, BET_BIN_SPAN counts from BET_BIN_LOW, one after another */
    int64_t *bands;     /* per bet, BET_BAND_SPAN x BAND_FIELDS from BET_BAND_LOW */
    int64_t *touched;   /* bets x 2: the lowest and highest histogram slot counted */
} PairTally;

/* One shoe's per-shoe sums, per bet and combined. */
typedef struct {
    int64_t x[SHOE_BETS_MAX], e[SHOE_BETS_MAX], q[SHOE_BETS_MAX];
    int64_t made[SHOE_BETS_MAX], ev_made[SHOE_BETS_MAX], positive[SHOE_BETS_MAX];
    int64_t wagered[SHOE_BETS_MAX];
    int64_t products[SHOE_BETS_MAX * (SHOE_BETS_MAX + 1) / 2];
    int64_t combined_x, combined_e, combined_q, running, lowest;
} ShoeSums;

/* A shoe's sums set to zero for *bets* bets (what tally_shoe reads; not the whole struct,
 * sized for the most bets). */
static void shoe_sums_clear(ShoeSums *shoe, Py_ssize_t bets) {
    size_t row = (size_t)bets * sizeof(int64_t);
    memset(shoe->x, 0, row), memset(shoe->e, 0, row), memset(shoe->q, 0, row);
    memset(shoe->made, 0, row), memset(shoe->ev_made, 0, row), memset(shoe->positive, 0, row);
    memset(shoe->wagered, 0, row);
    memset(shoe->products, 0, (size_t)(bets * (bets + 1) / 2) * sizeof(int64_t));
    shoe->combined_x = shoe->combined_e = shoe->combined_q = shoe->running = shoe->lowest = 0;
}

/* Settle bet *j* of a round into *shoe*: made or not (*decided*) at *units* a bet, paid *pay*
 * (over the bet's denominator), its EV *fixed* (2**40 fixed point) from a *numerator* whose
 * sign says whether it is positive; its staked EV in *e*, its result returned. */
static int64_t settle_bet(ShoeSums *shoe, Py_ssize_t j, int decided, int64_t units, int64_t pay,
                          int64_t fixed, int64_t numerator, int64_t *e) {
    int64_t stake = decided ? units : 0;
    int64_t x = stake * pay;
    *e = fixed * stake;
    shoe->made[j] += decided;
    shoe->ev_made[j] += decided ? fixed : 0;
    shoe->positive[j] += numerator > 0;
    shoe->wagered[j] += stake;
    shoe->x[j] += x;
    shoe->e[j] += *e;
    shoe->q[j] += x * x;
    shoe->combined_e += *e;
    return x;
}

/* Close a round in *shoe*: its combined result over the bets (*combined*), the running
 * bankroll's low point, and the products of the bets' results *x_of*. */
static void close_round(ShoeSums *shoe, int64_t combined, const int64_t *x_of, Py_ssize_t bets) {
    shoe->combined_x += combined;
    shoe->combined_q += combined * combined;
    shoe->running += combined;
    if (shoe->running < shoe->lowest) shoe->lowest = shoe->running;
    int64_t *products = shoe->products;
    for (Py_ssize_t i = 0; i < bets; i++)
        for (Py_ssize_t j = i; j < bets; j++) *products++ += x_of[i] * x_of[j];
}

/* Price, decide, settle and tally one round (rank counts before it, its first four cards).
 * Returns 0 if a bin falls outside the caller's histogram (nothing valid then). */
static int tally_round(const PairTally *t, int64_t n, int64_t pairs, const int64_t *round,
                       Py_ssize_t position, ShoeSums *shoe, int64_t *x_of) {
    const int64_t ordered = n * (n - 1), rest = (n - 2) * (n - 3) * (n - 4) * (n - 5);
    const int pair_of[2] = {round[0] / 4 == round[2] / 4, round[1] / 4 == round[3] / 4};
    int64_t deck = (int64_t)position / 52;
    if (deck > t->decks - 1) deck = t->decks - 1;
    int64_t combined = 0, numerator = 0, fixed = 0, bin = 0;
    Py_ssize_t histogram_at = 0, bands_at = 0;
    for (Py_ssize_t j = 0; j < t->bets; j++) {
        const int64_t *b = t->bet + j * BET_FIELDS;
        /* The Player's and the Banker's pair at the same pays have the same EV: priced once. */
        if (j == 0 || b[BET_WIN] != b[BET_WIN - BET_FIELDS] ||
            b[BET_LOSE] != b[BET_LOSE - BET_FIELDS] ||
            b[BET_DENOMINATOR] != b[BET_DENOMINATOR - BET_FIELDS]) {
            numerator = (pairs * b[BET_WIN] + (ordered - pairs) * b[BET_LOSE]) * rest;
            int64_t denominator = ordered * rest * b[BET_DENOMINATOR];
            double ev = (double)numerator / (double)denominator;
            fixed = (int64_t)rint(ev * 1099511627776.0); /* 2**40 */
            bin = floor_of(ev * 10000.0);
        }
        int decided = b[BET_ALWAYS] ? 1 : numerator > 0;
        int64_t e, pay = pair_of[b[BET_HAND]] ? b[BET_WIN] : b[BET_LOSE];
        int64_t x = settle_bet(shoe, j, decided, b[BET_STAKE], pay, fixed, numerator, &e);
        combined += x * b[BET_SCALE];
        x_of[j] = x;
        t->depth[(j * t->decks + deck) * 2] += fixed;
        t->depth[(j * t->decks + deck) * 2 + 1] += 1;
        int64_t slot = bin - b[BET_BIN_LOW];
        int64_t band = floor_divide(bin, 100) - b[BET_BAND_LOW];
        if (slot < 0 || slot >= b[BET_BIN_SPAN] || band < 0 || band >= b[BET_BAND_SPAN])
            return 0;
        t->histogram[histogram_at + slot] += 1;
        if (slot < t->touched[2 * j]) t->touched[2 * j] = slot;
        if (slot > t->touched[2 * j + 1]) t->touched[2 * j + 1] = slot;
        int64_t *in_band = t->bands + bands_at + band * BAND_FIELDS;
        in_band[0] += 1;
        in_band[1] += decided;
        in_band[2] += e;
        in_band[3] += x;
        in_band[4] += x * x;
        histogram_at += b[BET_BIN_SPAN];
        bands_at += b[BET_BAND_SPAN] * BAND_FIELDS;
    }
    close_round(shoe, combined, x_of, t->bets);
    return 1;
}

/* Add one finished shoe of *rounds* rounds to the sums over shoes. */
static void tally_shoe(const PairTally *t, const ShoeSums *shoe, int64_t rounds) {
    for (Py_ssize_t j = 0; j < t->bets; j++) {
        i128 *s = t->sums + j * BET_SUMS, x = shoe->x[j], e = shoe->e[j], q = shoe->q[j];
        s[SUM_MADE] += shoe->made[j], s[SUM_EV_MADE] += shoe->ev_made[j];
        s[SUM_POSITIVE] += shoe->positive[j], s[SUM_WAGERED] += shoe->wagered[j];
        s[SUM_X] += x, s[SUM_XX] += x * x, s[SUM_XR] += x * rounds;
        s[SUM_E] += e, s[SUM_EE] += e * e, s[SUM_ER] += e * rounds;
        s[SUM_Q] += q, s[SUM_QQ] += q * q, s[SUM_QR] += q * rounds;
        s[SUM_QX] += q * x, s[SUM_QE] += q * e, s[SUM_XE] += x * e;
    }
    i128 *products = t->sums + t->bets * BET_SUMS + COMBINED_SUMS;
    for (Py_ssize_t k = 0; k < t->bets * (t->bets + 1) / 2; k++) products[k] += shoe->products[k];
    i128 *c = t->sums + t->bets * BET_SUMS;
    i128 x = shoe->combined_x, e = shoe->combined_e, q = shoe->combined_q;
    c[COMBINED_X] += x, c[COMBINED_XX] += x * x, c[COMBINED_XR] += x * rounds;
    c[COMBINED_E] += e, c[COMBINED_EE] += e * e, c[COMBINED_ER] += e * rounds;
    c[COMBINED_Q] += q, c[COMBINED_QQ] += q * q, c[COMBINED_QR] += q * rounds;
    c[COMBINED_QX] += q * x, c[COMBINED_QE] += q * e, c[COMBINED_XE] += x * e;
}

/* Every shoe dealt as deal_shoes deals it, its rounds tallied.  Returns the rounds, or -1
 * if a bin fell outside the histogram or a round had fewer than six unseen cards. */
static Py_ssize_t pair_shoes(Py_ssize_t shoes, Py_ssize_t size, const int64_t *cards,
                             const int64_t *parameters, const Tableau *tableau,
                             const PairTally *t) {
    int64_t decks = parameters[0], burn = parameters[1], cut = parameters[2];
    int64_t after_cut = parameters[3], cut_first_rounds = parameters[4];
    Py_ssize_t cut_at = size - (Py_ssize_t)cut, last_start = size - ROUND_CARDS;
    Py_ssize_t rounds = 0;
    int64_t x_of[PAIR_BETS_MAX];
    for (Py_ssize_t shoe = 0; shoe < shoes; shoe++) {
        const int64_t *row = cards + shoe * size;
        int64_t ranks[RANKS], n = (int64_t)CARDS * decks, pairs = 0;
        for (int r = 0; r < RANKS; r++) ranks[r] = 4 * decks;
        for (int r = 0; r < RANKS; r++) pairs += ranks[r] * (ranks[r] - 1);
        /* A card of rank r leaves: S loses N_r (N_r - 1) - (N_r - 1) (N_r - 2). */
#define REMOVE(card) (pairs -= 2 * (ranks[(card) / 4] - 1), ranks[(card) / 4]--, n--)
        Py_ssize_t position = first_position(row, burn);
        if (burn < 0) REMOVE(row[0]);
        ShoeSums sums;
        shoe_sums_clear(&sums, t->bets);
        int64_t number = 0, remaining = -1;
        while (position <= last_start && remaining != 0) {
            int64_t key;
            int used = play_round(tableau, row + position, &key);
            if (n < ROUND_CARDS || !tally_round(t, n, pairs, row + position, position, &sums, x_of))
                return -1;
            for (int i = 0; i < used; i++) REMOVE(row[position + i]);
            remaining = rounds_left(remaining, position, used, cut_at, after_cut, cut_first_rounds);
            position += used;
            number++;
            rounds++;
        }
#undef REMOVE
        t->per_shoe[3 * shoe] = number;
        t->per_shoe[3 * shoe + 1] = sums.combined_x;
        t->per_shoe[3 * shoe + 2] = sums.lowest;
        tally_shoe(t, &sums, number);
    }
    return rounds;
}

PyObject *pair_study(PyObject *Py_UNUSED(self), PyObject *args) {
    enum { CARDS_IN, PARAMETERS, NATURAL, PLAYER, STOOD, BANKER, BETS, PER_SHOE, SUMS, DEPTH,
           HISTOGRAM, BANDS, TOUCHED, VIEWS };
    PyObject *objects[VIEWS];
    Py_ssize_t shoes;
    if (!PyArg_ParseTuple(args, "nOOOOOOOOOOOOO", &shoes, &objects[0], &objects[1],
                          &objects[2], &objects[3], &objects[4], &objects[5], &objects[6],
                          &objects[7], &objects[8], &objects[9], &objects[10], &objects[11],
                          &objects[12]))
        return NULL;
    Py_buffer views[VIEWS];
    int writable[VIEWS] = {0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1};
    if (!get_buffers(objects, views, writable, VIEWS)) return NULL;
    Py_ssize_t bets = views[BETS].len / 8 / BET_FIELDS;
    Py_ssize_t size = shoes > 0 ? views[CARDS_IN].len / 8 / shoes : 0;
    const int64_t *parameters = views[PARAMETERS].buf, *bet = views[BETS].buf;
    const int64_t *cards = views[CARDS_IN].buf;
    int fits = shoes > 0 && views[CARDS_IN].len == shoes * size * 8 && size >= ROUND_CARDS &&
               views[PARAMETERS].len == 5 * 8 && views[NATURAL].len == 10 &&
               views[PLAYER].len == 10 && views[STOOD].len == 10 && views[BANKER].len == 100 &&
               bets >= 1 && bets <= PAIR_BETS_MAX && views[BETS].len == bets * BET_FIELDS * 8 &&
               views[PER_SHOE].len == shoes * 3 * 8 &&
               views[SUMS].len == (bets * BET_SUMS + COMBINED_SUMS + bets * (bets + 1) / 2) * 16;
    if (fits) {
        int64_t burn = parameters[1];
        fits = parameters[0] >= 1 && burn >= -1 && burn <= size && parameters[2] >= 0 &&
               parameters[2] <= size && parameters[3] >= 0 && parameters[4] >= 1 &&
               views[DEPTH].len == bets * parameters[0] * 2 * 8;
        Py_ssize_t bins = 0, bands = 0;
        for (Py_ssize_t j = 0; fits && j < bets; j++) {
            const int64_t *b = bet + j * BET_FIELDS;
            fits = (b[BET_HAND] == 0 || b[BET_HAND] == 1) && b[BET_DENOMINATOR] >= 1 &&
                   b[BET_BIN_SPAN] >= 1 && b[BET_BAND_SPAN] >= 1;
            bins += b[BET_BIN_SPAN];
            bands += b[BET_BAND_SPAN] * BAND_FIELDS;
        }
        fits = fits && views[HISTOGRAM].len == bins * 8 && views[BANDS].len == bands * 8 &&
               views[TOUCHED].len == bets * 2 * 8;
        uint64_t outside = 0; /* branch-free (vectorised): one pass over every card */
        for (Py_ssize_t i = 0; i < shoes * size; i++) outside |= (uint64_t)cards[i] >= CARDS;
        fits = fits && !outside;
    }
    if (!fits) {
        release_buffers(views, VIEWS);
        PyErr_SetString(PyExc_ValueError, "pair study arrays do not match the shoes and bets");
        return NULL;
    }
    Tableau tableau = {views[NATURAL].buf, views[PLAYER].buf, views[STOOD].buf,
                       views[BANKER].buf};
    /* The sums in aligned memory of our own, written out as (low, high) 64-bit words. */
    Py_ssize_t count = views[SUMS].len / 16;
    i128 *sums = calloc((size_t)count, sizeof(i128));
    if (!sums) {
        release_buffers(views, VIEWS);
        return PyErr_NoMemory();
    }
    PairTally t = {bets, parameters[0], bet, views[PER_SHOE].buf, sums,
                   views[DEPTH].buf, views[HISTOGRAM].buf, views[BANDS].buf,
                   views[TOUCHED].buf};
    for (Py_ssize_t j = 0; j < bets; j++) {
        t.touched[2 * j] = bet[j * BET_FIELDS + BET_BIN_SPAN];
        t.touched[2 * j + 1] = -1;
    }
    Py_ssize_t rounds;
    Py_BEGIN_ALLOW_THREADS
    rounds = pair_shoes(shoes, size, cards, parameters, &tableau, &t);
    uint64_t *words = views[SUMS].buf;
    for (Py_ssize_t i = 0; i < count; i++) {
        words[2 * i] = (uint64_t)sums[i];
        words[2 * i + 1] = (uint64_t)((u128)sums[i] >> 64);
    }
    Py_END_ALLOW_THREADS
    free(sums);
    release_buffers(views, VIEWS);
    return PyLong_FromSsize_t(rounds);
}

/* ---- Value studies: deal, price with the kernel's program, decide, settle, tally ------
 *
 * value_study(shoes, cards, parameters, tableau x4, program, suited, bet_rounds, bets, pays,
 * filled,
 * missing, per_shoe, sums, depth, bins, bands, touched): the pair study's pass for any
 * bets the kernel's lean program prices (exactodds/simulation/value_study.py says which
 * buffer holds what), flat stakes, played perfect (bet when the exact EV > 0), always, or
 * by a linear count (true or running, against its trigger, exactly).  Each shoe is dealt
 * as deal_shoes deals it; its rounds' known compositions (by rank, and by card when
 * *suited*) go to evaluate_many, the very function the lean evaluation (the kernel's
 * `evaluate`) runs, eight rounds at a time; then every round is decided, settled and
 * tallied into the pair study's sums (ShoeSums, tally_shoe), without writing the rounds
 * out but for each round's EV histogram bin (int32, bets x the rounds a block can hold:
 * numpy counts them).
 *
 * The spec is the numpy road (exactodds/simulation/block.py: exact_expected_values, the
 * strategies, sizing.py's flat stakes, figures.py's risk sums); tests/test_value_study.py
 * holds both roads equal field for field.  Per round and bet: the EV numerator is the
 * program's output VALUE_OUTPUT, its denominator ff(n, 6) x the bet's pay denominator;
 * the float, fixed point and bin as the pair study computes them (numpy's operations).
 * A count's running count is start + sum over ranks of tag x (4 decks - unseen of the
 * rank), the true count's decision 52 q running >= p unseen, its band floor(52 running /
 * unseen); a running count's decision q running >= p, its band the running count.
 *
 * Before any pricing, every round's summary key is dealt once: a key whose pays the caller
 * has not filled (filled[key] == 0) is flagged in missing[key] and the call returns -3
 * (nothing else written); the caller fills those pays and calls again.
 *
 * Overflow: the caller (value_study.py) proves ff(cards of a shoe, 6) x every pay
 * denominator below 2**62 (so every EV denominator fits int64), the program's outputs
 * are int64 on every round or the call returns -2 (width codes), the counts' products
 * below 2**62 (Count.count_bound, as strategies.py checks), and every per-round, per-shoe
 * and per-block sum in range as for the pair study (pair_study.py's bounds).  Returns the
 * rounds, -1 (a band outside the caller's range), -2 (an output past int64: take the
 * numpy road), -3 (missing pays) or -4 (out of memory).
 */

enum { VALUE_OUTPUT, VALUE_DENOMINATOR, VALUE_PLAY, VALUE_STAKE, VALUE_SCALE, VALUE_BAND_LOW,
       VALUE_BAND_SPAN, VALUE_TRIGGER_NUMERATOR, VALUE_TRIGGER_DENOMINATOR, VALUE_START,
       VALUE_TAGS, VALUE_FIELDS = VALUE_TAGS + RANKS };
enum { PLAY_PERFECT, PLAY_ALWAYS, PLAY_TRUE_COUNT, PLAY_RUNNING_COUNT };
#define VALUE_SUMMARY_KEYS 14400
#define VALUE_BETS_MAX SHOE_BETS_MAX

typedef struct {
    Py_ssize_t bets, decks, outputs;
    const int64_t *bet;  /* bets x VALUE_FIELDS */
    const int64_t *pays; /* VALUE_SUMMARY_KEYS x bets: net result in units of 1/denominator */
    int64_t *per_shoe;   /* shoes x 3, as the pair study's */
    i128 *sums;          /* as the pair study's */
    int64_t *depth;      /* bets x decks x 2 */
    int32_t *bins;       /* bets x capacity: each round's EV histogram bin, bet by bet */
    Py_ssize_t capacity; /* rounds the bins hold a bet */
    int64_t *bands;      /* per bet, VALUE_BAND_SPAN x BAND_FIELDS from VALUE_BAND_LOW */
    int64_t *touched;    /* bets x 2: the lowest and highest band slot counted */
} ValueTally;

/* One shoe's rounds as dealt, for evaluate_many and the tally. */
typedef struct {
    int64_t *ranks, *suits, *low, *high, *key, *position;
    int8_t *suited, *width;
} ValueRounds;

/* A count's decision for bet row *b* on the round whose unseen cards are *ranks* (*unseen*
 * of them), and its band: the true count's 52 q running >= p unseen and floor(52 running /
 * unseen), or the running count's q running >= p and the running count. */
static int count_decides(const ValueTally *t, const int64_t *b, const int64_t *ranks,
                         int64_t unseen, int64_t *band) {
    int64_t running = b[VALUE_START];
    for (int r = 0; r < RANKS; r++) running += b[VALUE_TAGS + r] * (4 * t->decks - ranks[r]);
    int64_t p = b[VALUE_TRIGGER_NUMERATOR], q = b[VALUE_TRIGGER_DENOMINATOR];
    if (b[VALUE_PLAY] == PLAY_TRUE_COUNT) {
        *band = floor_divide(52 * running, unseen);
        return 52 * q * running >= p * unseen;
    }
    *band = running;
    return running * q >= p;
}

/* Whether some bet is made on the round whose unseen cards are *ranks*, or some bet's
 * decision needs its EV (perfect play; always bets every round): the rounds a study that
 * prices bet-rounds only prices. */
static int value_made(const ValueTally *t, const int64_t *ranks) {
    int64_t unseen = 0, band;
    for (int r = 0; r < RANKS; r++) unseen += ranks[r];
    for (Py_ssize_t j = 0; j < t->bets; j++) {
        const int64_t *b = t->bet + j * VALUE_FIELDS;
        if (b[VALUE_PLAY] == PLAY_PERFECT || b[VALUE_PLAY] == PLAY_ALWAYS) return 1;
        if (count_decides(t, b, ranks, unseen, &band)) return 1;
    }
    return 0;
}

/* Decide, settle and tally one round: its outputs, ff(n, 6), rank counts, key and depth. */
static int value_round(const ValueTally *t, const int64_t *outputs, int64_t total,
                       const int64_t *ranks, int64_t key, Py_ssize_t position,
                       ShoeSums *shoe, int64_t *x_of, Py_ssize_t round) {
    int64_t unseen = 0;
    for (int r = 0; r < RANKS; r++) unseen += ranks[r];
    int64_t deck = (int64_t)position / 52;
    if (deck > t->decks - 1) deck = t->decks - 1;
    const int64_t *pays = t->pays + key * t->bets;
    int64_t combined = 0;
    Py_ssize_t bands_at = 0;
    for (Py_ssize_t j = 0; j < t->bets; j++) {
        const int64_t *b = t->bet + j * VALUE_FIELDS;
        int64_t numerator = outputs[b[VALUE_OUTPUT]];
        int64_t denominator = total * b[VALUE_DENOMINATOR];
        double ev = (double)numerator / (double)denominator;
        int64_t fixed = (int64_t)rint(ev * 1099511627776.0); /* 2**40 */
        int64_t bin = floor_of(ev * 10000.0);
        int decided;
        int64_t band;
        int64_t play = b[VALUE_PLAY];
        if (play == PLAY_PERFECT || play == PLAY_ALWAYS) {
            decided = play == PLAY_ALWAYS ? 1 : numerator > 0;
            band = floor_divide(bin, 100);
        } else {
            decided = count_decides(t, b, ranks, unseen, &band);
        }
        int64_t e;
        int64_t x = settle_bet(shoe, j, decided, b[VALUE_STAKE], pays[j], fixed, numerator, &e);
        combined += x * b[VALUE_SCALE];
        x_of[j] = x;
        t->bins[j * t->capacity + round] = (int32_t)bin;
        t->depth[(j * t->decks + deck) * 2] += fixed;
        t->depth[(j * t->decks + deck) * 2 + 1] += 1;
        int64_t slot = band - b[VALUE_BAND_LOW];
        if (slot < 0 || slot >= b[VALUE_BAND_SPAN]) return 0;
        if (slot < t->touched[2 * j]) t->touched[2 * j] = slot;
        if (slot > t->touched[2 * j + 1]) t->touched[2 * j + 1] = slot;
        int64_t *in_band = t->bands + bands_at + slot * BAND_FIELDS;
        in_band[0] += 1;
        in_band[1] += decided;
        in_band[2] += e;
        in_band[3] += x;
        in_band[4] += x * x;
        bands_at += b[VALUE_BAND_SPAN] * BAND_FIELDS;
    }
    close_round(shoe, combined, x_of, t->bets);
    return 1;
}

/* Deal one shoe's rounds into *out* (rank counts, card counts, keys, depths); returns them. */
static Py_ssize_t value_deal(const int64_t *row, Py_ssize_t size, const int64_t *parameters,
                             const Tableau *tableau, int suited, ValueRounds *out) {
    int64_t decks = parameters[0], burn = parameters[1], cut = parameters[2];
    int64_t after_cut = parameters[3], cut_first_rounds = parameters[4];
    Py_ssize_t cut_at = size - (Py_ssize_t)cut, last_start = size - ROUND_CARDS;
    int64_t counts[CARDS], ranks[RANKS];
    for (int c = 0; c < CARDS; c++) counts[c] = decks;
    for (int r = 0; r < RANKS; r++) ranks[r] = 4 * decks;
    Py_ssize_t position = first_position(row, burn), number = 0;
    if (burn < 0) counts[row[0]]--, ranks[row[0] / 4]--;
    int64_t remaining = -1;
    while (position <= last_start && remaining != 0) {
        int used = play_round(tableau, row + position, &out->key[number]);
        out->position[number] = position;
        out->suited[number] = (int8_t)suited;
        memcpy(out->ranks + number * RANKS, ranks, sizeof ranks);
        if (suited) memcpy(out->suits + number * CARDS, counts, sizeof counts);
        for (int i = 0; i < used; i++) counts[row[position + i]]--, ranks[row[position + i] / 4]--;
        remaining = rounds_left(remaining, position, used, cut_at, after_cut, cut_first_rounds);
        position += used;
        number++;
    }
    return number;
}

/* Every round's key dealt once: flag the keys whose pays are not filled; any flagged? */
static int value_missing(Py_ssize_t shoes, Py_ssize_t size, const int64_t *cards,
                         const int64_t *parameters, const Tableau *tableau,
                         const int8_t *filled, int8_t *missing) {
    int64_t burn = parameters[1], cut = parameters[2];
    int64_t after_cut = parameters[3], cut_first_rounds = parameters[4];
    Py_ssize_t cut_at = size - (Py_ssize_t)cut, last_start = size - ROUND_CARDS;
    int any = 0;
    for (Py_ssize_t shoe = 0; shoe < shoes; shoe++) {
        const int64_t *row = cards + shoe * size;
        Py_ssize_t position = first_position(row, burn);
        int64_t remaining = -1, key;
        while (position <= last_start && remaining != 0) {
            int used = play_round(tableau, row + position, &key);
            if (!filled[key]) missing[key] = 1, any = 1;
            remaining = rounds_left(remaining, position, used, cut_at, after_cut, cut_first_rounds);
            position += used;
        }
    }
    return any;
}

/* Shoes dealt this many at a time before their rounds are priced in one evaluate_many call
 * (full lanes of eight rounds, one allocation of its scratch). */
#define VALUE_SHOES_A_BATCH 32

/* *r* from round *at* on (the rounds of a batch's later shoes). */
static ValueRounds value_rounds_at(const ValueRounds *r, Py_ssize_t at, Py_ssize_t J) {
    ValueRounds shifted = {r->ranks + at * RANKS, r->suits + at * CARDS, r->low + at * J,
                           r->high + at * J, r->key + at, r->position + at, r->suited + at,
                           r->width + at};
    return shifted;
}

/* Tally one shoe's *number* rounds from *r* (priced); its rounds start at *first* of the
 * block.  Returns the rounds, or -1 (a band outside the range) or -2 (an output past int64). */
static Py_ssize_t value_shoe_tally(const ValueTally *t, const PairTally *sums_of,
                                   const ValueRounds *r, Py_ssize_t J, Py_ssize_t number,
                                   Py_ssize_t shoe, Py_ssize_t first) {
    int64_t x_of[VALUE_BETS_MAX];
    ShoeSums sums;
    shoe_sums_clear(&sums, t->bets);
    for (Py_ssize_t i = 0; i < number; i++) {
        const int64_t *ranks = r->ranks + i * RANKS;
        int64_t cards_left = 0;
        for (int k = 0; k < RANKS; k++) cards_left += ranks[k];
        int overflow;
        int64_t total = (int64_t)sequences128((uint64_t)cards_left, &overflow);
        if (r->width[i] != 0) return -2;
        if (!value_round(t, r->low + i * J, total, ranks, r->key[i], r->position[i], &sums, x_of,
                         first + i))
            return -1;
    }
    t->per_shoe[3 * shoe] = number;
    t->per_shoe[3 * shoe + 1] = sums.combined_x;
    t->per_shoe[3 * shoe + 2] = sums.lowest;
    tally_shoe(sums_of, &sums, number);
    return number;
}

/* Price the *dealt* rounds of *r* with *program*: every one, or with *bet_rounds* only the
 * rounds some bet is made (value_made), through the compact buffers *c*, the others' outputs
 * left 0 (their figures, the every-round ones, are left out by the caller).  0: no memory. */
static int value_price(const Program *program, const ValueTally *t, ValueRounds *r,
                       ValueRounds *c, Py_ssize_t dealt, Py_ssize_t J, int bet_rounds) {
    if (!bet_rounds)
        return evaluate_many(program, dealt, r->ranks, r->suited, r->suits, r->low, r->high,
                             r->width);
    Py_ssize_t priced = 0;
    for (Py_ssize_t i = 0; i < dealt; i++) {
        memset(r->low + i * J, 0, sizeof(int64_t) * J);
        memset(r->high + i * J, 0, sizeof(int64_t) * J);
        r->width[i] = 0;
        if (!value_made(t, r->ranks + i * RANKS)) continue;
        memcpy(c->ranks + priced * RANKS, r->ranks + i * RANKS, sizeof(int64_t) * RANKS);
        if (r->suited[i])
            memcpy(c->suits + priced * CARDS, r->suits + i * CARDS, sizeof(int64_t) * CARDS);
        c->suited[priced] = r->suited[i];
        c->position[priced++] = i;
    }
    if (!priced) return 1;
    if (!evaluate_many(program, priced, c->ranks, c->suited, c->suits, c->low, c->high,
                       c->width))
        return 0;
    for (Py_ssize_t k = 0; k < priced; k++) {
        Py_ssize_t i = (Py_ssize_t)c->position[k];
        memcpy(r->low + i * J, c->low + k * J, sizeof(int64_t) * J);
        memcpy(r->high + i * J, c->high + k * J, sizeof(int64_t) * J);
        r->width[i] = c->width[k];
    }
    return 1;
}

static ValueRounds value_rounds_alloc(Py_ssize_t capacity, Py_ssize_t J) {
    ValueRounds r = {
        malloc(sizeof(int64_t) * capacity * RANKS), malloc(sizeof(int64_t) * capacity * CARDS),
        malloc(sizeof(int64_t) * capacity * J), malloc(sizeof(int64_t) * capacity * J),
        malloc(sizeof(int64_t) * capacity), malloc(sizeof(int64_t) * capacity),
        malloc((size_t)capacity), malloc((size_t)capacity)};
    return r;
}

static int value_rounds_ok(const ValueRounds *r) {
    return r->ranks && r->suits && r->low && r->high && r->key && r->position && r->suited &&
           r->width;
}

static void value_rounds_free(ValueRounds *r) {
    free(r->ranks), free(r->suits), free(r->low), free(r->high), free(r->key), free(r->position);
    free(r->suited), free(r->width);
}

static Py_ssize_t value_shoes(Py_ssize_t shoes, Py_ssize_t size, const int64_t *cards,
                              const int64_t *parameters, const Tableau *tableau,
                              const Program *program, int suited, int bet_rounds,
                              const ValueTally *t, const PairTally *sums_of) {
    Py_ssize_t capacity = (size / 4 + 1) * VALUE_SHOES_A_BATCH, J = program->outputs;
    ValueRounds r = value_rounds_alloc(capacity, J);
    ValueRounds c = value_rounds_alloc(bet_rounds ? capacity : 1, J);
    Py_ssize_t rounds = 0, numbers[VALUE_SHOES_A_BATCH];
    if (!value_rounds_ok(&r) || !value_rounds_ok(&c)) rounds = -4;
    for (Py_ssize_t batch = 0; rounds >= 0 && batch < shoes; batch += VALUE_SHOES_A_BATCH) {
        Py_ssize_t count = shoes - batch < VALUE_SHOES_A_BATCH ? shoes - batch
                                                                : VALUE_SHOES_A_BATCH;
        Py_ssize_t dealt = 0;
        for (Py_ssize_t k = 0; k < count; k++) {
            ValueRounds at = value_rounds_at(&r, dealt, J);
            numbers[k] = value_deal(cards + (batch + k) * size, size, parameters, tableau,
                                    suited, &at);
            dealt += numbers[k];
        }
        if (!value_price(program, t, &r, &c, dealt, J, bet_rounds)) {
            rounds = -4;
            break;
        }
        dealt = 0;
        for (Py_ssize_t k = 0; k < count && rounds >= 0; k++) {
            ValueRounds at = value_rounds_at(&r, dealt, J);
            Py_ssize_t tallied = value_shoe_tally(t, sums_of, &at, J, numbers[k], batch + k,
                                                  rounds);
            rounds = tallied < 0 ? tallied : rounds + tallied;
            dealt += numbers[k];
        }
    }
    value_rounds_free(&r);
    value_rounds_free(&c);
    return rounds;
}

PyObject *value_study(PyObject *Py_UNUSED(self), PyObject *args) {
    enum { CARDS_IN, PARAMETERS, NATURAL, PLAYER, STOOD, BANKER, BETS, PAYS, FILLED, MISSING,
           PER_SHOE, SUMS, DEPTH, BINS, BANDS, TOUCHED, VIEWS };
    PyObject *objects[VIEWS], *capsule;
    Py_ssize_t shoes;
    int suited, bet_rounds;
    if (!PyArg_ParseTuple(args, "nOOOOOOOppOOOOOOOOOO", &shoes, &objects[0], &objects[1],
                          &objects[2], &objects[3], &objects[4], &objects[5], &capsule,
                          &suited, &bet_rounds, &objects[6], &objects[7], &objects[8], &objects[9],
                          &objects[10], &objects[11], &objects[12], &objects[13],
                          &objects[14], &objects[15]))
        return NULL;
    Program *program = get_program(capsule);
    if (!program) return NULL;
    Py_buffer views[VIEWS];
    int writable[VIEWS] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1};
    if (!get_buffers(objects, views, writable, VIEWS)) return NULL;
    Py_ssize_t bets = views[BETS].len / 8 / VALUE_FIELDS;
    Py_ssize_t size = shoes > 0 ? views[CARDS_IN].len / 8 / shoes : 0;
    const int64_t *parameters = views[PARAMETERS].buf, *bet = views[BETS].buf;
    const int64_t *cards = views[CARDS_IN].buf;
    int fits = shoes > 0 && views[CARDS_IN].len == shoes * size * 8 && size >= ROUND_CARDS &&
               views[PARAMETERS].len == 5 * 8 && views[NATURAL].len == 10 &&
               views[PLAYER].len == 10 && views[STOOD].len == 10 && views[BANKER].len == 100 &&
               bets >= 1 && bets <= VALUE_BETS_MAX && views[BETS].len == bets * VALUE_FIELDS * 8 &&
               views[PAYS].len == VALUE_SUMMARY_KEYS * bets * 8 &&
               views[FILLED].len == VALUE_SUMMARY_KEYS && views[MISSING].len == VALUE_SUMMARY_KEYS &&
               views[PER_SHOE].len == shoes * 3 * 8 &&
               views[SUMS].len == (bets * BET_SUMS + COMBINED_SUMS + bets * (bets + 1) / 2) * 16 &&
               views[BINS].len == shoes * (size / 4 + 1) * bets * 4;
    if (fits) {
        int64_t burn = parameters[1];
        fits = parameters[0] >= 1 && burn >= -1 && burn <= size && parameters[2] >= 0 &&
               parameters[2] <= size && parameters[3] >= 0 && parameters[4] >= 1 &&
               views[DEPTH].len == bets * parameters[0] * 2 * 8;
        Py_ssize_t bands = 0;
        for (Py_ssize_t j = 0; fits && j < bets; j++) {
            const int64_t *b = bet + j * VALUE_FIELDS;
            fits = b[VALUE_OUTPUT] >= 0 && b[VALUE_OUTPUT] < program->outputs &&
                   b[VALUE_DENOMINATOR] >= 1 && b[VALUE_PLAY] >= PLAY_PERFECT &&
                   b[VALUE_PLAY] <= PLAY_RUNNING_COUNT && b[VALUE_BAND_SPAN] >= 1 &&
                   b[VALUE_TRIGGER_DENOMINATOR] >= 1;
            bands += b[VALUE_BAND_SPAN] * BAND_FIELDS;
        }
        fits = fits && views[BANDS].len == bands * 8 && views[TOUCHED].len == bets * 2 * 8;
        uint64_t outside = 0;
        for (Py_ssize_t i = 0; i < shoes * size; i++) outside |= (uint64_t)cards[i] >= CARDS;
        fits = fits && !outside;
    }
    if (!fits) {
        release_buffers(views, VIEWS);
        PyErr_SetString(PyExc_ValueError, "value study arrays do not match the shoes and bets");
        return NULL;
    }
    Tableau tableau = {views[NATURAL].buf, views[PLAYER].buf, views[STOOD].buf,
                       views[BANKER].buf};
    Py_ssize_t rounds;
    if (value_missing(shoes, size, cards, parameters, &tableau, views[FILLED].buf,
                      views[MISSING].buf)) {
        release_buffers(views, VIEWS);
        return PyLong_FromSsize_t(-3);
    }
    Py_ssize_t count = views[SUMS].len / 16;
    i128 *sums = calloc((size_t)count, sizeof(i128));
    if (!sums) {
        release_buffers(views, VIEWS);
        return PyErr_NoMemory();
    }
    ValueTally t = {bets, parameters[0], program->outputs, bet, views[PAYS].buf,
                    views[PER_SHOE].buf, sums, views[DEPTH].buf, views[BINS].buf,
                    shoes * (size / 4 + 1), views[BANDS].buf, views[TOUCHED].buf};
    PairTally sums_of = {bets, parameters[0], NULL, views[PER_SHOE].buf, sums, NULL, NULL, NULL,
                         NULL};
    for (Py_ssize_t j = 0; j < bets; j++) {
        t.touched[2 * j] = bet[j * VALUE_FIELDS + VALUE_BAND_SPAN];
        t.touched[2 * j + 1] = -1;
    }
    Py_BEGIN_ALLOW_THREADS
    rounds = value_shoes(shoes, size, cards, parameters, &tableau, program, suited, bet_rounds,
                         &t, &sums_of);
    uint64_t *words = views[SUMS].buf;
    for (Py_ssize_t i = 0; i < count; i++) {
        words[2 * i] = (uint64_t)sums[i];
        words[2 * i + 1] = (uint64_t)((u128)sums[i] >> 64);
    }
    Py_END_ALLOW_THREADS
    free(sums);
    release_buffers(views, VIEWS);
    if (rounds == -4) return PyErr_NoMemory();
    return PyLong_FromSsize_t(rounds);
}
