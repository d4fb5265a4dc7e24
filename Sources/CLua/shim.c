#include "CLua.h"
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

const char *okit_lua_version(void) { return LUA_RELEASE; }

/* ---- control block, allocator, state ---- */

okit_control *okit_control_of(lua_State *L) {
    return *(okit_control **)lua_getextraspace(L);
}

static void *okit_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    okit_control *c = (okit_control *)ud;
    size_t old = ptr ? osize : 0;
    if (nsize == 0) {
        free(ptr);
        c->used -= old;
        return NULL;
    }
    if (nsize > old && c->ignore_limit == 0 && c->used + (nsize - old) > c->limit) {
        c->memory_exceeded = 1;
        return NULL;
    }
    void *p = realloc(ptr, nsize);
    if (p == NULL) return NULL;
    c->used = c->used - old + nsize;
    return p;
}

static int okit_panic(lua_State *L) {
    const char *msg = lua_tostring(L, -1);
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
    *(okit_control **)lua_getextraspace(L) = c;
    lua_atpanic(L, okit_panic);
    /* Generational collection suits bindings: calls into extensions make many short-lived strings. */
    lua_gc(L, LUA_GCGEN, 100, 100);
    return L;
}

void okit_close(lua_State *L) {
    if (L == NULL) return;
    okit_control *c = okit_control_of(L);
    lua_close(L);
    free(c);
}

/* ---- budget hook ---- */

#define OKIT_HOOK_STEP 1000

static void okit_hook(lua_State *L, lua_Debug *ar) {
    (void)ar;
    okit_control *c = okit_control_of(L);
    if (!c->exhausted) {
        int step = lua_gethookcount(L);
        c->remaining -= step;
        if (c->remaining > 0) {
            /* A thread left at count 1 by an earlier exhaustion goes back to the normal step. */
            if (step != OKIT_HOOK_STEP) lua_sethook(L, okit_hook, LUA_MASKCOUNT, OKIT_HOOK_STEP);
            return;
        }
        c->exhausted = 1;
    }
    /* Sticky: fire on every instruction of this thread from now on, so pcall loops cannot swallow it. */
    lua_sethook(L, okit_hook, LUA_MASKCOUNT, 1);
    luaL_error(L, "instruction budget exceeded (%I instructions)", (lua_Integer)c->budget);
}

void okit_install_hook(lua_State *L) {
    lua_sethook(L, okit_hook, LUA_MASKCOUNT, OKIT_HOOK_STEP);
}

void okit_budget_reset(lua_State *L, long long budget) {
    okit_control *c = okit_control_of(L);
    c->budget = budget;
    c->remaining = budget;
    c->exhausted = 0;
    okit_install_hook(L);
}

/* ---- Swift closures ---- */

static okit_swift_entry swift_entry = NULL;

void okit_set_swift_entry(okit_swift_entry entry) { swift_entry = entry; }

int okit_trampoline(lua_State *L) {
    if (swift_entry == NULL) return luaL_error(L, "okit: Swift bridge not initialised");
    int n = swift_entry(L);
    if (n < 0) return lua_error(L);   /* the Swift frame has returned: raising here is safe */
    return n;
}

void okit_push_swift_closure(lua_State *L) {
    lua_pushcclosure(L, okit_trampoline, 1);
}

/* ---- errors ---- */

int okit_traceback_handler(lua_State *L) {
    const char *msg = lua_tostring(L, 1);
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

/* ---- guarded string functions ---- */

static int okit_guarded_rep(lua_State *L) {
    size_t l, lsep;
    luaL_checklstring(L, 1, &l);
    lua_Integer n = luaL_checkinteger(L, 2);
    luaL_optlstring(L, 3, "", &lsep);
    if (n > 0) {
        okit_control *c = okit_control_of(L);
        size_t room = c->limit > c->used ? c->limit - c->used : 0;
        double total = (double)l * (double)n + (double)lsep * (double)(n - 1);
        if (total > (double)room)
            return luaL_error(L, "string.rep result too large (%I bytes; memory limit of %d MiB)",
                              (lua_Integer)total, (int)(c->limit / (1024 * 1024)));
    }
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

static int okit_guarded_pattern(lua_State *L) {
    size_t l;
    luaL_checklstring(L, 1, &l);
    size_t max = (size_t)lua_tointeger(L, lua_upvalueindex(2));
    if (l > max)
        return luaL_error(L, "pattern functions refuse subjects over %d KiB (this one has %d bytes)",
                          (int)(max / 1024), (int)l);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

void okit_guard_string_library(lua_State *L, size_t max_subject) {
    static const char *patterns[] = { "find", "match", "gmatch", "gsub", NULL };
    if (lua_getglobal(L, "string") != LUA_TTABLE) { lua_pop(L, 1); return; }
    lua_getfield(L, -1, "rep");
    lua_pushcclosure(L, okit_guarded_rep, 1);
    lua_setfield(L, -2, "rep");
    for (int i = 0; patterns[i]; i++) {
        lua_getfield(L, -1, patterns[i]);
        lua_pushinteger(L, (lua_Integer)max_subject);
        lua_pushcclosure(L, okit_guarded_pattern, 2);
        lua_setfield(L, -2, patterns[i]);
    }
    lua_pop(L, 1);
}

void okit_open_library(lua_State *L, const char *name) {
    static const luaL_Reg libs[] = {
        { LUA_GNAME, luaopen_base }, { LUA_LOADLIBNAME, luaopen_package }, { LUA_COLIBNAME, luaopen_coroutine },
        { LUA_TABLIBNAME, luaopen_table }, { LUA_IOLIBNAME, luaopen_io }, { LUA_OSLIBNAME, luaopen_os },
        { LUA_STRLIBNAME, luaopen_string }, { LUA_MATHLIBNAME, luaopen_math }, { LUA_UTF8LIBNAME, luaopen_utf8 },
        { LUA_DBLIBNAME, luaopen_debug }, { NULL, NULL } };
    for (const luaL_Reg *lib = libs; lib->func; lib++) {
        if (strcmp(lib->name, name) == 0) {
            luaL_requiref(L, lib->name, lib->func, 1);
            lua_pop(L, 1);
            return;
        }
    }
}

int okit_pcall(lua_State *L, int nargs, int nresults, long long budget, int outermost) {
    okit_control *c = okit_control_of(L);
    int base = lua_gettop(L) - nargs;
    c->ignore_limit++;
    lua_pushcfunction(L, okit_traceback_handler);
    c->ignore_limit--;
    lua_rotate(L, base, 1);
    if (outermost) {
        c->budget = budget;
        c->remaining = budget;
        if (c->exhausted) { c->exhausted = 0; okit_install_hook(L); }
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
    return luaL_loadbufferx(L, source, length, chunkname, "t");
}
