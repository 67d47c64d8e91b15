/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * pychessdraw_native._walk: the walk over every reachable position
 * (``deadposition.closure.explore``) in C.
 *
 * The Python walk spends about 8 us a node in python-chess's board even
 * when compiled; this one spends well under a microsecond.  It is the same
 * walk: depth first, the moves in ``ordering.staged_moves``'s order (the
 * tests compare them move for move), an exact visited set, a mate when the
 * loser is in check without a legal move; from the same position it tries
 * the same moves and finds the same line.  What it does not know is left
 * to the caller:
 *  - after each capture or pawn move (the only moves that change material
 *    or the pawns), ``dead_end(pawns, knights, bishops, rooks, queens,
 *    kings, white, turn, ep)`` is asked whether the new position is proven
 *    without mate (material, reachability), as the Python walk asks;
 *  - a mate's line is returned as (from, to, promotion) triples for the
 *    caller to replay and check with python-chess.
 * Limits: no castling (the caller keeps positions with castling rights for
 * the Python walk), exactly one king a side; the en passant square is kept
 * only where an enemy pawn stands next to the pawn that stepped two squares
 * (positions that differ by an unusable square have the same moves, and
 * are merged where the Python walk keeps both).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef uint64_t u64;
enum { PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING };

/* 64 bytes; the padding is always zero, so positions compare by memcmp. */
typedef struct {
    u64 bb[6];  /* by piece kind, both colours */
    u64 white;
    int8_t turn; /* 1: white to move */
    int8_t ep;   /* -1: none */
    uint8_t pad[6];
} Pos;

static u64 KNIGHT_ATT[64], KING_ATT[64], PAWN_ATT[2][64], RAY[8][64];
/* Directions 0-3 raise the square's index (north, east, north-east,
 * north-west), 4-7 lower it: the nearest blocker is the lowest or the
 * highest bit of a ray's occupied squares. */
static const int DF[8] = {0, 1, 1, -1, 0, -1, -1, 1};
static const int DR[8] = {1, 0, 1, 1, -1, 0, -1, -1};

#define BIT(s) (1ULL << (s))
#define LSB(b) __builtin_ctzll(b)
#define MSB(b) (63 - __builtin_clzll(b))
#define OCC(p) ((p)->bb[0] | (p)->bb[1] | (p)->bb[2] | (p)->bb[3] | (p)->bb[4] | (p)->bb[5])

