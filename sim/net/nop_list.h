/*
 * nop_list.h - the list of network operators (internal to sim/net).
 *
 * MG_NOPS(X) calls X(name) once per operator; each is `const mg_nop
 * mg_nop_<name>` in sim/net/nop_<name>.c.  Adding an operator is that file
 * plus one line here.
 */
#ifndef MG_NOP_LIST_H
#define MG_NOP_LIST_H

#define MG_NOPS(X)  \
    X(conv2d)       \
    X(fc)           \
    X(pool)         \
    X(gpool)        \
    X(add)          \
    X(act)          \
    X(concat)       \
    X(resize)       \
    X(reshape)      \
    X(matmul)       \
    X(softmax)      \
    X(layernorm)

#endif
