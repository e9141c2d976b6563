package dev.lacewing.script.lua;

import dev.lacewing.api.ReplyWriter;
import java.math.BigDecimal;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;

/**
 * A script's result as a reply (script_lua.c's luaReplyToRedisReply): a string is a bulk string, a
 * number an integer (truncated toward zero), true 1 and false a null under RESP2 scripts (booleans
 * under {@code redis.setresp(3)}), nil a null; a table with {@code err} an error, with {@code ok} a
 * status, with {@code double}, {@code big_number}, {@code map}, {@code set} or
 * {@code verbatim_string} that RESP3 type (RESP2 falls back as the writer does), and any other table
 * an array of its elements up to the first nil.
 */
final class LuaReply {

    private LuaReply() {
    }

    static void write(ReplyWriter reply, LuaValue value, int resp) {
        switch (value.type()) {
            case LuaValue.TSTRING -> {
                LuaString string = (LuaString) value;
                reply.bulk(string.m_bytes, string.m_offset, string.m_length);
            }
            case LuaValue.TBOOLEAN -> {
                if (resp == 3) {
                    reply.bool(value.toboolean());
                } else if (value.toboolean()) {
                    reply.integer(1);
                } else {
                    reply.nullBulk();
                }
            }
            case LuaValue.TNUMBER -> reply.integer(truncate(value.todouble()));
            case LuaValue.TTABLE -> table(reply, (LuaTable) value, resp);
            default -> reply.nullBulk();
        }
    }

    private static void table(ReplyWriter reply, LuaTable table, int resp) {
        LuaValue err = table.rawget("err");
        if (err.isstring()) {
            reply.error(err.tojstring());
            return;
        }
        LuaValue ok = table.rawget("ok");
        if (ok.isstring()) {
            reply.simple(ok.tojstring());
            return;
        }
        LuaValue number = table.rawget("double");
        if (number.isnumber()) {
            reply.doubleValue(number.todouble());
            return;
        }
        LuaValue big = table.rawget("big_number");
        if (big.isstring()) {
            reply.bigNumber(big.tojstring());
            return;
        }
        LuaValue map = table.rawget("map");
        if (map.istable()) {
            LuaTable entries = (LuaTable) map;
            reply.map(count(entries));
            forEach(entries, (key, value) -> {
                write(reply, key, resp);
                write(reply, value, resp);
            });
            return;
        }
        LuaValue set = table.rawget("set");
        if (set.istable()) {
            LuaTable members = (LuaTable) set;
            reply.set(count(members));
            forEach(members, (key, value) -> write(reply, key, resp));
            return;
        }
        LuaValue verbatim = table.rawget("verbatim_string");
        if (verbatim.istable()) {
            LuaValue format = verbatim.get("format");
            LuaValue text = verbatim.get("string");
            if (format.isstring() && text.isstring()) {
                reply.verbatim(format.tojstring(), bytes(text.checkstring()));
                return;
            }
        }
        int length = 0;
        while (!table.rawget(length + 1).isnil()) {
            length++;
        }
        reply.array(length);
        for (int i = 1; i <= length; i++) {
            write(reply, table.rawget(i), resp);
        }
    }

    private interface Entry {
        void accept(LuaValue key, LuaValue value);
    }

    private static int count(LuaTable table) {
        int[] count = {0};
        forEach(table, (key, value) -> count[0]++);
        return count[0];
    }

    private static void forEach(LuaTable table, Entry entry) {
        LuaValue key = LuaValue.NIL;
        while (true) {
            Varargs next = table.next(key);
            key = next.arg1();
            if (key.isnil()) {
                return;
            }
            entry.accept(key, next.arg(2));
        }
    }

    /** C's (long long) cast of a double as x86 does it: out of range and NaN give the lowest long. */
    static long truncate(double value) {
        if (Double.isNaN(value) || value >= 0x1p63 || value < -0x1p63) {
            return Long.MIN_VALUE;
        }
        return (long) value;
    }

    /** A number as Lua 5.1 writes it ({@code %.14g}). */
    static String numberText(double value) {
        if (value == Math.rint(value) && Math.abs(value) < 1e15) {
            return Long.toString((long) value);
        }
        if (Double.isNaN(value)) {
            return "nan";
        }
        if (Double.isInfinite(value)) {
            return value > 0 ? "inf" : "-inf";
        }
        String text = new BigDecimal(value).round(new java.math.MathContext(14)).stripTrailingZeros().toString();
        int exponent = text.indexOf('E');
        if (exponent < 0) {
            return text;
        }
        String mantissa = text.substring(0, exponent);
        int power = Integer.parseInt(text.substring(exponent + 1));
        if (power >= -5 && power < 14) {
            return new BigDecimal(text).toPlainString();
        }
        return mantissa + "e" + (power < 0 ? "-" : "+") + (Math.abs(power) < 10 ? "0" : "") + Math.abs(power);
    }

    static byte[] bytes(LuaString string) {
        byte[] bytes = new byte[string.m_length];
        string.copyInto(0, bytes, 0, bytes.length);
        return bytes;
    }
}
