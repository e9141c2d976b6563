package dev.lacewing.script.lua.lib;

import java.io.ByteArrayOutputStream;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;

/**
 * The {@code cmsgpack} table: lua-cmsgpack 0.4.0 as Redis embeds it (lua_cmsgpack.c). Numbers that
 * are exactly a 64-bit integer pack as the smallest MessagePack integer, others as a float 32 when
 * that holds them exactly, else a float 64; a table packs as an array when its keys are exactly
 * 1..n (an empty table too), else as a map; tables nested 16 deep pack as nil, which is what ends
 * a cyclic table; functions, userdata and nil pack as nil. Unpacking counts the Lua stack slots the
 * C code would hold, so the limit of 8000 stack slots answers the same "stack overflow" errors.
 * Stateless.
 */
final class CmsgpackLibrary {

    private static final int MAX_NESTING = 16;
    private static final int MAX_STACK_SLOTS = 8000;

    private CmsgpackLibrary() {
    }

    static LuaTable create() {
        LuaTable cmsgpack = new LuaTable();
        LibraryFunction.register(cmsgpack, "pack", CmsgpackLibrary::pack);
        LibraryFunction.register(cmsgpack, "unpack", (f, args) -> unpack(f, args, 0, 0));
        LibraryFunction.register(cmsgpack, "unpack_one",
                (f, args) -> unpack(f, args, 1, f.optInteger(args, 2, 0)));
        LibraryFunction.register(cmsgpack, "unpack_limit",
                (f, args) -> unpack(f, args, f.checkInteger(args, 2), f.optInteger(args, 3, 0)));
        cmsgpack.set("_NAME", "cmsgpack");
        cmsgpack.set("_VERSION", "lua-cmsgpack 0.4.0");
        cmsgpack.set("_COPYRIGHT", "Copyright (C) 2012, Salvatore Sanfilippo");
        cmsgpack.set("_DESCRIPTION", "MessagePack C implementation for Lua");
        return cmsgpack;
    }

    private static Varargs pack(LibraryFunction f, Varargs args) {
        if (args.narg() == 0) {
            throw f.argError(0, "MessagePack pack needs input.");
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int index = 1; index <= args.narg(); index++) {
            encode(out, args.arg(index), 0);
        }
        return LuaString.valueOf(out.toByteArray());
    }

    private static void encode(ByteArrayOutputStream out, LuaValue value, int level) {
        switch (value.type()) {
            case LuaValue.TSTRING -> encodeBytes(out, value.strvalue());
            case LuaValue.TBOOLEAN -> out.write(value.toboolean() ? 0xc3 : 0xc2);
            case LuaValue.TNUMBER -> encodeNumber(out, value.todouble());
            case LuaValue.TTABLE -> {
                if (level == MAX_NESTING) {
                    out.write(0xc0);
                } else {
                    encodeTable(out, (LuaTable) value, level);
                }
            }
            default -> out.write(0xc0);
        }
    }

    private static void encodeBytes(ByteArrayOutputStream out, LuaString string) {
        int length = string.length();
        if (length < 32) {
            out.write(0xa0 | length);
        } else if (length <= 0xff) {
            out.write(0xd9);
            out.write(length);
        } else if (length <= 0xffff) {
            out.write(0xda);
            writeBigEndian(out, length, 2);
        } else {
            out.write(0xdb);
            writeBigEndian(out, length, 4);
        }
        out.write(string.m_bytes, string.m_offset, length);
    }

    /** IS_INT64_EQUIVALENT as x86-64 evaluates it: 2^63 itself converts to INT64_MIN, so not. */
    private static void encodeNumber(ByteArrayOutputStream out, double number) {
        if (number >= -0x1p63 && number < 0x1p63 && (long) number == number) {
            encodeInteger(out, (long) number);
        } else {
            float single = (float) number;
            if (single == number) {
                out.write(0xca);
                writeBigEndian(out, Float.floatToRawIntBits(single), 4);
            } else {
                out.write(0xcb);
                writeBigEndian(out, Double.doubleToRawLongBits(number), 8);
            }
        }
    }

    private static void encodeInteger(ByteArrayOutputStream out, long n) {
        if (n >= 0) {
            if (n <= 127) {
                out.write((int) n);
            } else if (n <= 0xff) {
                out.write(0xcc);
                out.write((int) n);
            } else if (n <= 0xffff) {
                out.write(0xcd);
                writeBigEndian(out, n, 2);
            } else if (n <= 0xffffffffL) {
                out.write(0xce);
                writeBigEndian(out, n, 4);
            } else {
                out.write(0xcf);
                writeBigEndian(out, n, 8);
            }
        } else if (n >= -32) {
            out.write((int) n & 0xff);
        } else if (n >= -128) {
            out.write(0xd0);
            out.write((int) n & 0xff);
        } else if (n >= -32768) {
            out.write(0xd1);
            writeBigEndian(out, n, 2);
        } else if (n >= -2147483648L) {
            out.write(0xd2);
            writeBigEndian(out, n, 4);
        } else {
            out.write(0xd3);
            writeBigEndian(out, n, 8);
        }
    }

