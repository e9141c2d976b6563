package dev.lacewing.script.lua;

import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;

/**
 * A Lua error whose value is a table ({@code error({err=...})}, a failing redis.call): luaj 2.0.3
 * keeps only a message, so the table rides here. luaj prefixes the message with the script line it
 * was raised at ({@code user_script:3: ...}), which the error reply names.
 */
final class ErrorValue extends LuaError {

    /** The key of an error table. */
    static final LuaValue ERR = LuaValue.valueOf("err");

    private final LuaTable value;

    ErrorValue(LuaTable value) {
        super(value.get("err").tojstring());
        this.value = value;
    }

    LuaTable value() {
        return value;
    }

    /** The error's text, as Lua's pcall returns it. */
    LuaValue text() {
        return value.get("err");
    }

    /** An error table {@code {err=message}}. */
    static ErrorValue of(String message) {
        LuaTable table = new LuaTable();
        table.set("err", LuaValue.valueOf(message));
        return new ErrorValue(table);
    }
}
