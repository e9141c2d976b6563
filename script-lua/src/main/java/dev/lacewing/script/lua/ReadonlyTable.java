package dev.lacewing.script.lua;

import java.util.ArrayList;
import java.util.List;
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

    /**
     * Locks the table, first rebuilding its hash part a quarter full. luaj probes linearly and grows
     * a table only when it is 7/8 full, so a full globals table made every {@code redis.call} walk
     * a run of slots, comparing strings byte by byte; sparse, a lookup mostly ends at its first slot.
     */
    void lock() {
        List<LuaValue> keys = new ArrayList<>();
        List<LuaValue> values = new ArrayList<>();
        LuaValue key = LuaValue.NIL;
        while (true) {
            org.luaj.vm2.Varargs next = next(key);
            key = next.arg1();
            if (key.isnil()) {
                break;
            }
            keys.add(key);
            values.add(next.arg(2));
        }
        presize(0, 4 * keys.size() + 1);
        for (int i = 0; i < keys.size(); i++) {
            super.rawset(keys.get(i), values.get(i));
        }
        locked = true;
    }

    /** Sets a value past the lock (the runtime's KEYS and ARGV before each run); {@code name} is already there. */
    void setUnlocked(LuaValue name, LuaValue value) {
        super.rawset(name, value);
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