    private static void writeBigEndian(ByteArrayOutputStream out, long value, int size) {
        for (int shift = 8 * (size - 1); shift >= 0; shift -= 8) {
            out.write((int) (value >>> shift) & 0xff);
        }
    }

    private static void encodeTable(ByteArrayOutputStream out, LuaTable table, int level) {
        if (isArray(table)) {
            int length = table.length();
            encodeHeader(out, length, 0x90, 0xdc, 0xdd);
            for (int index = 1; index <= length; index++) {
                encode(out, table.get(index), level + 1);
            }
        } else {
            int count = 0;
            for (Varargs entry = table.next(LuaValue.NIL); !entry.arg1().isnil(); entry = table.next(entry.arg1())) {
                count++;
            }
            encodeHeader(out, count, 0x80, 0xde, 0xdf);
            for (Varargs entry = table.next(LuaValue.NIL); !entry.arg1().isnil(); entry = table.next(entry.arg1())) {
                encode(out, entry.arg1(), level + 1);
                encode(out, entry.arg(2), level + 1);
            }
        }
    }

    private static void encodeHeader(ByteArrayOutputStream out, long count, int fix, int sixteen, int thirtyTwo) {
        if (count <= 15) {
            out.write(fix | (int) count);
        } else if (count <= 65535) {
            out.write(sixteen);
            writeBigEndian(out, count, 2);
        } else {
            out.write(thirtyTwo);
            writeBigEndian(out, count, 4);
        }
    }

    /** Keys exactly 1..n: each a positive number equal to its int value, the largest one n. */
    private static boolean isArray(LuaTable table) {
        int count = 0;
        int max = 0;
        for (Varargs entry = table.next(LuaValue.NIL); !entry.arg1().isnil(); entry = table.next(entry.arg1())) {
            LuaValue key = entry.arg1();
            if (key.type() != LuaValue.TNUMBER) {
                return false;
            }
            double number = key.todouble();
            if (number <= 0 || Double.isInfinite(number) || (int) number != number) {
                return false;
            }
            max = Math.max(max, (int) number);
            count++;
        }
        return max == count;
    }

    /** The input and how far decoding got, with the Lua stack slots the C decoder would hold. */
    private static final class Cursor {
        final LuaString input;
        int position;
        int slots;

        Cursor(LuaString input, int position) {
            this.input = input;
            this.position = position;
            this.slots = 1;
        }

        int left() {
            return input.length() - position;
        }

        int at(int offset) {
            return input.luaByte(position + offset);
        }

        void need(long bytes) {
            if (left() < bytes) {
                throw new LuaError("Missing bytes in input.");
            }
        }

        void reserve(String where) {
            if (slots + 1 > MAX_STACK_SLOTS) {
                throw new LuaError("stack overflow (" + where + ")");
            }
        }

        long bigEndian(int offset, int size) {
            long value = 0;
            for (int index = 0; index < size; index++) {
                value = (value << 8) | at(offset + index);
            }
            return value;
        }

        LuaString bytes(int offset, long length) {
            need(offset + length);
            LuaString string = input.substring(position + offset, position + offset + (int) length);
            position += offset + (int) length;
            return string;
        }
    }

    private static Varargs unpack(LibraryFunction f, Varargs args, long limit, long offset) {
        LuaString input = f.checkString(args, 1);
        int length = input.length();
        boolean decodeAll = limit == 0 && offset == 0;
        if (offset < 0 || limit < 0) {
            throw new LuaError("Invalid request to unpack with offset of " + (int) offset + " and limit of "
                    + length + ".");
        } else if (offset > length) {
            throw new LuaError("Start offset " + (int) offset + " greater than input length " + length + ".");
        }
        if (decodeAll) {
            limit = Integer.MAX_VALUE;
        }
        Cursor cursor = new Cursor(input, (int) offset);
        List<LuaValue> results = new ArrayList<>();
        if (!decodeAll) {
            results.add(LuaValue.NIL);
        }
        for (int count = 0; cursor.left() > 0 && count < limit; count++) {
            results.add(decode(cursor));
        }
        if (!decodeAll) {
            results.set(0, LuaValue.valueOf(cursor.left() == 0 ? -1 : cursor.position));
        }
        return LuaValue.varargsOf(results.toArray(new LuaValue[0]));
    }

    private static final String TOO_MANY_VALUES =
            "too many return values at once; use unpack_one or unpack_limit instead.";

    /** A table being filled: how many entries remain, and a map's key waiting for its value. */
    private static final class Container {
        final LuaTable table = new LuaTable();
        final boolean map;
        long remaining;
        int nextIndex = 1;
        LuaValue key;

        Container(boolean map, long remaining) {
            this.map = map;
            this.remaining = remaining;
        }
    }

