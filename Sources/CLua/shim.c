#include "CLua.h"
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <signal.h>

const char *okit_lua_version(void) { return LUA_RELEASE; }

/* ---- control block, allocator, state ---- */

okit_control *okit_control_of(lua_State *L) {
    return *(okit_control **)lua_getextraspace(L);
}

/* Lua's allocator contract: when ptr is NULL, osize is a type tag; nsize 0 frees; a shrink must never fail.
 * Only growth counts against the limit, and only while the host flag is clear. */
static void *okit_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    okit_control *c = (okit_control *)ud;
    size_t old = ptr ? osize : 0;
    if (nsize == 0) {
        free(ptr);
        c->used -= old;
        return NULL;
    }
    if (nsize > old && c->ignore_limit == 0) {
        size_t growth = nsize - old;
        if (c->used > c->limit || growth > c->limit - c->used) {   /* no overflow: compare the headroom */
            c->memory_exceeded = 1;
            return NULL;
        }
    }
    void *p = realloc(ptr, nsize);
    if (p == NULL) return nsize <= old ? ptr : NULL;   /* a failed shrink keeps the old block */
    c->used = c->used - old + nsize;
    return p;
}

static int okit_panic(lua_State *L) {
    const char *msg = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
    fprintf(stderr, "okit: unprotected Lua error (a bug in okit): %s\n", msg ? msg : "?");
    fflush(stderr);
    abort();
    return 0;
}

lua_State *okit_newstate(size_t memory_limit) {
    okit_control *c = (okit_control *)calloc(1, sizeof(okit_control));
    if (c == NULL) return NULL;
    c->limit = memory_limit;
    c->budget = 100000000;
    c->remaining = c->budget;
    lua_State *L = lua_newstate(okit_alloc, c);
    if (L == NULL) { free(c); return NULL; }
    c->main = L;
    *(okit_control **)lua_getextraspace(L) = c;
    lua_atpanic(L, okit_panic);
    /* Generational collection suits bindings: calls into extensions make many short-lived strings. */
    lua_gc(L, LUA_GCGEN, 100, 100);
    return L;
}

void okit_close(lua_State *L) {
    if (L == NULL) return;
    okit_control *c = okit_control_of(L);
    c->ignore_limit++;   /* finalizers may allocate while the state closes */
    lua_close(L);
    free(c);
}

/* ---- stop requests ---- */

/* The stop signal (SIGINT/SIGTERM) okit-run received, or 0. Process-wide: written from a signal handler, which
 * may only store to a `volatile sig_atomic_t` (C11 7.14.1.1), and read by the count hook of every state, so a
 * command running away in Lua ends at the next hook instead of after its budget. */
static volatile sig_atomic_t okit_stop_signal = 0;

void okit_request_stop(int sig) { okit_stop_signal = (sig_atomic_t)sig; }
int okit_stop_requested(void) { return (int)okit_stop_signal; }
void okit_clear_stop(void) { okit_stop_signal = 0; }

/* ---- budget hook ---- */

/* The hook period of the main thread, and of coroutines: a coroutine's instructions before its first hook are
 * charged when it is created (see okit_arm_thread), so a short period there keeps that charge small. */
#define OKIT_HOOK_STEP 1000
#define OKIT_CO_STEP 100

static void okit_hook(lua_State *L, lua_Debug *ar) {
    (void)ar;
    okit_control *c = okit_control_of(L);
    int stop = (int)okit_stop_signal;
    if (!c->exhausted && !stop) {
        int step = lua_gethookcount(L);
        c->remaining -= step;
        if (c->remaining > 0) {
            /* A thread left at count 1 by an earlier exhaustion goes back to its normal period. */
            int normal = (c->main == NULL || c->main == L) ? OKIT_HOOK_STEP : OKIT_CO_STEP;
            if (step != normal) lua_sethook(L, okit_hook, LUA_MASKCOUNT, normal);
            return;
        }
    }
    c->exhausted = 1;
    /* Sticky: fire on every instruction of this thread and of the main thread from now on, so neither a pcall
     * loop nor a coroutine that swallows the error can keep running. Reset by the next outermost call. */
    lua_sethook(L, okit_hook, LUA_MASKCOUNT, 1);
    if (c->main != NULL && c->main != L) lua_sethook(c->main, okit_hook, LUA_MASKCOUNT, 1);
    c->ignore_limit++;   /* the message must not fail for lack of memory */
    luaL_where(L, 0);
    if (stop) lua_pushfstring(L, "stopped by signal %d", stop);
    else lua_pushfstring(L, "instruction budget exceeded (%I instructions)", (lua_Integer)c->budget);
    lua_concat(L, 2);
    c->ignore_limit--;
    lua_error(L);
}

