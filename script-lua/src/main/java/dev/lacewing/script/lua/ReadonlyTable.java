package dev.lacewing.script.lua;

import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;

/**
 * A table scripts may not change once the runtime has filled it (Redis 7.0's readonly tables: the
 * globals and the libraries): every assignment, rawset included, fails with Redis's error.
 *
 * <p>Thread rule: that of its runtime.
 */
final class ReadonlyTable extends LuaTable {

    static final String READONLY = "Attempt to modify a readonly table";

    private boolean locked;

    void lock() {
        locked = true;
    }

    /** Sets a value past the lock (the runtime's KEYS and ARGV before each run). */
    void setUnlocked(String name, LuaValue value) {
        super.rawset(LuaValue.valueOf(name), value);
    }

    @Override
    public void rawset(LuaValue key, LuaValue value) {
        if (locked) {
            throw new org.luaj.vm2.LuaError(READONLY);
        }
        super.rawset(key, value);
    }

    @Override
    public void rawset(int key, LuaValue value) {
        if (locked) {
            throw new org.luaj.vm2.LuaError(READONLY);
        }
        super.rawset(key, value);
    }

    /** A copy of {@code source}'s entries, still unlocked. */
    static ReadonlyTable copyOf(LuaTable source) {
        ReadonlyTable copy = new ReadonlyTable();
        LuaValue key = LuaValue.NIL;
        while (true) {
            org.luaj.vm2.Varargs next = source.next(key);
            key = next.arg1();
            if (key.isnil()) {
                return copy;
            }
            copy.rawset(key, next.arg(2));
        }
    }
}