    /**
     * Decodes one value; it then holds one more stack slot, as the value pushed in C does. Nested
     * tables are held in a list rather than on the Java stack, since the C decoder goes as deep
     * as its Lua stack allows (about 4000 arrays).
     */
    private static LuaValue decode(Cursor c) {
        ArrayDeque<Container> open = new ArrayDeque<>();
        while (true) {
            Container parent = open.peek();
            if (parent != null && !parent.map) {
                c.slots++;
            }
            c.need(1);
            c.reserve(TOO_MANY_VALUES);
            LuaValue value = scalarOrNull(c);
            if (value == null) {
                Container container = openContainer(c);
                c.slots++;
                if (!container.map) {
                    c.reserve("in function mp_decode_to_lua_array");
                }
                if (container.remaining > 0) {
                    open.push(container);
                    continue;
                }
                c.slots--;
                value = container.table;
            }
            c.slots++;
            while (true) {
                Container top = open.peek();
                if (top == null) {
                    return value;
                }
                if (top.map && top.key == null) {
                    // A nil key is held as NIL, not null, until its value is decoded.
                    top.key = value;
                    break;
                }
                if (top.map) {
                    if (top.key.isnil()) {
                        // lua_settable's own error, raised from C code: no position in front.
                        throw new LuaError("table index is nil", 0);
                    }
                    top.table.set(top.key, value);
                    top.key = null;
                } else {
                    top.table.set(top.nextIndex++, value);
                }
                c.slots -= 2;
                if (--top.remaining > 0) {
                    break;
                }
                open.pop();
                value = top.table;
            }
        }
    }

    /** The container whose header is at the cursor, the header consumed. */
    private static Container openContainer(Cursor c) {
        int type = c.at(0);
        switch (type) {
            case 0xdc, 0xde -> {
                c.need(3);
                long count = c.bigEndian(1, 2);
                c.position += 3;
                return new Container(type == 0xde, count);
            }
            case 0xdd, 0xdf -> {
                c.need(5);
                long count = c.bigEndian(1, 4);
                c.position += 5;
                return new Container(type == 0xdf, count);
            }
            default -> {
                c.position += 1;
                return new Container((type & 0xf0) == 0x80, type & 0xf);
            }
        }
    }

    /** The scalar at the cursor, consumed; null when a table starts there. */
    private static LuaValue scalarOrNull(Cursor c) {
        int type = c.at(0);
        switch (type) {
            case 0xcc:
                return fixed(c, 1, LuaValue.valueOf(c.left() >= 2 ? c.at(1) : 0));
            case 0xd0:
                return fixed(c, 1, LuaValue.valueOf(c.left() >= 2 ? (byte) c.at(1) : 0));
            case 0xcd:
                return fixed(c, 2, LuaValue.valueOf(c.left() >= 3 ? (int) c.bigEndian(1, 2) : 0));
            case 0xd1:
                return fixed(c, 2, LuaValue.valueOf(c.left() >= 3 ? (short) c.bigEndian(1, 2) : 0));
            case 0xce:
                return fixed(c, 4, LuaValue.valueOf(c.left() >= 5 ? (double) c.bigEndian(1, 4) : 0));
            case 0xd2:
                return fixed(c, 4, LuaValue.valueOf(c.left() >= 5 ? (int) c.bigEndian(1, 4) : 0));
            case 0xcf:
            case 0xd3:
                // lua_pushinteger takes a signed 64-bit integer: a uint 64 over 2^63 comes out negative.
                return fixed(c, 8, LuaValue.valueOf(c.left() >= 9 ? (double) c.bigEndian(1, 8) : 0));
            case 0xc0:
                return fixed(c, 0, LuaValue.NIL);
            case 0xc3:
                return fixed(c, 0, LuaValue.TRUE);
            case 0xc2:
                return fixed(c, 0, LuaValue.FALSE);
            case 0xca:
                return fixed(c, 4,
                        LuaValue.valueOf(c.left() >= 5 ? Float.intBitsToFloat((int) c.bigEndian(1, 4)) : 0));
            case 0xcb:
                return fixed(c, 8,
                        LuaValue.valueOf(c.left() >= 9 ? Double.longBitsToDouble(c.bigEndian(1, 8)) : 0));
            case 0xd9:
                c.need(2);
                return c.bytes(2, c.at(1));
            case 0xda:
                c.need(3);
                return c.bytes(3, c.bigEndian(1, 2));
            case 0xdb:
                c.need(5);
                return c.bytes(5, c.bigEndian(1, 4));
            case 0xdc, 0xdd, 0xde, 0xdf:
                return null;
            default:
                if ((type & 0x80) == 0) {
                    return fixed(c, 0, LuaValue.valueOf(type));
                } else if ((type & 0xe0) == 0xe0) {
                    return fixed(c, 0, LuaValue.valueOf((byte) type));
                } else if ((type & 0xe0) == 0xa0) {
                    return c.bytes(1, type & 0x1f);
                } else if ((type & 0xe0) == 0x80) {
                    return null;
                }
                throw new LuaError("Bad data format in input.");
        }
    }

    /** A value of a fixed size after its type byte; the value was read only when the bytes are there. */
    private static LuaValue fixed(Cursor c, int size, LuaValue value) {
        c.need(1 + size);
        c.position += 1 + size;
        return value;
    }
}
