/* engine.c: a starter engine for ISAAC, FOUNDATIONS and HARI in C, written from SPEC.md alone.
 *
 * Build:  make            (or: cc -O2 -Wall -Wextra -std=c11 -o starter engine.c rules.c notation.c)
 * Try:    printf 'uci\nposition startpos\ngo movetime 100\nquit\n' | ./starter
 * Check:  isaac-referee check ./starter
 *
 * One loop reads stdin a line at a time and answers on stdout (SPEC 9). Every line written is
 * flushed at once: on a pipe stdout is fully buffered, and an unflushed `bestmove` is a move the
 * referee never sees (it loses on time). Diagnostics would go to stderr.
 *
 * It tracks every position exactly (the opponent's HARI slides included) and answers `go` at once
 * with a random legal move (HARI: a placement when one fits; it never slides). Your own search
 * goes in choose_move(); the clocks it gets are in struct Limits.
 */
#include "isaac.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LINE 65536      /* longer lines are read to their end and dropped (SPEC 9.1) */
#define ENGINE_NAME "isaac-arena C starter 1.0"
#define SEED_MAX 2147483647LL

static Position pos;                /* the position set by the last accepted `position` */
static enum Game variant = ISAAC;   /* option UCI_Variant */
static long long seed = 0;          /* option Seed */
static unsigned long long rng;      /* xorshift state, reseeded from Seed */
static int waiting;                 /* after `go infinite`: the move is chosen, `stop` prints it */
static char waiting_move[512];
static Word words[MAX_LINE / 2 + 1];

/* ---- output: whole lines, flushed --------------------------------------------------------- */

static void say(const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    vprintf(fmt, args);
    va_end(args);
    putchar('\n');
    fflush(stdout);
}

/* Every line the engine cannot obey gets exactly one of these, and changes nothing (SPEC 9.6). */
static void error_line(const char *fmt, ...)
{
    char text[1024];
    va_list args;
    va_start(args, fmt);
    vsnprintf(text, sizeof text, fmt, args);
    va_end(args);
    say("info string error: %s", text);
}

/* A word as 'text' for a message: at most 60 characters, bytes other than printable ASCII as \xNN
 * (binary junk must not break our own output line). Two buffers: two quotes per message. */
static const char *quoted(const char *s, int len)
{
    static char buffers[2][300];
    static int turn;
    char *out = buffers[turn ^= 1];
    int n = 0;
    out[n++] = '\'';
    for (int i = 0; i < len && i < 60; i++) {
        unsigned char c = (unsigned char)s[i];
        n += c >= 0x20 && c < 0x7f ? sprintf(out + n, "%c", c) : sprintf(out + n, "\\x%02x", c);
    }
    sprintf(out + n, "'%s", len > 60 ? "..." : "");
    return out;
}

/* ---- input: lines and words ---------------------------------------------------------------- */

/* One line without its LF (and without a CR before it). Returns its length, -1 at the end of
 * input, -2 for a line over MAX_LINE bytes, which is read to its end and dropped. */
static long read_line(char *buf)
{
    long n = 0;
    int c, too_long = 0;
    while ((c = getchar()) != EOF && c != '\n') {
        if (n < MAX_LINE + 1)
            buf[n++] = (char)c;                  /* one byte over: room for a CR before the LF */
        else
            too_long = 1;
    }
    if (c == EOF && n == 0)
        return -1;
    if (n > 0 && buf[n - 1] == '\r')
        n--;
    return too_long || n > MAX_LINE ? -2 : n;
}

/* Words are separated by blanks, a blank being a space or a tab and nothing else (SPEC 9.1).
 * Columns count characters: UTF-8 continuation bytes do not start a new column. */
static int split(const char *line, int len, Word *w)
{
    int n = 0, col = 1;
    for (int i = 0; i < len;) {
        if (line[i] == ' ' || line[i] == '\t') {
            i++, col++;
            continue;
        }
        w[n].s = line + i;
        w[n].col = col;
        int start = i;
        for (; i < len && line[i] != ' ' && line[i] != '\t'; i++)
            if (((unsigned char)line[i] & 0xC0) != 0x80)
                col++;
        w[n++].len = i - start;
    }
    return n;
}

static int is(const Word *w, const char *text)
{
    return w->len == (int)strlen(text) && memcmp(w->s, text, (size_t)w->len) == 0;
}

