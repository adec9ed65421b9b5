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
        Py_ssize_t position;
        if (burn < 0) {
            out->exposed[shoe] = row[0];
            counts[row[0]]--;
            rank_counts[row[0] / 4]--;
            position = 1 + (card_value(row[0]) ? card_value(row[0]) : 10);
        } else {
            out->exposed[shoe] = -1;
            position = (Py_ssize_t)burn;
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
            if (remaining < 0 && position + used > cut_at)
                remaining = (position >= cut_at ? cut_first_rounds : 1 + after_cut) - 1;
            else if (remaining > 0)
                remaining--;
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