/* A new coroutine copies its creator's hook with a fresh count, so one that ends before its first hook would run
 * unseen: give it the short period and charge that period now (an upper bound of what it runs unhooked). */
static void okit_arm_thread(lua_State *L, lua_State *co) {
    okit_control *c = okit_control_of(L);
    int sticky = c->exhausted || okit_stop_signal != 0;
    lua_sethook(co, okit_hook, LUA_MASKCOUNT, sticky ? 1 : OKIT_CO_STEP);
    c->remaining -= OKIT_CO_STEP;
}

void okit_install_hook(lua_State *L) {
    lua_sethook(L, okit_hook, LUA_MASKCOUNT, OKIT_HOOK_STEP);
}

void okit_budget_reset(lua_State *L, long long budget) {
    okit_control *c = okit_control_of(L);
    c->budget = budget;
    c->remaining = budget;
    c->exhausted = 0;
    okit_install_hook(c->main != NULL ? c->main : L);
}

void okit_charge(lua_State *L, long long instructions) {
    okit_control *c = okit_control_of(L);
    c->remaining -= instructions;
}

/* ---- stack ---- */

int okit_ensure_stack(lua_State *L, int n) {
    if (lua_checkstack(L, n)) return 1;
    okit_control *c = okit_control_of(L);   /* growing the stack is host work: the limit does not apply */
    c->ignore_limit++;
    int ok = lua_checkstack(L, n);
    c->ignore_limit--;
    return ok;
}

/* ---- Swift closures ---- */

static okit_swift_entry swift_entry = NULL;

void okit_set_swift_entry(okit_swift_entry entry) { __atomic_store_n(&swift_entry, entry, __ATOMIC_RELEASE); }

int okit_trampoline(lua_State *L) {
    okit_swift_entry entry = __atomic_load_n(&swift_entry, __ATOMIC_ACQUIRE);
    if (entry == NULL) return luaL_error(L, "okit: Swift bridge not initialised");
    int n = entry(L);
    if (n < 0) return lua_error(L);   /* the Swift frame has returned: raising here is safe */
    return n;
}

void okit_push_swift_closure(lua_State *L) {
    lua_pushcclosure(L, okit_trampoline, 1);
}

/* __index of a metatable with both methods and a getter: upvalue 1 the methods table, upvalue 2 the getter. */
static int okit_index_dispatch(lua_State *L) {
    lua_settop(L, 2);
    lua_pushvalue(L, 2);
    if (lua_rawget(L, lua_upvalueindex(1)) != LUA_TNIL) return 1;
    lua_settop(L, 2);
    lua_pushvalue(L, lua_upvalueindex(2));
    lua_insert(L, 1);
    lua_call(L, 2, 1);
    return 1;
}

void okit_push_index_dispatch(lua_State *L) {
    lua_pushcclosure(L, okit_index_dispatch, 2);
}

/* ---- errors ---- */

int okit_traceback_handler(lua_State *L) {
    /* A number raised (`error(42)`) reads as its text, as lua.c says it. */
    int t = lua_type(L, 1);
    const char *msg = t == LUA_TSTRING || t == LUA_TNUMBER ? lua_tostring(L, 1) : NULL;
    if (msg == NULL) {
        if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING)
            msg = lua_tostring(L, -1);
        else
            msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
    }
    luaL_traceback(L, L, msg, 1);
    return 1;
}

/* ---- protected helpers ---- */

int okit_p_gettable(lua_State *L) { lua_settop(L, 2); lua_gettable(L, 1); return 1; }
int okit_p_settable(lua_State *L) { lua_settop(L, 3); lua_settable(L, 1); return 0; }
int okit_p_tostring(lua_State *L) { luaL_tolstring(L, 1, NULL); return 1; }
int okit_p_equal(lua_State *L) { lua_pushboolean(L, lua_compare(L, 1, 2, LUA_OPEQ)); return 1; }
int okit_p_len(lua_State *L) { lua_len(L, 1); return 1; }

