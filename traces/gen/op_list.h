/*
 * op_list.h - the list of the generator's operators (internal to traces/).
 *
 * MG_OPS(X) calls X(name) once per operator, in the order `mgsim gen
 * --list` and the "known: ..." of an unknown operator print them; each
 * name is an operator defined as `const mg_op mg_op_<name>` by a file in
 * traces/ops/.  Adding an operator is that file plus one line here.
 */
#ifndef MG_OP_LIST_H
#define MG_OP_LIST_H

#define MG_OPS(X)     \
    X(eltwise)        \
    X(conv2d)         \
    X(pchase)         \
    X(regpressure)    \
    X(warpsize)       \
    X(flops)          \
    X(bandwidth)      \
    X(rstride2d)      \
    X(matmul)         \
    X(softmax)        \
    X(layernorm)      \
    X(ticket)         \
    X(vload)          \
    X(mlp)            \
    X(pool)           \
    X(convpool)       \
    X(fuse)           \
    X(add)            \
    X(act)            \
    X(concat)

#endif