/* Option names and combo values compare without case (SPEC 9.2). */
static int same_nocase(const char *s, int len, const char *text)
{
    if (len != (int)strlen(text))
        return 0;
    for (int i = 0; i < len; i++) {
        char a = s[i] >= 'A' && s[i] <= 'Z' ? (char)(s[i] - 'A' + 'a') : s[i];
        char b = text[i] >= 'A' && text[i] <= 'Z' ? (char)(text[i] - 'A' + 'a') : text[i];
        if (a != b)
            return 0;
    }
    return 1;
}

/* The column of byte `offset` inside a word. */
static int column_in(const Word *w, int offset)
{
    int col = w->col;
    for (int i = 1; i <= offset && i <= w->len; i++)
        if (i == w->len || ((unsigned char)w->s[i] & 0xC0) != 0x80)
            col++;
    return col;
}

/* A whole number in [lo, hi]: ASCII digits with an optional minus, never clamped (SPEC 9.4). */
static int whole_number(const Word *w, long long lo, long long hi, const char *what, long long *out)
{
    int i = w->len > 0 && w->s[0] == '-', digits = w->len - i;
    unsigned long long v = 0;
    for (int k = i; k < w->len; k++) {
        if (w->s[k] < '0' || w->s[k] > '9') {
            error_line("%s needs a whole number, not %s (column %d)", what, quoted(w->s, w->len), w->col);
            return 0;
        }
        if (v < 1000000000000000000ULL)
            v = v * 10 + (unsigned long long)(w->s[k] - '0');
    }
    if (digits == 0) {
        error_line("%s needs a whole number, not %s (column %d)", what, quoted(w->s, w->len), w->col);
        return 0;
    }
    char shown[64];
    if (digits > 18)
        snprintf(shown, sizeof shown, "a %d-digit number", digits);
    else
        snprintf(shown, sizeof shown, "%s%llu", i ? "-" : "", v);
    if (digits > 18 || (!i && (long long)v > hi)) {
        error_line("%s must be at most %lld, not %s (column %d)", what, hi, shown, w->col);
        return 0;
    }
    long long value = i ? -(long long)v : (long long)v;
    if (value < lo) {
        error_line("%s must be at least %lld, not %s (column %d)", what, lo, shown, w->col);
        return 0;
    }
    *out = value;
    return 1;
}

/* ---- choosing a move ------------------------------------------------------------------------- */

static void reseed(void)
{
    rng = 0x9E3779B97F4A7C15ULL ^ ((unsigned long long)seed * 0xBF58476D1CE4E5B9ULL);
}

static unsigned long long next_random(void)   /* xorshift64* */
{
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return rng * 2685821657736338717ULL;
}

/* The limits of a `go` (SPEC 9.4): -1 where not given. */
typedef struct {
    long long time[2], inc[2];   /* per colour: DARK is p1 (wtime), LIGHT p2 (btime) */
    long long movestogo, movetime, depth, nodes;
    int infinite;
} Limits;

/* The move to play. This starter needs no time: a uniformly random legal move, except that in HARI
 * it places a piece when one fits (a discard throws the piece's value away). A real engine searches
 * here, within a budget taken from `limits` (for example time[side] / 20 + inc[side] / 2, minus a
 * reserve for the pipe), and returns before it runs out. */
static Move choose_move(const Position *p, const Move *moves, int n, const Limits *limits)
{
    (void)limits;
    int places = 0;
    for (int i = 0; i < n; i++)
        places += moves[i].kind == MOVE_PLACE;
    if (p->game == HARI && places > 0) {
        int k = (int)(next_random() % (unsigned long long)places);
        for (int i = 0; i < n; i++)
            if (moves[i].kind == MOVE_PLACE && k-- == 0)
                return moves[i];
    }
    return moves[next_random() % (unsigned long long)n];
}

/* ---- commands ---------------------------------------------------------------------------------- */

static void cmd_uci(void)
{
    say("id name %s", ENGINE_NAME);
    say("id author isaac-arena participants' kit");
    say("option name UCI_Variant type combo default isaac var isaac var foundations var hari");
    say("option name Seed type spin default 0 min 0 max %lld", SEED_MAX);
    say("uciok");
}

