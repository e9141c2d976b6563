package dev.lacewing.script.lua.lib;

import org.luaj.vm2.LuaTable;

/**
 * The libraries Redis 7.0 loads into every script's globals besides Lua's own: {@code cjson},
 * {@code cmsgpack}, {@code struct} and {@code bit}, written in Java after Redis's bundled C
 * versions (deps/lua/src/lua_cjson.c, lua_cmsgpack.c, lua_struct.c, lua_bit.c) so that scripts see
 * the same results and the same error messages.
 */
public final class RedisLuaLibraries {

    private RedisLuaLibraries() {
    }

    /** Sets the four library tables as globals; a fresh cjson table has the default settings. */
    public static void install(LuaTable globals) {
        globals.set("cjson", CjsonLibrary.create());
        globals.set("cmsgpack", CmsgpackLibrary.create());
        globals.set("struct", StructLibrary.create());
        globals.set("bit", BitLibrary.create());
    }
}
