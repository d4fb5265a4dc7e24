#ifndef OKIT_CLUA_H
#define OKIT_CLUA_H

/* Lua 5.4 from Debian's liblua5.4-dev, made usable from Swift.
 * Swift cannot import function-like macros, so the ones the bridge needs are re-declared here as
 * static inline functions. The few lines that must be C (the closure trampoline that raises Lua errors
 * only after Swift frames have returned, the budget hook, the traceback handler) live in shim.c. */

#include <lua5.4/lua.h>
#include <lua5.4/lualib.h>
#include <lua5.4/lauxlib.h>

static const int okit_LUA_REGISTRYINDEX = LUA_REGISTRYINDEX;

static inline int okit_lua_pcall(lua_State *L, int nargs, int nresults, int msgh) {
    return lua_pcall(L, nargs, nresults, msgh);
}
static inline void okit_lua_pop(lua_State *L, int n) { lua_pop(L, n); }
static inline void okit_lua_newtable(lua_State *L) { lua_newtable(L); }
static inline const char *okit_lua_tostring(lua_State *L, int idx) { return lua_tolstring(L, idx, NULL); }
static inline int okit_lua_upvalueindex(int i) { return lua_upvalueindex(i); }
static inline int okit_lua_isnil(lua_State *L, int idx) { return lua_isnil(L, idx); }
static inline void okit_lua_insert(lua_State *L, int idx) { lua_insert(L, idx); }
static inline void okit_lua_remove(lua_State *L, int idx) { lua_remove(L, idx); }
static inline void okit_lua_replace(lua_State *L, int idx) { lua_replace(L, idx); }
static inline void *okit_lua_newuserdata(lua_State *L, size_t size) { return lua_newuserdatauv(L, size, 1); }
static inline void *okit_lua_getextraspace(lua_State *L) { return lua_getextraspace(L); }

/* The version this shim was compiled against, for diagnostics. */
const char *okit_lua_version(void);

/* A traceback message handler for lua_pcall: turns the error into "message\nstack traceback: ...". */
int okit_traceback_handler(lua_State *L);

#endif