/* setoption name <name> [value <value>]: names and combo values are case-insensitive. */
static void cmd_setoption(const Word *w, int n)
{
    int v = 2;
    if (n < 3 || !is(&w[1], "name")) {
        error_line("setoption: expected 'setoption name <name> value <value>' (column %d)", n > 1 ? w[1].col : 1);
        return;
    }
    while (v < n && !is(&w[v], "value"))
        v++;
    if (v == 2) {
        error_line("setoption: expected the option's name at column %d", w[2].col);
        return;
    }
    const char *name = w[2].s;
    int name_len = (int)(w[v - 1].s + w[v - 1].len - w[2].s);   /* the words between, blanks kept */
    if (v + 1 >= n) {
        error_line("option %s needs a value (setoption name %.*s value <value>)", quoted(name, name_len), name_len,
                   name);
        return;
    }
    const Word *value = &w[v + 1];
    if (n > v + 2) {
        error_line("option %s takes one word as its value (column %d)", quoted(name, name_len), w[v + 2].col);
    } else if (same_nocase(name, name_len, "UCI_Variant")) {
        for (int g = 0; g < 3; g++)
            if (same_nocase(value->s, value->len, GAME_NAMES[g])) {
                variant = (enum Game)g;
                start_position(&pos, variant);   /* setting the game resets the position */
                return;
            }
        error_line("option UCI_Variant has no value %s (column %d); values: isaac, foundations, hari",
                   quoted(value->s, value->len), value->col);
    } else if (same_nocase(name, name_len, "Seed")) {
        if (whole_number(value, 0, SEED_MAX, "option Seed", &seed))
            reseed();
    } else {
        error_line("unknown option %s (column %d); options: UCI_Variant, Seed", quoted(name, name_len), w[2].col);
    }
}

/* position startpos|fen <position string> [moves <m1> ...]: checked as a whole before anything
 * changes, so a rejected command leaves the previous position in place (SPEC 9.2). */
static void cmd_position(const Word *w, int n)
{
    Position p, next;
    char why[WHY_LEN];
    int k;
    if (n >= 2 && is(&w[1], "startpos")) {
        start_position(&p, variant);
        k = 2;
    } else if (n >= 2 && is(&w[1], "fen")) {
        int col;
        for (k = 2; k < n && !is(&w[k], "moves"); k++)
            ;
        if (k == 2) {
            error_line("position: expected a position string after 'fen' (column %d)", w[1].col + 4);
            return;
        }
        if (!parse_position(&w[2], k - 2, &p, why, &col)) {
            error_line("position: bad position string at column %d: %s", col, why);
            return;
        }
        if (p.game != variant) {
            error_line("position: the position string at column %d is a %s position, but UCI_Variant is %s "
                       "(send setoption name UCI_Variant value %s first)", w[2].col, GAME_NAMES[p.game],
                       GAME_NAMES[variant], GAME_NAMES[p.game]);
            return;
        }
    } else {
        error_line("position: expected 'startpos' or 'fen' at column %d", n >= 2 ? w[1].col : 9);
        return;
    }
    if (k < n && !is(&w[k], "moves")) {
        error_line("position: expected 'moves' at column %d, not %s", w[k].col, quoted(w[k].s, w[k].len));
        return;
    }
    for (int i = k + 1; i < n; i++) {
        Move m;
        int at;
        if (!parse_move(p.game, w[i].s, w[i].len, &m, why, &at)) {
            error_line("position: move %d %s at column %d: bad notation: %s", i - k, quoted(w[i].s, w[i].len),
                       column_in(&w[i], at), why);
            return;
        }
        if (!make_move(&p, &m, &next, why)) {
            error_line("position: move %d %s at column %d: illegal: %s", i - k, quoted(w[i].s, w[i].len), w[i].col,
                       why);
            return;
        }
        p = next;
    }
    pos = p;
}

static unsigned long long perft(const Position *p, int depth)
{
    if (depth == 0)
        return 1;
    Move *moves = malloc(MAX_MOVES * sizeof *moves);
    if (moves == NULL)
        return 0;
    int n = legal_moves(p, moves);
    unsigned long long total = depth == 1 ? (unsigned long long)n : 0;
    for (int i = 0; i < n && depth > 1; i++) {
        Position next;
        char why[WHY_LEN];
        if (make_move(p, &moves[i], &next, why))
            total += perft(&next, depth - 1);
    }
    free(moves);
    return total;
}

