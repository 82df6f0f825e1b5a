/*
 * policy_list.h - the replacement policies, the one list (internal to sim;
 * no other declarations, so the config schema may read it too).
 *
 * X(name) for each policy, in the order of the config's `replacement`
 * values: sim/config/schema.c makes their names from this list, and a
 * config stores a policy's index in it (mg_device's `replacement`).
 * The policy itself is mg_repl_<name>, in sim/model/cache/<name>.c,
 * found by name through mg_repl_find() (policy.c).  A new policy is its
 * file and one X here, at the end.
 */
#ifndef MG_CACHE_POLICY_LIST_H
#define MG_CACHE_POLICY_LIST_H

#define MG_REPL_POLICIES(X) X(lru) X(fifo) X(random) X(plru)

#endif
