#ifndef OKIT_CLUA_H
#define OKIT_CLUA_H

/* Lua 5.4 from Debian's liblua5.4-dev, made usable from Swift.
 *
 * Swift cannot import function-like macros, so the ones the bridge needs are re-declared here as static
 * inline functions. The few lines that must be C live in shim.c:
 *   - the closure trampoline: Swift callbacks never raise; they return OKIT_CALL_ERROR and the trampoline
 *     calls lua_error after the Swift frame has returned, so a longjmp only ever crosses C and Lua frames;
 *   - the instruction-budget hook (sticky: once exhausted it fires on every instruction, so pcall cannot
 *     swallow it), the memory-limited allocator (with a flag that lifts the limit while Swift pushes values),
 *     the traceback message handler, guarded string functions and protected helpers for metamethod access. */

#include <stddef.h>
#include <lua5.4/lua.h>
#include <lua5.4/lualib.h>
#include <lua5.4/lauxlib.h>

static const int okit_LUA_REGISTRYINDEX = LUA_REGISTRYINDEX;
/* Returned by a Swift callback when it left an error value on the stack for the trampoline to raise. */
static const int OKIT_CALL_ERROR = -1;

static inline int okit_lua_pcall(lua_State *L, int nargs, int nresults, int msgh) {
    return lua_pcall(L, nargs, nresults, msgh);
}
static inline void okit_lua_pop(lua_State *L, int n) { lua_settop(L, -(n)-1); }
static inline void okit_lua_newtable(lua_State *L) { lua_createtable(L, 0, 0); }
static inline const char *okit_lua_tostring(lua_State *L, int idx) { return lua_tolstring(L, idx, NULL); }
static inline int okit_lua_upvalueindex(int i) { return lua_upvalueindex(i); }
static inline void okit_lua_insert(lua_State *L, int idx) { lua_rotate(L, idx, 1); }
static inline void okit_lua_remove(lua_State *L, int idx) { lua_rotate(L, idx, -1); lua_settop(L, -2); }
/* The registry's metatable entry `name`, read raw (the registry has no metatable, so nothing can raise). */
static inline int okit_getmetatable(lua_State *L, const char *name) {
    lua_pushstring(L, name);
    return lua_rawget(L, LUA_REGISTRYINDEX);
}
static inline int okit_lua_gc_collect(lua_State *L) { return lua_gc(L, LUA_GCCOLLECT, 0); }
static inline void *okit_lua_newuserdata(lua_State *L, size_t size) { return lua_newuserdatauv(L, size, 1); }

/* Per-state control block: budget, memory accounting, abort reasons. */
typedef struct okit_control {
    long long budget;            /* instructions per outermost call */
    long long remaining;
    int exhausted;               /* sticky until okit_budget_reset */
    size_t used;                 /* bytes allocated by Lua */
    size_t limit;                /* memory limit in bytes */
    int ignore_limit;            /* > 0 while the host pushes values */
    int memory_exceeded;         /* set when an allocation was refused */
    void *host;                  /* the Swift owner (unretained) */
    lua_State *main;             /* the main thread (the sticky hook re-arms it too) */
} okit_control;

/* Creates a state with the limited allocator; the control block is owned by the state (freed by okit_close). */
lua_State *okit_newstate(size_t memory_limit);
void okit_close(lua_State *L);
okit_control *okit_control_of(lua_State *L);

/* lua_checkstack that grows the stack even past the memory limit (room for host pushes); 0 only past Lua's
 * hard stack limit. */
int okit_ensure_stack(lua_State *L, int n);

/* Budget: sets the per-call budget and re-arms the hook on the main thread (call before each outermost call). */
void okit_budget_reset(lua_State *L, long long budget);
/* Installs the count hook on a thread (new threads copy their creator's hook). */
void okit_install_hook(lua_State *L);
/* Charges C work the count hook cannot see against the remaining budget. */
void okit_charge(lua_State *L, long long instructions);
/* Process-wide stop request (SIGINT/SIGTERM): async-signal-safe to set; the count hook of every state ends the
 * running Lua code with "stopped by signal N" once it is set. */