/* go perft <n>: Stockfish's divide, for ISAAC and FOUNDATIONS (SPEC 8 has the counts to compare
 * with). This starter does not list HARI slides, so it cannot count HARI moves. */
static void cmd_perft(int depth)
{
    if (pos.game == HARI) {
        error_line("go perft: this engine does not list HARI moves with slides, so it cannot count them");
        return;
    }
    Move *moves = malloc(MAX_MOVES * sizeof *moves);
    unsigned long long total = depth == 0;
    int n = depth > 0 && moves ? legal_moves(&pos, moves) : 0;
    for (int i = 0; i < n; i++) {
        Position next;
        char why[WHY_LEN], text[64];
        make_move(&pos, &moves[i], &next, why);
        unsigned long long count = perft(&next, depth - 1);
        format_move(&moves[i], text, sizeof text);
        say("%s: %llu", text, count);
        total += count;
    }
    free(moves);
    say("");
    say("Nodes searched: %llu", total);
}

/* go [limits]: each word at most once, numbers in range (SPEC 9.4). */
static void cmd_go(const Word *w, int n)
{
    static const struct { const char *word; int slot; long long lo, hi; } WORDS[] = {
        {"p1time", 0, 0, 2147483647LL}, {"wtime", 0, 0, 2147483647LL}, {"p2time", 1, 0, 2147483647LL},
        {"btime", 1, 0, 2147483647LL},  {"p1inc", 2, 0, 2147483647LL}, {"winc", 2, 0, 2147483647LL},
        {"p2inc", 3, 0, 2147483647LL},  {"binc", 3, 0, 2147483647LL},  {"movestogo", 4, 1, 10000},
        {"movetime", 5, 0, 2147483647LL}, {"depth", 6, 1, 1000},       {"nodes", 7, 1, 9223372036854775807LL},
        {"perft", 8, 0, 1000},
    };
    long long value[9];
    int seen[10] = {0};                          /* slot 9: infinite */
    for (int s = 0; s < 9; s++)
        value[s] = -1;
    if (waiting) {
        error_line("go: a search is running; send stop first");
        return;
    }
    for (int i = 1; i < n; i++) {
        int found = -1;
        for (int k = 0; k < (int)(sizeof WORDS / sizeof WORDS[0]); k++)
            if (is(&w[i], WORDS[k].word))
                found = k;
        int slot = is(&w[i], "infinite") ? 9 : found >= 0 ? WORDS[found].slot : -1;
        if (slot < 0) {
            error_line("go: unknown word %s at column %d", quoted(w[i].s, w[i].len), w[i].col);
            return;
        }
        if (seen[slot]++) {
            error_line("go: %s given twice (column %d)", quoted(w[i].s, w[i].len), w[i].col);
            return;
        }
        if (slot == 9)
            continue;
        if (i + 1 >= n) {
            error_line("go: %s needs a value (column %d)", WORDS[found].word, w[i].col);
            return;
        }
        if (!whole_number(&w[++i], WORDS[found].lo, WORDS[found].hi, WORDS[found].word, &value[slot]))
            return;
    }
    if (seen[8]) {
        if (n != 3)
            error_line("go perft <n> takes no other word");
        else
            cmd_perft((int)value[8]);
        return;
    }
    Limits limits = {{value[0], value[1]}, {value[2], value[3]}, value[4], value[5], value[6], value[7], seen[9]};
    char text[512];
    if (is_over(&pos)) {                         /* answered at once, also after go infinite */
        describe_result(&pos, text, sizeof text);
        say("info string game over: %s", text);
        say("bestmove (none)");
        return;
    }
    Move *moves = malloc(MAX_MOVES * sizeof *moves);
    if (moves == NULL) {
        say("bestmove pass");                    /* cannot happen with 200 KB free; never stay silent */
        return;
    }
    int count = legal_moves(&pos, moves);
    Move best = choose_move(&pos, moves, count, &limits);
    free(moves);
    format_move(&best, text, sizeof text);
    if (limits.infinite && best.kind != MOVE_PASS) {   /* a forced pass is answered at once */
        waiting = 1;
        snprintf(waiting_move, sizeof waiting_move, "%s", text);
        return;
    }
    say("bestmove %s", text);
}

