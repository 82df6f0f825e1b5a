/*
 * term.h - whether progress may be drawn on stderr.
 */
#ifndef MG_TERM_H
#define MG_TERM_H

/* 1 when stderr is a terminal and $TERM is set and is not "dumb": the only
 * case in which a progress line (carriage returns, the erase-line escape
 * code) is drawn; 0 otherwise. */
int mg_term_progress(void);

#endif
