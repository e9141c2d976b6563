package dev.lacewing.script.lua.lib;

import java.util.function.IntBinaryOperator;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;

/**
 * The {@code bit} table: LuaBitOp 1.0.2 (lua_bit.c) as Redis embeds it. Every argument is
 * normalised to 32 bits the way lua_bit.c's barg does it, by adding 2^52+2^51 to the double and
 * keeping the low word of its bits (so 2^32+1 is 1 and 1.5 rounds to even); every result is that
 * word read as a signed 32-bit integer. Stateless.
 */
final class BitLibrary {

    private static final double NORMALIZER = 6755399441055744.0;

    private BitLibrary() {
    }

    static LuaTable create() {
        LuaTable bit = new LuaTable();
        LibraryFunction.register(bit, "tobit", (f, args) -> result(argument(f, args, 1)));
        LibraryFunction.register(bit, "bnot", (f, args) -> result(~argument(f, args, 1)));
        LibraryFunction.register(bit, "band", (f, args) -> fold(f, args, (a, b) -> a & b));
        LibraryFunction.register(bit, "bor", (f, args) -> fold(f, args, (a, b) -> a | b));
        LibraryFunction.register(bit, "bxor", (f, args) -> fold(f, args, (a, b) -> a ^ b));
        LibraryFunction.register(bit, "lshift", (f, args) -> shift(f, args, (b, n) -> b << n));
        LibraryFunction.register(bit, "rshift", (f, args) -> shift(f, args, (b, n) -> b >>> n));
        LibraryFunction.register(bit, "arshift", (f, args) -> shift(f, args, (b, n) -> b >> n));
        LibraryFunction.register(bit, "rol", (f, args) -> shift(f, args, Integer::rotateLeft));
        LibraryFunction.register(bit, "ror", (f, args) -> shift(f, args, Integer::rotateRight));
        LibraryFunction.register(bit, "bswap", (f, args) -> result(Integer.reverseBytes(argument(f, args, 1))));
        LibraryFunction.register(bit, "tohex", BitLibrary::tohex);
        return bit;
    }

    /** barg: a zero word from a value that is not a number is a type error, as in Lua 5.1. */
    private static int argument(LibraryFunction f, Varargs args, int index) {
        LuaValue number = args.arg(index).tonumber();
        double value = number.isnil() ? 0 : number.todouble();
        int bits = (int) Double.doubleToRawLongBits(value + NORMALIZER);
        if (bits == 0 && number.isnil()) {
            throw f.typeError(args, index, "number");
        }
        return bits;
    }

    private static LuaValue result(int bits) {
        return LuaValue.valueOf(bits);
    }

    /** Arguments are read from the last to the second, then the first, as lua_bit.c's loop does. */
    private static LuaValue fold(LibraryFunction f, Varargs args, IntBinaryOperator operator) {
        int accumulated = argument(f, args, 1);
        for (int index = args.narg(); index > 1; index--) {
            accumulated = operator.applyAsInt(accumulated, argument(f, args, index));
        }
        return result(accumulated);
    }

    private static LuaValue shift(LibraryFunction f, Varargs args, IntBinaryOperator operator) {
        int bits = argument(f, args, 1);
        int count = argument(f, args, 2) & 31;
        return result(operator.applyAsInt(bits, count));
    }

    private static Varargs tohex(LibraryFunction f, Varargs args) {
        int bits = argument(f, args, 1);
        int width = args.narg() < 2 ? 8 : argument(f, args, 2);
        String digits = "0123456789abcdef";
        if (width < 0) {
            width = -width;
            digits = "0123456789ABCDEF";
        }
        if (width > 8 || width < 0) {
            width = 8;
        }
        byte[] hex = new byte[width];
        for (int index = width - 1; index >= 0; index--) {
            hex[index] = (byte) digits.charAt(bits & 15);
            bits >>>= 4;
        }
        return LuaString.valueOf(hex);
    }
}
