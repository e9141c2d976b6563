package dev.lacewing.script.lua;

import java.nio.charset.StandardCharsets;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;

/**
 * A command's reply, as RESP bytes, turned into the Lua value Redis gives a script (script_lua.c's
 * redisProtocolToLuaType): integers are numbers, bulk strings strings, a null false in RESP2 and nil
 * in RESP3, a status {@code {ok=...}}, an error {@code {err=...}}, arrays tables; RESP3's map, set,
 * double, boolean, big number and verbatim string as {@code {map=...}}, {@code {set=...}},
 * {@code {double=...}}, true/false, {@code {big_number=...}} and
 * {@code {verbatim_string={format=..., string=...}}}.
 */
final class RespToLua {

    private static final LuaValue OK = LuaValue.valueOf("ok");

    private final byte[] bytes;
    private int position;

    private RespToLua(byte[] bytes) {
        this.bytes = bytes;
    }

    /**
     * The strings it makes share {@code reply}'s bytes, not copies of them: the caller gives up the
     * array (a reply is made for this one parse), and Lua strings never change their bytes.
     */
    static LuaValue parse(byte[] reply) {
        return new RespToLua(reply).read();
    }

    private LuaValue read() {
        byte type = bytes[position++];
        switch (type) {
            case '+':
                return field(OK, line());
            case '-':
                return field(ErrorValue.ERR, line());
            case ':':
                return LuaValue.valueOf((double) number());
            case '$': {
                int length = (int) number();
                if (length < 0) {
                    return LuaValue.FALSE;
                }
                LuaString value = LuaString.valueOf(bytes, position, length);
                position += length + 2;
                return value;
            }
            case '*':
            case '>': {
                int count = (int) number();
                if (count < 0) {
                    return LuaValue.FALSE;
                }
                LuaTable table = new LuaTable(count, 0);
                for (int i = 1; i <= count; i++) {
                    table.rawset(i, read());
                }
                return table;
            }
            case '%': {
                int pairs = Integer.parseInt(text());
                LuaTable map = new LuaTable();
                for (int i = 0; i < pairs; i++) {
                    LuaValue key = read();
                    map.rawset(key, read());
                }
                return field("map", map);
            }
            case '~': {
                int count = Integer.parseInt(text());
                LuaTable set = new LuaTable();
                for (int i = 0; i < count; i++) {
                    set.rawset(read(), LuaValue.TRUE);
                }
                return field("set", set);
            }
            case ',':
                return field("double", LuaValue.valueOf(parseDouble(text())));
            case '_':
                position += 2;
                return LuaValue.NIL;
            case '#': {
                boolean value = bytes[position] == 't';
                position += 3;
                return LuaValue.valueOf(value);
            }
            case '(':
                return field("big_number", LuaValue.valueOf(text()));
            case '=': {
                int length = Integer.parseInt(text());
                String format = new String(bytes, position, 3, StandardCharsets.US_ASCII);
                LuaString value = LuaString.valueOf(java.util.Arrays.copyOfRange(bytes, position + 4, position + length));
                position += length + 2;
                LuaTable verbatim = new LuaTable();
                verbatim.set("format", LuaValue.valueOf(format));
                verbatim.set("string", value);
                return field("verbatim_string", verbatim);
            }
            case '|': {
                int pairs = Integer.parseInt(text());
                for (int i = 0; i < 2 * pairs; i++) {
                    read();
                }
                return read();
            }
            default:
                throw new IllegalArgumentException("not a RESP reply: " + (char) type);
        }
    }

    private static double parseDouble(String text) {
        return switch (text) {
            case "inf" -> Double.POSITIVE_INFINITY;
            case "-inf" -> Double.NEGATIVE_INFINITY;
            case "nan" -> Double.NaN;
            default -> Double.parseDouble(text);
        };
    }

    private static LuaTable field(String name, LuaValue value) {
        return field(LuaValue.valueOf(name), value);
    }

    private static LuaTable field(LuaValue name, LuaValue value) {
        LuaTable table = new LuaTable(0, 1);
        table.rawset(name, value);
        return table;
    }

    /** The line's signed decimal integer (a length, a count or an integer reply), read in place. */
    private long number() {
        boolean negative = bytes[position] == '-';
        if (negative) {
            position++;
        }
        long value = 0;
        while (bytes[position] != '\r') {
            value = value * 10 + (bytes[position++] - '0');
        }
        position += 2;
        return negative ? -value : value;
    }

    /** The rest of the line as a Lua string of its bytes. */
    private LuaString line() {
        int end = lineEnd();
        LuaString value = LuaString.valueOf(bytes, position, end - position);
        position = end + 2;
        return value;
    }

    private String text() {
        int end = lineEnd();
        String value = new String(bytes, position, end - position, StandardCharsets.US_ASCII);
        position = end + 2;
        return value;
    }

    private int lineEnd() {
        int end = position;
        while (bytes[end] != '\r') {
            end++;
        }
        return end;
    }
}