static void cmd_moves(void)
{
    static char line[MAX_MOVES * 12 + 8];
    if (pos.game == HARI) {
        error_line("moves: this engine does not list HARI moves with slides");
        return;
    }
    Move *moves = malloc(MAX_MOVES * sizeof *moves);
    int n = moves ? legal_moves(&pos, moves) : 0, used = snprintf(line, sizeof line, "moves");
    for (int i = 0; i < n; i++) {
        char text[64];
        format_move(&moves[i], text, sizeof text);
        used += snprintf(line + used, sizeof line - (size_t)used, " %s", text);
    }
    free(moves);
    say("%s", line);
}

/* d: the board for people (each cell's top piece; FOUNDATIONS with its level, ISAAC counters as
 * 1 and 2), the hands, and the position string. */
static void cmd_display(void)
{
    Grid g;
    char row[64], text[512];
    build_grid(&pos, &g);
    say("    a  b  c  d  e  f  g  h  i  j");
    for (int rank = 9; rank >= 0; rank--) {
        int n = snprintf(row, sizeof row, " %d  ", rank);
        for (int file = 0; file < 10; file++) {
            int cell = rank * 10 + file, top = -1, level = 0;
            for (int k = MAX_LEVEL; k >= 1 && top < 0; k--)
                if (g.at[k][cell] >= 0)
                    top = g.at[k][cell], level = k;
            char a = top < 0 ? '.' : pos.piece[top].owner == DARK ? 'D' : 'L', b = ' ';
            if (pos.game == FOUNDATIONS && top >= 0)
                b = (char)('0' + level);
            if (pos.game == ISAAC && pos.phase == SCORE_PHASE)
                b = cell == counter_cell(DARK, pos.score[DARK]) ? '1' : cell == counter_cell(LIGHT, pos.score[LIGHT]) ? '2' : b;
            n += snprintf(row + n, sizeof row - (size_t)n, "%c%c ", a, b);
        }
        say("%s %d", row, rank);
    }
    format_position(&pos, text, sizeof text);
    if (is_over(&pos)) {
        char result[256];
        describe_result(&pos, result, sizeof result);
        say("Game over: %s", result);
    } else {
        say("Side to move: %s", pos.side == DARK ? "Dark" : "Light");
    }
    say("Position: %s", text);
}

static void handle(const char *line, int len)
{
    int n = split(line, len, words);
    const Word *w = words;
    if (n == 0)
        return;                                  /* an empty line, or blanks only */
    if (is(&w[0], "uci"))
        cmd_uci();
    else if (is(&w[0], "isready"))
        say("readyok");                          /* at once: this engine never thinks long */
    else if (is(&w[0], "setoption"))
        cmd_setoption(w, n);
    else if (is(&w[0], "ucinewgame")) {
        start_position(&pos, variant);
        reseed();
    } else if (is(&w[0], "position"))
        cmd_position(w, n);
    else if (is(&w[0], "go"))
        cmd_go(w, n);
    else if (is(&w[0], "stop")) {
        if (waiting)                             /* nothing running: ignored in silence */
            say("bestmove %s", waiting_move);
        waiting = 0;
    } else if (is(&w[0], "quit"))
        exit(0);
    else if (is(&w[0], "d"))
        cmd_display();
    else if (is(&w[0], "moves") && n == 1 && !waiting)
        cmd_moves();
    else if (is(&w[0], "moves"))
        error_line(waiting ? "moves: a search is running; send stop first" : "moves: only the bare form is supported");
    else if (is(&w[0], "debug") && n == 2 && (is(&w[1], "on") || is(&w[1], "off")))
        ;                                        /* accepted; no effect */
    else if (is(&w[0], "ponderhit"))
        error_line("ponderhit: pondering is not supported");
    else
        error_line("unknown command %s (column %d); commands are uci, isready, ucinewgame, setoption, position, "
                   "go, stop, quit, d, moves, debug", quoted(w[0].s, w[0].len), w[0].col);
}

int main(void)
{
    static char line[MAX_LINE + 2];
    start_position(&pos, variant);
    reseed();
    for (;;) {
        long n = read_line(line);
        if (n == -1)
            return 0;                            /* end of input ends the engine, like quit */
        if (n == -2)
            error_line("line longer than %d bytes dropped; nothing of it was obeyed", MAX_LINE);
        else
            handle(line, (int)n);
    }
}