void okit_request_stop(int sig);
int okit_stop_requested(void);
void okit_clear_stop(void);
/* Whether the budget ran out since the last outermost call began. */
int okit_is_exhausted(lua_State *L);

/* The Swift entry point every Swift closure goes through. Returns the number of results, or OKIT_CALL_ERROR
 * with the error value on top of the stack. */
typedef int (*okit_swift_entry)(lua_State *L);
void okit_set_swift_entry(okit_swift_entry entry);
/* Pushes a C closure whose upvalue 1 is the value on top of the stack (the Swift closure's box userdata). */
void okit_push_swift_closure(lua_State *L);
/* The trampoline itself (exported for identity checks). */
int okit_trampoline(lua_State *L);
/* Pops a methods table and a getter function (pushed in that order) and pushes an __index function that looks
 * names up in the table (raw) first and calls the getter (object, key) for anything else. */
void okit_push_index_dispatch(lua_State *L);

/* A traceback message handler for lua_pcall: turns the error into "message\nstack traceback: ...". */
int okit_traceback_handler(lua_State *L);

/* Protected helpers, run through lua_pcall from Swift: (t, k) -> t[k]; (t, k, v) -> t[k] = v; (v) -> tostring(v);
 * (a, b) -> a == b; (v) -> #v. */
int okit_p_gettable(lua_State *L);
int okit_p_settable(lua_State *L);
int okit_p_tostring(lua_State *L);
int okit_p_equal(lua_State *L);
int okit_p_len(lua_State *L);

/* Replaces string.rep, the pattern functions, table.move/insert/remove and coroutine.create/wrap with guarded
 * versions (sizes checked before
 * running, C work charged to the budget). Runs protected; returns a lua_pcall status. */
int okit_guard_string_library(lua_State *L, size_t max_pattern_subject, long long max_pattern_cost);
/* An upper bound of the steps Lua's pattern matcher takes for `pattern` on `subject` (pattern.c); stops counting
 * once over `limit`. `anchor_allowed`: whether a leading '^' anchors (find, match, gsub; not gmatch). */
double okit_pattern_cost(const char *subject, size_t n, const char *pattern, size_t lp, int anchor_allowed, double limit);
/* Puts back Lua's own string.find, match, gmatch and gsub where okit_guard_string_library replaced them (a test
 * file's state: plain Lua 5.4, as under busted). Runs protected; returns a lua_pcall status. */
int okit_unguard_patterns(lua_State *L);

#define OKIT_MATCH_MALFORMED (-1)
#define OKIT_MATCH_BUDGET (-2)
/* string.find(subject, pattern) ~= nil, exactly, with Lua's matcher under a real budget of *steps (pattern_match.c;
 * *steps is left with what remains): 1 found, 0 not, OKIT_MATCH_MALFORMED (*problem: Lua's words) or
 * OKIT_MATCH_BUDGET. */
int okit_pattern_find_bounded(const char *subject, size_t n, const char *pattern, size_t lp, long long *steps,
                              const char **problem);
/* string.find(s, text [, init], true): linear (memmem), as Lua's results. */
int okit_plain_find(lua_State *L);

/* Opens one standard library by name into the globals ("_G", "string", …). Runs protected; returns a status. */
int okit_open_library(lua_State *L, const char *name);

/* A protected call of the function below `nargs` arguments with the traceback handler: resets the budget when
 * `outermost`, enforces the memory limit during the call (restoring the host's flag after), returns the status. */
int okit_pcall(lua_State *L, int nargs, int nresults, long long budget, int outermost);

/* Loads a chunk in text mode only, under the memory limit (fully protected: failures come back as a status). */
int okit_load_text(lua_State *L, const char *source, size_t length, const char *chunkname);

const char *okit_lua_version(void);

#endif
