package dev.lacewing.script.lua.lib;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;

/**
 * The {@code struct} table: Roberto Ierusalimschy's struct.c 1.4 as Redis embeds it
 * (lua_struct.c), with the sizes of Redis's x86-64 build: short 2, long and size_t 8, int 4,
 * float 4, double 8, native order little endian, maximum alignment 8, integral sizes up to 32
 * bytes held in a 64-bit integer as the C code holds them. Stateless.
 */
final class StructLibrary {

    private static final int MAX_INT_SIZE = 32;
    private static final int MAX_ALIGN = 8;
    private static final int MAX_RESULTS = 8000;

    private StructLibrary() {
    }

    static LuaTable create() {
        LuaTable struct = new LuaTable();
        LibraryFunction.register(struct, "pack", StructLibrary::pack);
        LibraryFunction.register(struct, "unpack", StructLibrary::unpack);
        LibraryFunction.register(struct, "size", StructLibrary::size);
        return struct;
    }

    /** The format's cursor and its current byte order and alignment (struct.c's Header). */
    private static final class Format {
        final LuaString text;
        int position;
        boolean littleEndian = true;
        int align = 1;

        Format(LuaString text) {
            this.text = text;
        }

        boolean hasNext() {
            return position < text.length() && text.luaByte(position) != 0;
        }

        int next() {
            return text.luaByte(position++);
        }

        boolean digitNext() {
            return position < text.length() && isDigit(text.luaByte(position));
        }

        int number(int fallback) {
            if (!digitNext()) {
                return fallback;
            }
            int value = 0;
            do {
                int digit = text.luaByte(position++) - '0';
                if (value > Integer.MAX_VALUE / 10 || value * 10 > Integer.MAX_VALUE - digit) {
                    throw new LuaError("integral size overflow");
                }
                value = value * 10 + digit;
            } while (digitNext());
            return value;
        }

        int optionSize(int option) {
            switch (option) {
                case 'B', 'b', 'x':
                    return 1;
                case 'H', 'h':
                    return 2;
                case 'L', 'l', 'T', 'd':
                    return 8;
                case 'f':
                    return 4;
                case 'c':
                    return number(1);
                case 'i', 'I': {
                    int size = number(4);
                    if (size > MAX_INT_SIZE) {
                        throw new LuaError("integral size " + size + " is larger than limit of " + MAX_INT_SIZE);
                    }
                    return size;
                }
                default:
                    return 0;
            }
        }

        long toAlign(long length, int option, long size) {
            if (size == 0 || option == 'c') {
                return 0;
            }
            if (size > align) {
                size = align;
            }
            return (size - (length & (size - 1))) & (size - 1);
        }

        void control(LibraryFunction f, int option) {
            switch (option) {
                case ' ':
                    return;
                case '>':
                    littleEndian = false;
                    return;
                case '<':
                    littleEndian = true;
                    return;
                case '!': {
                    int alignment = number(MAX_ALIGN);
                    if (alignment <= 0 || (alignment & (alignment - 1)) != 0) {
                        throw new LuaError("alignment " + alignment + " is not a power of 2");
                    }
                    align = alignment;
                    return;
                }
                default:
                    throw f.argError(1, "invalid format option '" + (char) option + "'");
            }
        }
    }

    private static Varargs pack(LibraryFunction f, Varargs args) {
        Format format = new Format(f.checkString(args, 1));
        args = withTrailingNil(args);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int argument = 2;
        long total = 0;
        while (format.hasNext()) {
            int option = format.next();
            long size = format.optionSize(option);
            long padding = format.toAlign(total, option, size);
            total += padding;
            for (long index = 0; index < padding; index++) {
                out.write(0);
            }
            switch (option) {
                case 'b', 'B', 'h', 'H', 'l', 'L', 'T', 'i', 'I':
                    putInteger(out, f.checkNumber(args, argument++), format.littleEndian, (int) size);
                    break;
                case 'x':
                    out.write(0);
                    break;
                case 'f':
                    putBytes(out, Float.floatToRawIntBits((float) f.checkNumber(args, argument++)), 4,
                            format.littleEndian);
                    break;
                case 'd':
                    putBytes(out, Double.doubleToRawLongBits(f.checkNumber(args, argument++)), 8,
                            format.littleEndian);
                    break;
                case 'c', 's': {
                    LuaString string = f.checkString(args, argument++);
                    if (size == 0) {
                        size = string.length();
                    }
                    if (string.length() < size) {
                        // struct.c names the argument after the string, having counted it already.
                        throw f.argError(argument, "string too short");
                    }
                    out.write(string.m_bytes, string.m_offset, (int) size);
                    if (option == 's') {
                        out.write(0);
                        size++;
                    }
                    break;
                }
                default:
                    format.control(f, option);
            }
            total += size;
        }
        return LuaString.valueOf(out.toByteArray());
    }

    /** b_pack pushes a nil after its arguments, so a missing one reads as nil rather than no value. */
    private static Varargs withTrailingNil(Varargs args) {
        LuaValue[] values = new LuaValue[args.narg() + 1];
        for (int index = 0; index < args.narg(); index++) {
            values[index] = args.arg(index + 1);
        }
        values[args.narg()] = LuaValue.NIL;
        return LuaValue.varargsOf(values);
    }