/* Runs `f` with `nargs` arguments already on the stack, protected, with the memory limit lifted (host work). */
static int okit_host_protected(lua_State *L, lua_CFunction f, int nargs) {
    okit_control *c = okit_control_of(L);
    c->ignore_limit++;
    int status = LUA_ERRMEM;
    if (lua_checkstack(L, 2)) {
        lua_pushcfunction(L, f);
        lua_insert(L, -(nargs + 1));
        status = lua_pcall(L, nargs, 0, 0);
        if (status != LUA_OK) lua_pop(L, 1);
    } else {
        lua_pop(L, nargs);
    }
    c->ignore_limit--;
    return status;
}

/* ---- guarded library functions ---- */

/* Calls upvalue 1 (the original function) with the current arguments and returns all its results. */
static int okit_forward(lua_State *L) {
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

static int okit_guarded_rep(lua_State *L) {
    size_t l, lsep;
    luaL_checklstring(L, 1, &l);
    lua_Integer n = luaL_checkinteger(L, 2);
    luaL_optlstring(L, 3, "", &lsep);
    if (n <= 0 || l + lsep == 0) {   /* Lua would loop n times copying nothing */
        lua_pushliteral(L, "");
        return 1;
    }
    okit_control *c = okit_control_of(L);
    size_t room = c->limit > c->used ? c->limit - c->used : 0;
    double total = (double)l * (double)n + (double)lsep * (double)(n - 1);
    if (total > (double)room) {
        c->memory_exceeded = 1;
        luaL_where(L, 1);
        if (total < 9.0e18) lua_pushfstring(L, "string.rep result too large (%I bytes): ", (lua_Integer)total);
        else lua_pushliteral(L, "string.rep result too large: ");
        if (c->limit % (1024 * 1024) == 0) lua_pushfstring(L, "memory limit of %I MiB exceeded", (lua_Integer)(c->limit >> 20));
        else lua_pushfstring(L, "memory limit of %I bytes exceeded", (lua_Integer)c->limit);
        lua_concat(L, 3);
        return lua_error(L);
    }
    c->remaining -= (long long)(total / 64);   /* C work the count hook cannot see */
    return okit_forward(L);
}

/* Upvalues: 1 the original, 2 the subject size limit, 3 the kind (0 find, 1 match, 2 gmatch, 3 gsub), 4 the
 * pattern cost limit (see pattern.c). */
static int okit_guarded_pattern(lua_State *L) {
    static const char *names[] = { "find", "match", "gmatch", "gsub" };
    size_t l, lp = 0;
    const char *subject = luaL_checklstring(L, 1, &l);
    size_t max = (size_t)lua_tointeger(L, lua_upvalueindex(2));
    int kind = (int)lua_tointeger(L, lua_upvalueindex(3));
    double limit = (double)lua_tointeger(L, lua_upvalueindex(4));
    if (kind == 0 && lua_toboolean(L, 4) && lua_type(L, 2) == LUA_TSTRING) {
        /* a plain find is linear in the subject: no subject or cost limit, only its work charged */
        okit_control_of(L)->remaining -= (long long)(l / 64);
        return okit_plain_find(L);
    }
    if (l > max)
        return luaL_error(L, "pattern functions refuse subjects over %d KiB (this one has %d bytes)",
                          (int)(max / 1024), (int)l);
    const char *pattern = lua_type(L, 2) == LUA_TSTRING ? lua_tolstring(L, 2, &lp) : NULL;
    if (pattern != NULL) {
        double cost = okit_pattern_cost(subject, l, pattern, lp, kind != 2, limit);
        if (cost > limit) {
            okit_control_of(L)->ignore_limit++;   /* the message must not fail for lack of memory */
            luaL_where(L, 1);
            if (cost < 9.0e18)
                lua_pushfstring(L, "string.%s: pattern too costly on this subject (up to %I steps; the pattern cost limit is %I)",
                                names[kind], (lua_Integer)cost, (lua_Integer)limit);
            else
                lua_pushfstring(L, "string.%s: pattern too costly on this subject (the pattern cost limit is %I)",
                                names[kind], (lua_Integer)limit);
            lua_concat(L, 2);
            okit_control_of(L)->ignore_limit--;
            return lua_error(L);
        }
    }
    okit_control_of(L)->remaining -= (long long)(l / 64);   /* C work the count hook cannot see */
    return okit_forward(L);
}

#define OKIT_MAX_MOVE ((lua_Integer)1 << 26)

static int okit_guarded_move(lua_State *L) {
    lua_Integer f = luaL_checkinteger(L, 2);
    lua_Integer e = luaL_checkinteger(L, 3);
    if (e >= f && (f <= 0 ? e >= OKIT_MAX_MOVE + f : e - f >= OKIT_MAX_MOVE))
        return luaL_error(L, "table.move: too many elements (limit %I)", OKIT_MAX_MOVE);
    if (e >= f) okit_control_of(L)->remaining -= (long long)(e - f);
    return okit_forward(L);
}

/* table.insert(t, pos, v) and table.remove(t, pos) shift elements in a C loop whose length comes from #t, which
 * __len may make huge: refuse lengths no real table can have, and charge the shift to the budget. */
static int okit_guarded_shift(lua_State *L, int insert) {
    if (lua_type(L, 1) == LUA_TTABLE && lua_gettop(L) >= (insert ? 3 : 2)) {
        lua_Integer n = luaL_len(L, 1);
        int isint = 0;
        lua_Integer pos = lua_tointegerx(L, 2, &isint);
        if (n > OKIT_MAX_MOVE || n < -OKIT_MAX_MOVE)
            return luaL_error(L, "table.%s: table too long (%I; limit %I)", insert ? "insert" : "remove", n, OKIT_MAX_MOVE);
        if (isint && pos >= 1 && pos <= n) okit_control_of(L)->remaining -= (long long)(n - pos);
    }
    return okit_forward(L);
}

static int okit_guarded_insert(lua_State *L) { return okit_guarded_shift(L, 1); }
static int okit_guarded_remove(lua_State *L) { return okit_guarded_shift(L, 0); }

/* coroutine.create and coroutine.wrap: the original (upvalue 1), then the new thread armed (okit_arm_thread).
 * coroutine.wrap's function is a C closure whose upvalue 1 is the thread. */
static int okit_guarded_cocreate(lua_State *L) {
    okit_forward(L);
    lua_State *co = lua_tothread(L, -1);
    if (co != NULL) okit_arm_thread(L, co);
    return 1;
}

static int okit_guarded_cowrap(lua_State *L) {
    okit_forward(L);
    if (lua_getupvalue(L, -1, 1) != NULL) {
        lua_State *co = lua_tothread(L, -1);
        lua_pop(L, 1);
        if (co != NULL) okit_arm_thread(L, co);
    }
    return 1;
}

static int okit_p_guard(lua_State *L) {
    static const char *patterns[] = { "find", "match", "gmatch", "gsub", NULL };
    lua_Integer max_subject = lua_tointeger(L, 1);
    lua_Integer max_cost = lua_tointeger(L, 2);
    if (lua_getglobal(L, "string") == LUA_TTABLE) {
        lua_getfield(L, -1, "rep");
        lua_pushcclosure(L, okit_guarded_rep, 1);
        lua_setfield(L, -2, "rep");
        for (int i = 0; patterns[i]; i++) {
            lua_getfield(L, -1, patterns[i]);
            lua_pushinteger(L, max_subject);
            lua_pushinteger(L, i);
            lua_pushinteger(L, max_cost);
            lua_pushcclosure(L, okit_guarded_pattern, 4);
            lua_setfield(L, -2, patterns[i]);
        }
    }
    lua_pop(L, 1);
    if (lua_getglobal(L, "table") == LUA_TTABLE) {
        lua_getfield(L, -1, "move");
        lua_pushcclosure(L, okit_guarded_move, 1);
        lua_setfield(L, -2, "move");
        lua_getfield(L, -1, "insert");
        lua_pushcclosure(L, okit_guarded_insert, 1);
        lua_setfield(L, -2, "insert");
        lua_getfield(L, -1, "remove");
        lua_pushcclosure(L, okit_guarded_remove, 1);
        lua_setfield(L, -2, "remove");
    }
    lua_pop(L, 1);
    if (lua_getglobal(L, "coroutine") == LUA_TTABLE) {
        lua_getfield(L, -1, "create");
        lua_pushcclosure(L, okit_guarded_cocreate, 1);
        lua_setfield(L, -2, "create");
        lua_getfield(L, -1, "wrap");
        lua_pushcclosure(L, okit_guarded_cowrap, 1);
        lua_setfield(L, -2, "wrap");
    }
    lua_pop(L, 1);
    return 0;
}

static int okit_p_unguard(lua_State *L) {
    static const char *patterns[] = { "find", "match", "gmatch", "gsub", NULL };
    if (lua_getglobal(L, "string") == LUA_TTABLE) {
        for (int i = 0; patterns[i]; i++) {
            lua_getfield(L, -1, patterns[i]);
            if (lua_tocfunction(L, -1) == okit_guarded_pattern && lua_getupvalue(L, -1, 1) != NULL) {
                lua_setfield(L, -3, patterns[i]);
            }
            lua_pop(L, 1);
        }
    }
    lua_pop(L, 1);
    return 0;
}

int okit_unguard_patterns(lua_State *L) {
    if (!okit_ensure_stack(L, 4)) return LUA_ERRMEM;
    return okit_host_protected(L, okit_p_unguard, 0);
}

int okit_guard_string_library(lua_State *L, size_t max_subject, long long max_pattern_cost) {
    if (!okit_ensure_stack(L, 2)) return LUA_ERRMEM;
    lua_pushinteger(L, (lua_Integer)max_subject);
    lua_pushinteger(L, (lua_Integer)max_pattern_cost);
    return okit_host_protected(L, okit_p_guard, 2);
}

static int okit_p_openlib(lua_State *L) {
    static const luaL_Reg libs[] = {
        { LUA_GNAME, luaopen_base }, { LUA_LOADLIBNAME, luaopen_package }, { LUA_COLIBNAME, luaopen_coroutine },
        { LUA_TABLIBNAME, luaopen_table }, { LUA_IOLIBNAME, luaopen_io }, { LUA_OSLIBNAME, luaopen_os },
        { LUA_STRLIBNAME, luaopen_string }, { LUA_MATHLIBNAME, luaopen_math }, { LUA_UTF8LIBNAME, luaopen_utf8 },
        { LUA_DBLIBNAME, luaopen_debug }, { NULL, NULL } };
    const char *name = lua_tostring(L, 1);
    for (const luaL_Reg *lib = libs; name && lib->func; lib++) {
        if (strcmp(lib->name, name) == 0) {
            luaL_requiref(L, lib->name, lib->func, 1);
            return 0;
        }
    }
    return luaL_error(L, "no standard library named '%s'", name ? name : "?");
}

int okit_open_library(lua_State *L, const char *name) {
    if (!okit_ensure_stack(L, 1)) return LUA_ERRMEM;
    okit_control *c = okit_control_of(L);
    c->ignore_limit++;
    lua_pushstring(L, name);
    c->ignore_limit--;
    return okit_host_protected(L, okit_p_openlib, 1);
}

/* ---- calls and loading ---- */

int okit_pcall(lua_State *L, int nargs, int nresults, long long budget, int outermost) {
    okit_control *c = okit_control_of(L);
    int base = lua_gettop(L) - nargs;
    c->ignore_limit++;
    int room = lua_checkstack(L, 1);
    c->ignore_limit--;
    if (!room) {   /* cannot happen below a million slots; report it as a memory error */
        lua_settop(L, base - 1);
        lua_pushliteral(L, "not enough memory");
        return LUA_ERRMEM;
    }
    lua_pushcfunction(L, okit_traceback_handler);
    lua_rotate(L, base, 1);
    if (outermost) {
        c->budget = budget;
        c->remaining = budget;
        if (c->exhausted) {
            c->exhausted = 0;
            okit_install_hook(L);
            if (c->main != NULL && c->main != L) okit_install_hook(c->main);
        }
    }
    c->memory_exceeded = 0;
    int saved = c->ignore_limit;
    c->ignore_limit = 0;
    int status = lua_pcall(L, nargs, nresults, base);
    c->ignore_limit = saved;
    lua_rotate(L, base, -1);
    lua_settop(L, -2);
    return status;
}

int okit_load_text(lua_State *L, const char *source, size_t length, const char *chunkname) {
    /* The parser allocates as the script grows: the limit applies (a memory error comes back as a status). */
    okit_control *c = okit_control_of(L);
    int saved = c->ignore_limit;
    c->ignore_limit = 0;
    c->memory_exceeded = 0;
    int status = luaL_loadbufferx(L, source, length, chunkname, "t");
    c->ignore_limit = saved;
    return status;
}

int okit_is_exhausted(lua_State *L) { return okit_control_of(L)->exhausted; }
