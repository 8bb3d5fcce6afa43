/* isaac.h: the position, moves and rules of ISAAC, FOUNDATIONS and HARI, as SPEC.md sections 1-7
 * state them. Shared by the starter engine's three files:
 *
 *   rules.c     the rules: legal moves, checking and playing a move, the end of a game, results
 *   notation.c  cells, segments, moves and position strings: reading and writing them
 *   engine.c    the protocol (SPEC.md section 9): the command loop and the choice of a move
 *
 * Everything here was written from SPEC.md alone: when you change a rule, find its section there.
 */
#ifndef ISAAC_H
#define ISAAC_H

#include <stddef.h>

enum { DARK = 0, LIGHT = 1 };                  /* player 1 and player 2; Dark moves first */
enum Game { ISAAC = 0, FOUNDATIONS = 1, HARI = 2 };
enum Phase { PLACE_PHASE = 0, SCORE_PHASE = 1 };  /* ISAAC only */

#define CELLS 100           /* cell = rank * 10 + file; a0 = 0, j9 = 99 (SPEC 1) */
#define MIN_LEN 3
#define MAX_LEN 7
#define MAX_PIECES 30       /* both sets on the board */
#define MAX_LEVEL 8         /* FOUNDATIONS: a set cannot build higher (SPEC 7) */
#define MAX_SLIDES 15       /* HARI: each own piece slides at most once a turn */
#define MAX_MOVES 2048      /* placements (600 on one level) or ISAAC removals (15 pieces x 101 scores) */
#define WHY_LEN 256         /* room for an error's explanation */

extern const char *const GAME_NAMES[3];
extern const int SET_COUNT[MAX_LEN + 1];   /* pieces of each length in one set: 5, 4, 3, 2, 1 */
extern const int VALUE[MAX_LEN + 1];       /* value of each length: 1, 2, 3, 4, 6 */

/* A piece on the board: its two end cells (lo < hi) on one row or one column. */
typedef struct {
    int lo, hi;
    int owner;              /* DARK or LIGHT */
    int level;              /* FOUNDATIONS: 1 is the board, k >= 2 lies on level k - 1; always 1 otherwise */
} Piece;

/* Exactly the fields of a position string (SPEC 7); everything else is derived from them. */
typedef struct {
    enum Game game;
    Piece piece[MAX_PIECES];
    int npieces;
    int hand[2][MAX_LEN + 1];   /* hand[colour][length]: pieces of that length in hand */
    int side;                   /* the player to move */
    int passed[2];              /* who has passed in this phase (ISAAC) or game, first passer first */
    int npassed;
    enum Phase phase;           /* ISAAC */
    int score[2];               /* ISAAC */
} Position;

/* Which piece lies on each cell of each level: an index into Position.piece, or -1. */
typedef struct {
    signed char at[MAX_LEVEL + 2][CELLS];
} Grid;

typedef enum { MOVE_PASS, MOVE_PLACE, MOVE_REMOVE, MOVE_DISCARD } MoveKind;

/* HARI: one slide, naming the piece by the segment it is on when the turn starts. */
typedef struct {
    signed char lo, hi;         /* where the piece is */
    signed char to_lo, to_hi;   /* where it goes; to_lo = -1: off the board */
} Slide;

typedef struct {
    MoveKind kind;
    int lo, hi;                 /* MOVE_PLACE: the cells covered; MOVE_REMOVE: the piece removed */
    int level;                  /* MOVE_PLACE: the level (FOUNDATIONS), 1 otherwise */
    int score;                  /* MOVE_REMOVE (ISAAC): the mover's new score */
    int length;                 /* MOVE_DISCARD (HARI): the length discarded */
    int nslides;                /* HARI: slides made before the play, in the order given */
    Slide slide[MAX_SLIDES];
} Move;

/* An input word and where it starts in the line, for error messages. */
typedef struct {
    const char *s;
    int len;
    int col;                    /* 1-based column in the line as received */
} Word;

/* rules.c */
void start_position(Position *p, enum Game game);
int segment_ok(int a, int b);                     /* ends on one row or column, 3 to 7 cells */
int segment_step(int lo, int hi);                 /* 1 along a row, 10 along a column */
int segment_length(int lo, int hi);
void build_grid(const Position *p, Grid *g);
int has_passed(const Position *p, int colour);
int counter_cell(int colour, int score);          /* ISAAC: the cell of a counter, -1 at 100 or more */
int is_over(const Position *p);
int legal_moves(const Position *p, Move *out);    /* every legal move except HARI moves with slides */
int make_move(const Position *p, const Move *m, Position *next, char *why);
void describe_result(const Position *p, char *out, size_t size);
int check_position(const Position *p, char *why);

/* notation.c */
void cell_name(int cell, char *out);              /* "d4"; out holds 3 bytes */
int parse_move(enum Game game, const char *s, int len, Move *m, char *why, int *at);
void format_move(const Move *m, char *out, size_t size);
int parse_position(const Word *field, int nfields, Position *p, char *why, int *col);
void format_position(const Position *p, char *out, size_t size);

#endif