    /** C's conversion of the double to an unsigned long: negatives through long, as struct.c. */
    private static void putInteger(ByteArrayOutputStream out, double number, boolean littleEndian, int size) {
        long value;
        if (number < 0) {
            value = (long) number;
        } else if (number < 0x1p63) {
            value = (long) number;
        } else if (number < 0x1p64) {
            value = (long) (number - 0x1p63) ^ Long.MIN_VALUE;
        } else {
            value = 0;
        }
        byte[] bytes = new byte[size];
        for (int index = 0; index < size; index++) {
            bytes[littleEndian ? index : size - 1 - index] = (byte) value;
            value >>>= 8;
        }
        out.write(bytes, 0, size);
    }

    private static void putBytes(ByteArrayOutputStream out, long bits, int size, boolean littleEndian) {
        for (int index = 0; index < size; index++) {
            int shift = 8 * (littleEndian ? index : size - 1 - index);
            out.write((int) (bits >>> shift));
        }
    }

    private static long getBytes(LuaString data, int position, int size, boolean littleEndian) {
        long value = 0;
        for (int index = 0; index < size; index++) {
            int at = littleEndian ? position + size - 1 - index : position + index;
            value = (value << 8) | data.luaByte(at);
        }
        return value;
    }

    private static Varargs unpack(LibraryFunction f, Varargs args) {
        Format format = new Format(f.checkString(args, 1));
        LuaString data = f.checkString(args, 2);
        long length = data.length();
        long start = f.optInteger(args, 3, 1);
        if (start <= 0) {
            throw f.argError(3, "offset must be 1 or greater");
        }
        long position = start - 1;
        List<LuaValue> results = new ArrayList<>();
        while (format.hasNext()) {
            int option = format.next();
            long size = format.optionSize(option);
            position += format.toAlign(position, option, size);
            if (position + size > length) {
                throw f.argError(2, "data string too short");
            }
            if (results.size() + 2 >= MAX_RESULTS) {
                throw new LuaError("stack overflow (too many results)");
            }
            int at = (int) position;
            switch (option) {
                case 'b', 'B', 'h', 'H', 'l', 'L', 'T', 'i', 'I': {
                    long value = getBytes(data, at, (int) size, format.littleEndian);
                    double number;
                    if (option >= 'a' && option <= 'z') {
                        long mask = -1L << (size * 8 - 1);
                        if ((value & mask) != 0) {
                            value |= mask;
                        }
                        number = value;
                    } else {
                        number = unsignedToDouble(value);
                    }
                    results.add(LuaValue.valueOf(number));
                    break;
                }
                case 'x':
                    break;
                case 'f':
                    results.add(LuaValue.valueOf(
                            Float.intBitsToFloat((int) getBytes(data, at, 4, format.littleEndian))));
                    break;
                case 'd':
                    results.add(LuaValue.valueOf(
                            Double.longBitsToDouble(getBytes(data, at, 8, format.littleEndian))));
                    break;
                case 'c': {
                    if (size == 0) {
                        LuaValue previous = results.isEmpty() ? data : results.get(results.size() - 1);
                        if (!previous.isnumber()) {
                            throw new LuaError("format 'c0' needs a previous size");
                        }
                        size = (long) previous.todouble();
                        if (!results.isEmpty()) {
                            results.remove(results.size() - 1);
                        }
                        if (size < 0 || position + size > length) {
                            throw f.argError(2, "data string too short");
                        }
                    }
                    results.add(data.substring(at, at + (int) size));
                    break;
                }
                case 's': {
                    int end = at;
                    while (end < length && data.luaByte(end) != 0) {
                        end++;
                    }
                    if (end == length) {
                        throw new LuaError("unfinished string in data");
                    }
                    size = end - at + 1;
                    results.add(data.substring(at, end));
                    break;
                }
                default:
                    format.control(f, option);
            }
            position += size;
        }
        results.add(LuaValue.valueOf(position + 1));
        return LuaValue.varargsOf(results.toArray(new LuaValue[0]));
    }

    private static boolean isDigit(int character) {
        return character >= '0' && character <= '9';
    }

    private static double unsignedToDouble(long value) {
        if (value >= 0) {
            return value;
        }
        return ((double) ((value >>> 1) | (value & 1))) * 2.0;
    }

    private static Varargs size(LibraryFunction f, Varargs args) {
        Format format = new Format(f.checkString(args, 1));
        long position = 0;
        while (format.hasNext()) {
            int option = format.next();
            long size = format.optionSize(option);
            position += format.toAlign(position, option, size);
            if (option == 's') {
                throw f.argError(1, "option 's' has no fixed size");
            } else if (option == 'c' && size == 0) {
                throw f.argError(1, "option 'c0' has no fixed size");
            }
            if (!(isDigit(option) || (option | 0x20) >= 'a' && (option | 0x20) <= 'z')) {
                format.control(f, option);
            }
            position += size;
        }
        return LuaValue.valueOf(position);
    }
}