static void init_tables(void) {
    static const int KN[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
    for (int s = 0; s < 64; s++) {
        int f = s & 7, r = s >> 3;
        for (int i = 0; i < 8; i++) {
            int nf = f + KN[i][0], nr = r + KN[i][1];
            if (nf >= 0 && nf < 8 && nr >= 0 && nr < 8) KNIGHT_ATT[s] |= BIT(nr * 8 + nf);
            nf = f + DF[i];
            nr = r + DR[i];
            if (nf >= 0 && nf < 8 && nr >= 0 && nr < 8) KING_ATT[s] |= BIT(nr * 8 + nf);
            for (nf = f + DF[i], nr = r + DR[i]; nf >= 0 && nf < 8 && nr >= 0 && nr < 8; nf += DF[i], nr += DR[i])
                RAY[i][s] |= BIT(nr * 8 + nf);
        }
        for (int df = -1; df <= 1; df += 2) {
            if (f + df < 0 || f + df > 7) continue;
            if (r < 7) PAWN_ATT[1][s] |= BIT((r + 1) * 8 + f + df);
            if (r > 0) PAWN_ATT[0][s] |= BIT((r - 1) * 8 + f + df);
        }
    }
}

static inline u64 ray(int d, int s, u64 occ) {
    u64 a = RAY[d][s], b = a & occ;
    if (b) a ^= RAY[d][d < 4 ? LSB(b) : MSB(b)];
    return a;
}
static inline u64 diag_att(int s, u64 occ) { return ray(2, s, occ) | ray(3, s, occ) | ray(6, s, occ) | ray(7, s, occ); }
static inline u64 orth_att(int s, u64 occ) { return ray(0, s, occ) | ray(1, s, occ) | ray(4, s, occ) | ray(5, s, occ); }

/* Is square s attacked by the pieces of colour ``by`` (1: white)? */
static int attacked(const Pos *p, int s, int by, u64 occ) {
    u64 them = by ? p->white : occ & ~p->white;
    if (PAWN_ATT[!by][s] & p->bb[PAWN] & them) return 1;
    if (KNIGHT_ATT[s] & p->bb[KNIGHT] & them) return 1;
    if (KING_ATT[s] & p->bb[KING] & them) return 1;
    if (diag_att(s, occ) & (p->bb[BISHOP] | p->bb[QUEEN]) & them) return 1;
    return (orth_att(s, occ) & (p->bb[ROOK] | p->bb[QUEEN]) & them) != 0;
}

static int in_check(const Pos *p) {
    u64 occ = OCC(p), us = p->turn ? p->white : occ & ~p->white;
    return attacked(p, LSB(p->bb[KING] & us), !p->turn, occ);
}

/* A move: from | to << 6 | promotion << 12 (python-chess's piece types, 0: none). */
/* Pseudo-legal moves of one position: 218 legal at most in chess, but the
 * hard set's composed positions (nine bishops a side) go beyond what a
 * legal count bounds; with 16 men a side at most (``walk`` refuses more),
 * 27 moves a man, none has 512. */
#define MAX_MOVES 512
#define MOVE(f, t, pr) ((uint16_t)((f) | ((t) << 6) | ((pr) << 12)))

static int add_targets(uint16_t *out, int n, int from, u64 targets) {
    for (; targets; targets &= ~BIT(MSB(targets))) out[n++] = MOVE(from, MSB(targets), 0);
    return n;
}

static int add_promotions(uint16_t *out, int n, int from, int to) {
    if ((to >> 3) == 0 || (to >> 3) == 7) {
        for (int pr = QUEEN; pr >= KNIGHT; pr--) out[n++] = MOVE(from, to, pr + 1);
        return n;
    }
    out[n++] = MOVE(from, to, 0);
    return n;
}

#define RANK(r) (0xFFULL << (8 * (r)))

/* Pseudo-legal moves of the side to move (no castling), in python-chess's
 * order (``generate_pseudo_legal_moves``: pieces from the highest square,
 * each one's targets from the highest; pawn captures, single steps, double
 * steps, en passant): the walk's order is a stable sort of it. */
static int generate(const Pos *p, uint16_t *out) {
    u64 occ = OCC(p), us = p->turn ? p->white : occ & ~p->white, them = occ & ~us;
    int n = 0;
    for (u64 b = us & ~p->bb[PAWN]; b; b &= ~BIT(MSB(b))) {
        int s = MSB(b);
        u64 fb = BIT(s), att;
        if (p->bb[KNIGHT] & fb) att = KNIGHT_ATT[s];
        else if (p->bb[KING] & fb) att = KING_ATT[s];
        else {
            att = 0;
            if ((p->bb[BISHOP] | p->bb[QUEEN]) & fb) att |= diag_att(s, occ);
            if ((p->bb[ROOK] | p->bb[QUEEN]) & fb) att |= orth_att(s, occ);
        }
        n = add_targets(out, n, s, att & ~us);
    }
    u64 pawns = p->bb[PAWN] & us;
    if (!pawns) return n;
    for (u64 b = pawns; b; b &= ~BIT(MSB(b))) {
        int s = MSB(b);
        for (u64 t = PAWN_ATT[p->turn][s] & them; t; t &= ~BIT(MSB(t))) n = add_promotions(out, n, s, MSB(t));
    }
    u64 singles, doubles;
    int back = p->turn ? -8 : 8;
    if (p->turn) {
        singles = pawns << 8 & ~occ;
        doubles = singles << 8 & ~occ & (RANK(2) | RANK(3));
    } else {
        singles = pawns >> 8 & ~occ;
        doubles = singles >> 8 & ~occ & (RANK(5) | RANK(4));
    }
    for (u64 t = singles; t; t &= ~BIT(MSB(t))) n = add_promotions(out, n, MSB(t) + back, MSB(t));
    for (u64 t = doubles; t; t &= ~BIT(MSB(t))) out[n++] = MOVE(MSB(t) + 2 * back, MSB(t), 0);
    if (p->ep > 0 && !(occ & BIT(p->ep))) {
        u64 capturers = pawns & PAWN_ATT[!p->turn][p->ep] & RANK(p->turn ? 4 : 3);
        for (; capturers; capturers &= ~BIT(MSB(capturers))) out[n++] = MOVE(MSB(capturers), p->ep, 0);
    }
    return n;
}

/* Play move m of p into c; return -1 if it leaves the mover's king attacked,
 * else 1 for a capture or pawn move, 0 for any other. */
static int play(const Pos *p, unsigned m, Pos *c) {
    int fr = m & 63, to = (m >> 6) & 63, promo = m >> 12, kind = KING;
    u64 fb = BIT(fr), tb = BIT(to), occ = OCC(p);
    for (int k = 0; k < 6; k++)
        if (p->bb[k] & fb) {
            kind = k;
            break;
        }
    int zeroing = kind == PAWN || (occ & tb) != 0;
    *c = *p;
    for (int k = 0; k < 6; k++) c->bb[k] &= ~(fb | tb);
    if (kind == PAWN && to == p->ep) { /* en passant: the captured pawn stands behind */
        u64 cap = p->turn ? tb >> 8 : tb << 8;
        c->bb[PAWN] &= ~cap;
        c->white &= ~cap;
    }
    c->bb[promo ? promo - 1 : kind] |= tb;
    c->white = p->turn ? (c->white & ~fb) | tb : c->white & ~tb;
    c->ep = -1;
    if (kind == PAWN && (to - fr == 16 || fr - to == 16)) {
        int mid = (fr + to) / 2;
        u64 their_pawns = c->bb[PAWN] & (p->turn ? ~c->white : c->white);
        if (PAWN_ATT[p->turn][mid] & their_pawns) c->ep = (int8_t)mid;
    }
    c->turn = !p->turn;
    u64 cocc = OCC(c), mine = p->turn ? c->white : cocc & ~c->white;
    if (attacked(c, LSB(c->bb[KING] & mine), c->turn, cocc)) return -1;
    return zeroing;
}

static int has_legal_move(const Pos *p) {
    uint16_t moves[MAX_MOVES];
    Pos c;
    int n = generate(p, moves);
    for (int i = 0; i < n; i++)
        if (play(p, moves[i], &c) >= 0) return 1;
    return 0;
}

/* The visited set: the positions, indexed by an open-addressing table
 * whose slots hold the hash's upper half and the index + 1 (0: empty), so
 * most probes of another position never touch the positions. */
typedef struct {
    Pos *pos;
    Py_ssize_t count, capacity;
    u64 *slots;
    u64 mask;
} Seen;

#define TAG 0xFFFFFFFF00000000ULL

static u64 hash_pos(const Pos *p) {
    u64 h = (u64)(uint8_t)p->ep << 1 | (u64)p->turn;
    for (int k = 0; k < 6; k++) {
        h = (h ^ p->bb[k]) * 0x9E3779B97F4A7C15ULL;
        h ^= h >> 31;
    }
    h = (h ^ p->white) * 0xC2B2AE3D27D4EB4FULL;
    return h ^ (h >> 29);
}

static int seen_grow(Seen *s) {
    Py_ssize_t cap = s->capacity ? s->capacity * 2 : 4096;
    Pos *pos = PyMem_RawRealloc(s->pos, cap * sizeof(Pos));
    if (pos) s->pos = pos;
    u64 *slots = PyMem_RawCalloc(cap * 2, sizeof(u64));
    if (!pos || !slots) {
        PyMem_RawFree(slots);
        return -1;
    }
    PyMem_RawFree(s->slots);
    s->slots = slots;
    s->mask = (u64)cap * 2 - 1;
    s->capacity = cap;
    for (Py_ssize_t i = 0; i < s->count; i++) {
        u64 full = hash_pos(&s->pos[i]), h = full & s->mask;
        while (s->slots[h]) h = (h + 1) & s->mask;
        s->slots[h] = (full & TAG) | (u64)(i + 1);
    }
    return 0;
}

/* Add c unless known; return its index, -1 if known, -2 if out of memory. */
static Py_ssize_t seen_add(Seen *s, const Pos *c) {
    if (s->count == s->capacity && seen_grow(s) < 0) return -2;
    u64 full = hash_pos(c), h = full & s->mask;
    for (u64 slot; (slot = s->slots[h]); h = (h + 1) & s->mask)
        if ((slot & TAG) == (full & TAG) && memcmp(&s->pos[(slot & ~TAG) - 1], c, sizeof(Pos)) == 0) return -1;
    Py_ssize_t i = s->count++;
    s->slots[h] = (full & TAG) | (u64)(i + 1);
    s->pos[i] = *c;
    return i;
}

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* ------------------------------------------------------------------ */
/* The walk's order: ``ordering.staged_moves``, which yields the pseudo-legal
 * moves as a stable sort of python-chess's order by the scores of
 * ``ordering._winner_scored`` and ``_loser_scored`` (its stages and
 * ``first_move``'s shortcuts only find that order's first moves sooner).
 * The tests compare the two orders move for move. */

static int DIST[64][64], KDIST[64][64];
static const u64 DARK = 0xAA55AA55AA55AA55ULL, LIGHT = ~0xAA55AA55AA55AA55ULL;
static const int VALUE[6] = {1, 3, 3, 5, 9, 0};
#define FILE_OF(s) ((s) & 7)
#define RANK_OF(s) ((s) >> 3)

static void init_distances(void) {
    for (int a = 0; a < 64; a++) {
        for (int b = 0; b < 64; b++) {
            int df = abs(FILE_OF(a) - FILE_OF(b)), dr = abs(RANK_OF(a) - RANK_OF(b));
            DIST[a][b] = df > dr ? df : dr;
            KDIST[a][b] = -1;
        }
        int queue[64], head = 0, tail = 0;
        KDIST[a][a] = 0;
        queue[tail++] = a;
        while (head < tail) {
            int s = queue[head++];
            for (u64 t = KNIGHT_ATT[s]; t; t &= t - 1)
                if (KDIST[a][LSB(t)] < 0) {
                    KDIST[a][LSB(t)] = KDIST[a][s] + 1;
                    queue[tail++] = LSB(t);
                }
        }
    }
}

static int kind_at(const Pos *p, int s) {
    for (int k = 0; k < 6; k++)
        if (p->bb[k] & BIT(s)) return k;
    return -1;
}

static u64 side(const Pos *p, int color) { return color ? p->white : OCC(p) & ~p->white; }

/* ``ordering.mating_corner`` (not ``anywhere``). */
static int mating_corner(const Pos *p, int winner) {
    int dark = winner ? 63 : 0, light = winner ? 56 : 7; /* h8 a8 ; a1 h1 */
    u64 mine = side(p, winner), theirs = side(p, !winner);
    if (!(mine & (p->bb[ROOK] | p->bb[QUEEN]))) {
        u64 others = mine & ~p->bb[KING] & ~p->bb[BISHOP], wb = 0;
        if (!others) {
            wb = p->bb[BISHOP] & mine;
            if ((wb & DARK) && !(wb & LIGHT)) return dark;
            if ((wb & LIGHT) && !(wb & DARK)) return light;
        }
        if (!wb && !(others & ~p->bb[PAWN] & ~p->bb[KNIGHT])) {
            u64 lb = p->bb[BISHOP] & theirs;
            if (lb) return (lb & LIGHT) ? dark : light;
        }
        u64 pawns = mine & p->bb[PAWN];
        if (pawns && __builtin_popcountll(mine & (p->bb[KNIGHT] | p->bb[BISHOP])) <= 1 && !(theirs & ~p->bb[KING])) {
            int lead = FILE_OF(winner ? MSB(pawns) : LSB(pawns));
            return abs(FILE_OF(light) - lead) > abs(FILE_OF(dark) - lead) ? light : dark;
        }
    }
    int king = MSB(p->bb[KING] & theirs);
    return DIST[king][dark] <= DIST[king][light] ? dark : light;
}

/* ``ordering.needs_loser_promotion``. */
static int needs_loser_promotion(const Pos *p, int winner) {
    u64 ours = side(p, winner) & ~p->bb[KING], theirs = side(p, !winner) & ~p->bb[KING];
    if (ours & p->bb[PAWN]) return 0;
    if (ours == (ours & p->bb[KNIGHT]) && __builtin_popcountll(ours) == 1)
        return !(theirs & (p->bb[KNIGHT] | p->bb[BISHOP] | p->bb[ROOK]));
    if (ours == (ours & p->bb[BISHOP])) {
        u64 other = (ours & DARK) ? LIGHT : DARK;
        return !(p->bb[BISHOP] & other) && !(theirs & p->bb[KNIGHT]);
    }
    return 0;
}

/* ``ordering._winner_scored`` (the winner to move) and ``_loser_scored``. */
static void score_moves(const Pos *p, int winner, const uint16_t *moves, int n, int8_t *scores) {
    int corner = mating_corner(p, winner);
    u64 them = side(p, !p->turn);
    if (p->turn == winner) {
        int lk = MSB(p->bb[KING] & them);
        int kt = FILE_OF(corner) + 8 * (RANK_OF(corner) == 7 ? 5 : 2);
        u64 enemy_pawns = p->bb[PAWN] & them;
        u64 stuck = p->turn ? enemy_pawns >> 8 : enemy_pawns << 8;
        for (int i = 0; i < n; i++) {
            int fr = moves[i] & 63, to = (moves[i] >> 6) & 63, promo = moves[i] >> 12, kind = kind_at(p, fr), s;
            if (promo) s = promo == QUEEN + 1 ? 100 : 10 + promo;
            else if (them & BIT(to)) s = 60 + VALUE[kind_at(p, to)];
            else if (kind == PAWN) {
                int rel = p->turn ? RANK_OF(to) : 7 - RANK_OF(to);
                s = ((stuck & BIT(to)) && abs(to - fr) == 16 ? 20 : 30) + rel;
            } else if (kind == KING) s = DIST[to][kt] < DIST[fr][kt] ? 25 : 0;
            else if (kind == KNIGHT) s = KDIST[to][corner] < KDIST[fr][corner] ? 28 : 5;
            else s = 15 + 3 * (DIST[fr][lk] - DIST[to][lk]);
            scores[i] = (int8_t)s;
        }
        return;
    }
    int promotes = needs_loser_promotion(p, winner);
    int lk = MSB(p->bb[KING] & side(p, p->turn));
    int bt = FILE_OF(corner) == 7 ? corner - 1 : corner + 1;
    for (int i = 0; i < n; i++) {
        int fr = moves[i] & 63, to = (moves[i] >> 6) & 63, promo = moves[i] >> 12, kind = kind_at(p, fr), s;
        if (promotes && kind == PAWN && promo != QUEEN + 1 && promo != ROOK + 1)
            s = (promo == KNIGHT + 1 || promo == BISHOP + 1) ? 40 : 20;
        else if ((them & BIT(to)) || (kind == PAWN && to == p->ep)) s = -50;
        else if (kind == KING) s = DIST[to][corner] < DIST[fr][corner] ? 50 : 0;
        else if (promotes) s = -10;
        else if (kind == KNIGHT && KDIST[to][bt] < KDIST[fr][bt]) s = 30;
        else if (DIST[to][corner] == 1 && DIST[fr][corner] > 1) s = 35;
        else s = DIST[to][lk] == 1 ? 20 : 10;
        scores[i] = (int8_t)s;
    }
}

#define TAKEN INT8_MIN

/* The index of the next move in the order (the first of the highest score
 * not yet taken), or -1. */
static int next_move(int8_t *scores, int n) {
    int best = -1;
    for (int i = 0; i < n; i++)
        if (scores[i] != TAKEN && (best < 0 || scores[i] > scores[best])) best = i;
    if (best >= 0) scores[best] = TAKEN;
    return best;
}

/* ------------------------------------------------------------------ */
/* The walk, depth first along the order. */

typedef struct {
    int32_t pos;    /* index in the visited set */
    int32_t first;  /* its moves: [first, first + count) of the move stack */
    int32_t count;
    uint16_t move;  /* the move that led here */
} Frame;

typedef struct {
    Frame *frames;
    Py_ssize_t depth, frames_cap;
    uint16_t *moves;
    int8_t *scores;
    Py_ssize_t top, moves_cap;
} Path;

static void path_free(Path *w) {
    PyMem_RawFree(w->frames);
    PyMem_RawFree(w->moves);
    PyMem_RawFree(w->scores);
}

/* Enter position ``index`` (reached by ``move``): its moves on the stack. */
static int path_push(Path *w, const Seen *s, Py_ssize_t index, uint16_t move, int winner) {
    if (w->depth == w->frames_cap) {
        Py_ssize_t cap = w->frames_cap ? w->frames_cap * 2 : 1024;
        Frame *f = PyMem_RawRealloc(w->frames, cap * sizeof(Frame));
        if (!f) return -1;
        w->frames = f;
        w->frames_cap = cap;
    }
    if (w->top + MAX_MOVES > w->moves_cap) {
        Py_ssize_t cap = w->moves_cap ? w->moves_cap * 2 : 65536;
        uint16_t *m = PyMem_RawRealloc(w->moves, cap * sizeof(uint16_t));
        if (m) w->moves = m;
        int8_t *sc = PyMem_RawRealloc(w->scores, cap);
        if (sc) w->scores = sc;
        if (!m || !sc) return -1;
        w->moves_cap = cap;
    }
    const Pos *p = &s->pos[index];
    int n = generate(p, w->moves + w->top);
    score_moves(p, winner, w->moves + w->top, n, w->scores + w->top);
    w->frames[w->depth++] = (Frame){(int32_t)index, (int32_t)w->top, n, move};
    w->top += n;
    return 0;
}

static PyObject *line_of(const Path *w, uint16_t last) {
    PyObject *line = PyList_New(w->depth);
    if (!line) return NULL;
    for (Py_ssize_t i = 0; i < w->depth; i++) {
        unsigned m = i + 1 < w->depth ? w->frames[i + 1].move : last;
        PyObject *t = Py_BuildValue("(iii)", m & 63, (m >> 6) & 63, m >> 12);
        if (!t) {
            Py_DECREF(line);
            return NULL;
        }
        PyList_SET_ITEM(line, i, t);
    }
    return line;
}

static Py_ssize_t seen_find(const Seen *s, const Pos *c) {
    u64 full = hash_pos(c), h = full & s->mask;
    for (u64 slot; (slot = s->slots[h]); h = (h + 1) & s->mask)
        if ((slot & TAG) == (full & TAG) && memcmp(&s->pos[(slot & ~TAG) - 1], c, sizeof(Pos)) == 0)
            return (Py_ssize_t)(slot & ~TAG) - 1;
    return -1;
}

/* The line to the mate (position ``mate``, reached by ``last``), cut short:
 * a depth-first line wanders (tens of thousands of plies where a few
 * hundred do), and the caller replays every move in python-chess.  From
 * each position of the line, the move to the furthest position of the line
 * it reaches directly; every move is legal and the end is the same mate. */
static PyObject *direct_line(const Seen *s, const Path *w, Py_ssize_t mate, uint16_t last) {
    int32_t *at = PyMem_RawMalloc(s->count * sizeof(int32_t));
    PyObject *line = PyList_New(0);
    if (!at || !line) {
        PyMem_RawFree(at);
        Py_XDECREF(line);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t i = 0; i < s->count; i++) at[i] = -1;
    for (Py_ssize_t i = 0; i < w->depth; i++) at[w->frames[i].pos] = (int32_t)i;
    at[mate] = (int32_t)w->depth;
    uint16_t moves[MAX_MOVES];
    Pos c;
    for (Py_ssize_t cur = 0; cur < w->depth;) {
        const Pos *p = &s->pos[w->frames[cur].pos];
        Py_ssize_t best = cur + 1;
        unsigned chosen = cur + 1 < w->depth ? w->frames[cur + 1].move : last;
        int n = generate(p, moves);
        for (int i = 0; i < n; i++) {
            if (play(p, moves[i], &c) < 0) continue;
            Py_ssize_t k = seen_find(s, &c);
            if (k >= 0 && at[k] > best) {
                best = at[k];
                chosen = moves[i];
            }
        }
        PyObject *t = Py_BuildValue("(iii)", chosen & 63, (chosen >> 6) & 63, chosen >> 12);
        if (!t || PyList_Append(line, t) < 0) {
            Py_XDECREF(t);
            Py_DECREF(line);
            PyMem_RawFree(at);
            return NULL;
        }
        Py_DECREF(t);
        cur = best;
    }
    PyMem_RawFree(at);
    return line;
}

/* Largest visited set: 4M positions (256 MB); beyond it the walk gives up. */
#define MAX_POSITIONS (1 << 22)

static int parse_position(PyObject *args, Pos *p, int *winner, long long *limit, double *seconds, PyObject **dead_end,
                          int *direct) {
    int turn, ep;
    memset(p, 0, sizeof *p);
    if (!PyArg_ParseTuple(args, "KKKKKKKiiiLdOp:walk", &p->bb[PAWN], &p->bb[KNIGHT], &p->bb[BISHOP], &p->bb[ROOK],
                          &p->bb[QUEEN], &p->bb[KING], &p->white, &turn, &ep, winner, limit, seconds, dead_end, direct))
        return -1;
    u64 occ = OCC(p);
    if (__builtin_popcountll(p->bb[KING] & p->white) != 1 || __builtin_popcountll(p->bb[KING] & ~p->white) != 1 ||
        __builtin_popcountll(p->white) > 16 || __builtin_popcountll(occ & ~p->white) > 16 || (p->white & ~occ) ||
        ep < -1 || ep > 63) {
        PyErr_SetString(PyExc_ValueError,
                         "walk: needs one king and at most 16 men a side, and a square or -1 for en passant");
        return -1;
    }
    p->turn = turn ? 1 : 0;
    p->ep = (int8_t)ep;
    *winner = *winner ? 1 : 0;
    return 0;
}

static PyObject *walk(PyObject *self, PyObject *args) {
    Pos root, c;
    int winner, direct;
    long long limit, nodes = 0;
    double seconds;
    PyObject *dead_end, *result = NULL;
    if (parse_position(args, &root, &winner, &limit, &seconds, &dead_end, &direct) < 0) return NULL;
    Seen s = {0};
    Path w = {0};
    double deadline = now() + seconds;
    if (seen_add(&s, &root) < 0 || path_push(&w, &s, 0, 0, winner) < 0) goto nomemory;
    while (w.depth) {
        Frame *f = &w.frames[w.depth - 1];
        int k = next_move(w.scores + f->first, f->count);
        if (k < 0) {
            w.top = f->first;
            w.depth--;
            continue;
        }
        uint16_t m = w.moves[f->first + k];
        int zeroing = play(&s.pos[f->pos], m, &c);
        if (zeroing < 0) continue;
        if (++nodes >= limit || ((nodes & 1023) == 0 && now() >= deadline)) goto open;
        Py_ssize_t j = seen_add(&s, &c);
        if (j == -1) continue;
        if (j == -2) goto nomemory;
        if (s.count >= MAX_POSITIONS) goto open;
        if (c.turn != winner && in_check(&c) && !has_legal_move(&c)) {
            PyObject *line = direct ? direct_line(&s, &w, j, m) : line_of(&w, m);
            if (line) result = Py_BuildValue("(ONL)", Py_True, line, nodes);
            goto done;
        }
        if (zeroing) {
            PyObject *r = PyObject_CallFunction(dead_end, "KKKKKKKii", c.bb[PAWN], c.bb[KNIGHT], c.bb[BISHOP],
                                                c.bb[ROOK], c.bb[QUEEN], c.bb[KING], c.white, (int)c.turn, (int)c.ep);
            if (!r) goto done;
            int dead = PyObject_IsTrue(r);
            Py_DECREF(r);
            if (dead < 0) goto done;
            if (dead) continue;
        }
        if (path_push(&w, &s, j, m, winner) < 0) goto nomemory;
    }
    result = Py_BuildValue("(O[]L)", Py_False, nodes);
    goto done;
open:
    result = Py_BuildValue("(O[]L)", Py_None, nodes);
    goto done;
nomemory:
    PyErr_NoMemory();
done:
    PyMem_RawFree(s.pos);
    PyMem_RawFree(s.slots);
    path_free(&w);
    return result;
}

/* For the tests: the walk's legal moves of a position for ``winner``, in its order. */
static PyObject *ordered_moves(PyObject *self, PyObject *args) {
    Pos p, c;
    int turn, ep, winner;
    memset(&p, 0, sizeof p);
    if (!PyArg_ParseTuple(args, "KKKKKKKiii:ordered_moves", &p.bb[PAWN], &p.bb[KNIGHT], &p.bb[BISHOP], &p.bb[ROOK],
                          &p.bb[QUEEN], &p.bb[KING], &p.white, &turn, &ep, &winner))
        return NULL;
    p.turn = turn ? 1 : 0;
    p.ep = (int8_t)ep;
    uint16_t moves[MAX_MOVES];
    int8_t scores[MAX_MOVES];
    int n = generate(&p, moves);
    score_moves(&p, winner ? 1 : 0, moves, n, scores);
    PyObject *out = PyList_New(0);
    for (int k; out && (k = next_move(scores, n)) >= 0;) {
        if (play(&p, moves[k], &c) < 0) continue;
        PyObject *t = Py_BuildValue("(iii)", moves[k] & 63, (moves[k] >> 6) & 63, moves[k] >> 12);
        if (!t || PyList_Append(out, t) < 0) Py_CLEAR(out);
        Py_XDECREF(t);
    }
    return out;
}

/* For the tests: the legal moves of a position, as (from, to, promotion). */
static PyObject *legal_moves(PyObject *self, PyObject *args) {
    Pos p;
    int turn, ep;
    memset(&p, 0, sizeof p);
    if (!PyArg_ParseTuple(args, "KKKKKKKii:legal_moves", &p.bb[PAWN], &p.bb[KNIGHT], &p.bb[BISHOP], &p.bb[ROOK],
                          &p.bb[QUEEN], &p.bb[KING], &p.white, &turn, &ep))
        return NULL;
    p.turn = turn ? 1 : 0;
    p.ep = (int8_t)ep;
    uint16_t moves[MAX_MOVES];
    Pos c;
    int n = generate(&p, moves);
    PyObject *out = PyList_New(0);
    for (int i = 0; out && i < n; i++) {
        if (play(&p, moves[i], &c) < 0) continue;
        PyObject *t = Py_BuildValue("(iii)", moves[i] & 63, (moves[i] >> 6) & 63, moves[i] >> 12);
        if (!t || PyList_Append(out, t) < 0) Py_CLEAR(out);
        Py_XDECREF(t);
    }
    return out;
}

static PyMethodDef METHODS[] = {
    {"walk", walk, METH_VARARGS,
     "walk(pawns, knights, bishops, rooks, queens, kings, white, turn, ep, winner, nodes, seconds, dead_end, direct)"
     " -> (True, line, nodes) | (False, [], nodes) | (None, [], nodes); direct: the line cut short"},
    {"ordered_moves", ordered_moves, METH_VARARGS,
     "ordered_moves(pawns, knights, bishops, rooks, queens, kings, white, turn, ep, winner) -> [(from, to, promotion)]"},
    {"legal_moves", legal_moves, METH_VARARGS,
     "legal_moves(pawns, knights, bishops, rooks, queens, kings, white, turn, ep) -> [(from, to, promotion)]"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef MODULE = {PyModuleDef_HEAD_INIT, "_walk", "The reachable-position walk in C.", -1, METHODS};

PyMODINIT_FUNC PyInit__walk(void) {
    init_tables();
    init_distances();
    return PyModule_Create(&MODULE);
}
