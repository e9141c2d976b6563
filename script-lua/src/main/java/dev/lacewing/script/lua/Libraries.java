package dev.lacewing.script.lua;

import dev.lacewing.script.lua.lib.RedisLuaLibraries;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;

/**
 * The libraries Redis adds to a script's globals beyond Lua's own: cjson, cmsgpack, struct and bit
 * ({@link RedisLuaLibraries}), each as a read-only table ({@link ReadonlyTable}), as Redis 7.0
 * protects its library tables. Their settings (cjson's depths and precision) live in the
 * functions, not the tables, so they keep working and, as in Redis, last from one script to the
 * next on the same runtime.
 */
final class Libraries {

    private static final String[] NAMES = {"cjson", "cmsgpack", "struct", "bit"};

    private Libraries() {
    }

    /** Installs every extra library into {@code globals}, which is not locked yet. */
    static void install(LuaTable globals) {
        LuaTable fresh = new LuaTable();
        RedisLuaLibraries.install(fresh);
        for (String name : NAMES) {
            ReadonlyTable library = ReadonlyTable.copyOf(fresh.get(name).checktable());
            library.lock();
            globals.rawset(LuaValue.valueOf(name), library);
        }
    }
}
