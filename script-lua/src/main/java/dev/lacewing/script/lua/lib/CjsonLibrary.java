package dev.lacewing.script.lua.lib;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaUserdata;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;

/**
 * The {@code cjson} table: Lua CJSON 2.1.0 as Redis embeds it (lua_cjson.c, fpconv.c). Each table
 * made by {@link #create()} or {@code cjson.new()} has its own settings, which a script may change
 * with the configuration functions; a table is used by the one thread that runs its script.
 *
 * <p>Encoding: numbers print as C's %.14g (precision 1..14), NaN and infinities are refused unless
 * encode_invalid_numbers says "on" or "null"; strings are bytes, with '"', '\\', '/', DEL and
 * control characters escaped; a table whose keys are all positive integers is an array, unless it
 * is excessively sparse (largest index over ratio x count and over safe): an error, or an object
 * when encode_sparse_array converts; any other table, the empty one included, is an object with
 * number or string keys; nesting deeper than encode_max_depth (1000), or deeper than the C Lua
 * stack of 8000 slots holds (about 8000 arrays or 4000 objects), is an error. Objects list their
 * keys in luaj's table order, which is not C Lua's: a multi-key object's text can differ from
 * Redis's, its decoded value cannot.
 *
 * <p>Decoding follows the C parser byte for byte, a NUL ending the text as it does there: numbers
 * as C's strtod reads them (hexadecimal, inf and nan included unless decode_invalid_numbers is
 * off), \\u escapes and surrogate pairs to UTF-8, null as {@link #NULL}, nesting deeper than
 * decode_max_depth (1000) or the C Lua stack an error, and the C parser's error messages with
 * 1-based positions.
 */
final class CjsonLibrary {

    /** cjson.null: JSON null in a table, where nil cannot be stored; the same in every cjson table. */
    static final LuaUserdata NULL = new LuaUserdata(new Object() {
        @Override
        public String toString() {
            return "cjson.null";
        }
    });

    private static final String[] ESCAPES = new String[256];

    static {
        for (int c = 0; c < 32; c++) {
            ESCAPES[c] = String.format("\\u%04x", c);
        }
        ESCAPES['\b'] = "\\b";
        ESCAPES['\t'] = "\\t";
        ESCAPES['\n'] = "\\n";
        ESCAPES['\f'] = "\\f";
        ESCAPES['\r'] = "\\r";
        ESCAPES['"'] = "\\\"";
        ESCAPES['\\'] = "\\\\";
        ESCAPES['/'] = "\\/";
        ESCAPES[127] = "\\u007f";
    }

    /** LUAI_MAXCSTACK: the Lua stack slots one C function may hold. */
    private static final int LUA_STACK_SLOTS = 8000;

    private static final String[] BOOLEAN_OPTIONS = {"off", "on"};
    private static final String[] INVALID_NUMBER_OPTIONS = {"off", "on", "null"};

    /** One cjson table's settings, with lua_cjson.c's defaults. */
    private static final class Settings {
        int sparseConvert = 0;
        int sparseRatio = 2;
        int sparseSafe = 10;
        int encodeMaxDepth = 1000;
        int decodeMaxDepth = 1000;
        int encodeInvalidNumbers = 0;
        int decodeInvalidNumbers = 1;
        int encodeKeepBuffer = 1;
        int encodeNumberPrecision = 14;
    }

    private CjsonLibrary() {
    }

    static LuaTable create() {
        Settings settings = new Settings();
        LuaTable cjson = new LuaTable();
        LibraryFunction.register(cjson, "encode", (f, args) -> encode(f, args, settings));
        LibraryFunction.register(cjson, "decode", (f, args) -> decode(f, args, settings));
        LibraryFunction.register(cjson, "encode_sparse_array", (f, args) -> {
            checkArgumentCount(f, args, 3);
            LuaValue convert = enumOption(f, args, 1, BOOLEAN_OPTIONS, v -> settings.sparseConvert = v,
                    settings.sparseConvert);
            LuaValue ratio = integerOption(f, args, 2, 0, Integer.MAX_VALUE, v -> settings.sparseRatio = v,
                    settings.sparseRatio);
            LuaValue safe = integerOption(f, args, 3, 0, Integer.MAX_VALUE, v -> settings.sparseSafe = v,
                    settings.sparseSafe);
            return LuaValue.varargsOf(convert, ratio, safe);
        });
        LibraryFunction.register(cjson, "encode_max_depth", (f, args) -> {
            checkArgumentCount(f, args, 1);
            return integerOption(f, args, 1, 1, Integer.MAX_VALUE, v -> settings.encodeMaxDepth = v,
                    settings.encodeMaxDepth);
        });
        LibraryFunction.register(cjson, "decode_max_depth", (f, args) -> {
            checkArgumentCount(f, args, 1);
            return integerOption(f, args, 1, 1, Integer.MAX_VALUE, v -> settings.decodeMaxDepth = v,
                    settings.decodeMaxDepth);
        });
        LibraryFunction.register(cjson, "encode_number_precision", (f, args) -> {
            checkArgumentCount(f, args, 1);
            return integerOption(f, args, 1, 1, 14, v -> settings.encodeNumberPrecision = v,
                    settings.encodeNumberPrecision);
        });
        LibraryFunction.register(cjson, "encode_keep_buffer", (f, args) -> {
            checkArgumentCount(f, args, 1);
            return enumOption(f, args, 1, BOOLEAN_OPTIONS, v -> settings.encodeKeepBuffer = v,
                    settings.encodeKeepBuffer);
        });
        LibraryFunction.register(cjson, "encode_invalid_numbers", (f, args) -> {
            checkArgumentCount(f, args, 1);
            return enumOption(f, args, 1, INVALID_NUMBER_OPTIONS, v -> settings.encodeInvalidNumbers = v,
                    settings.encodeInvalidNumbers);
        });
        LibraryFunction.register(cjson, "decode_invalid_numbers", (f, args) -> {
            checkArgumentCount(f, args, 1);
            return enumOption(f, args, 1, BOOLEAN_OPTIONS, v -> settings.decodeInvalidNumbers = v,
                    settings.decodeInvalidNumbers);
        });
        LibraryFunction.register(cjson, "new", (f, args) -> create());
        cjson.set("null", NULL);
        cjson.set("_NAME", "cjson");
        cjson.set("_VERSION", "2.1.0");
        return cjson;
    }

    // ===== Configuration =====

    private interface Setter {
        void set(int value);
    }

    private static void checkArgumentCount(LibraryFunction f, Varargs args, int most) {
        if (args.narg() > most) {
            throw f.argError(most + 1, "found too many arguments");
        }
    }

    /** json_integer_option: the range error names argument 1 whichever argument it was, as in C. */
    private static LuaValue integerOption(LibraryFunction f, Varargs args, int index, int min, int max,
            Setter setter, int current) {
        if (!args.arg(index).isnil()) {
            long value = f.checkInteger(args, index);
            if (value < min || value > max) {
                throw f.argError(1, "expected integer between " + min + " and " + max);
            }
            setter.set((int) value);
            current = (int) value;
        }
        return LuaValue.valueOf(current);
    }

    /** json_enum_option with bool_true 1: a boolean, or one of the option names. */
    private static LuaValue enumOption(LibraryFunction f, Varargs args, int index, String[] options,
            Setter setter, int current) {
        LuaValue argument = args.arg(index);
        if (!argument.isnil()) {
            if (argument.isboolean()) {
                current = argument.toboolean() ? 1 : 0;
            } else {
                String name = f.checkString(args, index).tojstring();
                int found = -1;
                for (int option = 0; option < options.length; option++) {
                    if (options[option].equals(name)) {
                        found = option;
                    }
                }
                if (found < 0) {
                    throw f.argError(index, "invalid option '" + name + "'");
                }
                current = found;
            }
            setter.set(current);
        }
        if (current == 0 || current == 1) {
            return LuaValue.valueOf(current == 1);
        }
        return LuaValue.valueOf(options[current]);
    }

    // ===== Encoding =====

    private static Varargs encode(LibraryFunction f, Varargs args, Settings settings) {
        if (args.narg() != 1) {
            throw f.argError(1, "expected 1 argument");
        }
        ByteArrayOutputStream json = new ByteArrayOutputStream();
        appendValue(json, args.arg1(), settings);
        return LuaString.valueOf(json.toByteArray());
    }

    private static LuaError encodeError(LuaValue value, String reason) {
        return new LuaError("Cannot serialise " + value.typename() + ": " + reason);
    }

    private static void appendAscii(ByteArrayOutputStream json, String text) {
        byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
        json.write(bytes, 0, bytes.length);
    }

    private static void appendString(ByteArrayOutputStream json, LuaString string) {
        json.write('"');
        for (int index = 0; index < string.length(); index++) {
            int c = string.luaByte(index);
            String escape = ESCAPES[c];
            if (escape == null) {
                json.write(c);
            } else {
                appendAscii(json, escape);
            }
        }
        json.write('"');
    }

    private static void appendNumber(ByteArrayOutputStream json, LuaValue value, Settings settings) {
        double number = value.todouble();
        boolean invalid = Double.isNaN(number) || Double.isInfinite(number);
        if (settings.encodeInvalidNumbers == 0) {
            if (invalid) {
                throw encodeError(value, "must not be NaN or Inf");
            }
        } else if (settings.encodeInvalidNumbers == 1) {
            if (Double.isNaN(number)) {
                appendAscii(json, "nan");
                return;
            }
        } else if (invalid) {
            appendAscii(json, "null");
            return;
        }
        appendAscii(json, CNumberFormat.formatG(number, settings.encodeNumberPrecision));
    }

    /** The largest key when every key is a positive integer, -1 for an object; 0 when empty. */
    private static int arrayLength(LuaTable table, Settings settings) {
        int max = 0;
        int items = 0;
        for (Varargs entry = table.next(LuaValue.NIL); !entry.arg1().isnil(); entry = table.next(entry.arg1())) {
            LuaValue key = entry.arg1();
            double k = key.type() == LuaValue.TNUMBER ? key.todouble() : 0;
            if (k == 0 || Math.floor(k) != k || k < 1) {
                return -1;
            }
            if (k > max) {
                // C's (int) conversion as x86-64 does it: out of range gives INT_MIN.
                max = k < 0x1p31 ? (int) k : Integer.MIN_VALUE;
            }
            items++;
        }
        if (settings.sparseRatio > 0 && max > (long) items * settings.sparseRatio && max > settings.sparseSafe) {
            if (settings.sparseConvert == 0) {
                throw encodeError(table, "excessively sparse array");
            }
            return -1;
        }
        return max;
    }

    /** A table being written: an array's next index, or an object's last key. */
    private static final class OpenTable {
        final LuaTable table;
        final int arrayLength;
        int nextIndex = 1;
        LuaValue lastKey = LuaValue.NIL;
        boolean childOpen;

        OpenTable(LuaTable table, int arrayLength) {
            this.table = table;
            this.arrayLength = arrayLength;
        }

        boolean isArray() {
            return arrayLength > 0;
        }
    }

    /**
     * Writes the value, nested tables held in a list rather than on the Java stack. Beside
     * encode_max_depth, the C encoder stops where its Lua stack would: it holds the argument, one
     * slot per enclosing array and two per enclosing object, and needs three more to open a table.
     */
    private static void appendValue(ByteArrayOutputStream json, LuaValue root, Settings settings) {
        ArrayDeque<OpenTable> open = new ArrayDeque<>();
        int slots = 1;
        LuaValue value = root;
        while (true) {
            if (value.type() == LuaValue.TTABLE) {
                int depth = open.size() + 1;
                if (depth > settings.encodeMaxDepth || slots + 3 > LUA_STACK_SLOTS) {
                    throw new LuaError("Cannot serialise, excessive nesting (" + depth + ")");
                }
                LuaTable table = (LuaTable) value;
                int length = arrayLength(table, settings);
                json.write(length > 0 ? '[' : '{');
                open.push(new OpenTable(table, length));
            } else {
                appendScalar(json, value, settings);
            }
            value = null;
            while (value == null && !open.isEmpty()) {
                OpenTable top = open.peek();
                if (top.childOpen) {
                    slots -= top.isArray() ? 1 : 2;
                    top.childOpen = false;
                }
                if (top.isArray()) {
                    if (top.nextIndex > top.arrayLength) {
                        json.write(']');
                        open.pop();
                        continue;
                    }
                    if (top.nextIndex > 1) {
                        json.write(',');
                    }
                    value = top.table.rawget(top.nextIndex++);
                    slots += 1;
                } else {
                    Varargs entry = top.table.next(top.lastKey);
                    LuaValue key = entry.arg1();
                    if (key.isnil()) {
                        json.write('}');
                        open.pop();
                        continue;
                    }
                    if (!top.lastKey.isnil()) {
                        json.write(',');
                    }
                    appendKey(json, key, settings);
                    top.lastKey = key;
                    value = entry.arg(2);
                    slots += 2;
                }
                top.childOpen = true;
            }
            if (value == null) {
                return;
            }
        }
    }

    private static void appendScalar(ByteArrayOutputStream json, LuaValue value, Settings settings) {
        switch (value.type()) {
            case LuaValue.TSTRING -> appendString(json, value.strvalue());
            case LuaValue.TNUMBER -> appendNumber(json, value, settings);
            case LuaValue.TBOOLEAN -> appendAscii(json, value.toboolean() ? "true" : "false");
            case LuaValue.TNIL -> appendAscii(json, "null");
            default -> {
                if (value == NULL) {
                    appendAscii(json, "null");
                } else {
                    throw encodeError(value, "type not supported");
                }
            }
        }
    }

    private static void appendKey(ByteArrayOutputStream json, LuaValue key, Settings settings) {
        if (key.type() == LuaValue.TNUMBER) {
            json.write('"');
            appendNumber(json, key, settings);
            appendAscii(json, "\":");
        } else if (key.type() == LuaValue.TSTRING) {
            appendString(json, key.strvalue());
            json.write(':');
        } else {
            throw encodeError(key, "table key must be a number or string");
        }
    }

    // ===== Decoding =====

    private static Varargs decode(LibraryFunction f, Varargs args, Settings settings) {
        if (args.narg() != 1) {
            throw f.argError(1, "expected 1 argument");
        }
        LuaString text = f.checkString(args, 1);
        if (text.length() >= 2 && (text.luaByte(0) == 0 || text.luaByte(1) == 0)) {
            throw new LuaError("JSON parser does not support UTF-16 or UTF-32");
        }
        JsonParser parser = new JsonParser(text, settings);
        Token token = parser.nextToken();
        LuaValue value = parser.value(token);
        token = parser.nextToken();
        if (token.type != TokenType.T_END) {
            throw parser.parseError("the end", token);
        }
        return value;
    }

    private enum TokenType {
        T_OBJ_BEGIN, T_OBJ_END, T_ARR_BEGIN, T_ARR_END, T_STRING, T_NUMBER, T_BOOLEAN, T_NULL, T_COLON, T_COMMA,
        T_END, T_WHITESPACE, T_ERROR, T_UNKNOWN
    }

    /** One token; an error token's text says what was wrong, "invalid token" and the like. */
    private static final class Token {
        TokenType type;
        int index;
        LuaValue value;
        String error;
    }

    private static final TokenType[] CHARACTER_TOKENS = new TokenType[256];

    static {
        java.util.Arrays.fill(CHARACTER_TOKENS, TokenType.T_ERROR);
        CHARACTER_TOKENS['{'] = TokenType.T_OBJ_BEGIN;
        CHARACTER_TOKENS['}'] = TokenType.T_OBJ_END;
        CHARACTER_TOKENS['['] = TokenType.T_ARR_BEGIN;
        CHARACTER_TOKENS[']'] = TokenType.T_ARR_END;
        CHARACTER_TOKENS[','] = TokenType.T_COMMA;
        CHARACTER_TOKENS[':'] = TokenType.T_COLON;
        CHARACTER_TOKENS[0] = TokenType.T_END;
        for (char c : new char[] {' ', '\t', '\n', '\r'}) {
            CHARACTER_TOKENS[c] = TokenType.T_WHITESPACE;
        }
        for (char c : "fiInNt\"+-0123456789".toCharArray()) {
            CHARACTER_TOKENS[c] = TokenType.T_UNKNOWN;
        }
    }

    /** The C parser over the bytes of one decode call; bytes past the end read as the NUL. */
    private static final class JsonParser {
        private final LuaString text;
        private final Settings settings;
        private int position;
        private int depth;
        private int slots = 1;

        JsonParser(LuaString text, Settings settings) {
            this.text = text;
            this.settings = settings;
        }

        private int at(int index) {
            return index < text.length() ? text.luaByte(index) : 0;
        }

        LuaError parseError(String expected, Token token) {
            String found = token.type == TokenType.T_ERROR ? token.error : token.type.name();
            return new LuaError("Expected " + expected + " but found " + found + " at character " + (token.index + 1));
        }

        private Token error(Token token, String message) {
            token.type = TokenType.T_ERROR;
            token.index = position;
            token.error = message;
            return token;
        }

        Token nextToken() {
            Token token = new Token();
            int c;
            while (true) {
                c = at(position);
                token.type = CHARACTER_TOKENS[c];
                if (token.type != TokenType.T_WHITESPACE) {
                    break;
                }
                position++;
            }
            token.index = position;
            if (token.type == TokenType.T_ERROR) {
                return error(token, "invalid token");
            }
            if (token.type == TokenType.T_END) {
                return token;
            }
            if (token.type != TokenType.T_UNKNOWN) {
                position++;
                return token;
            }
            if (c == '"') {
                return stringToken(token);
            } else if (c == '-' || (c >= '0' && c <= '9')) {
                if (settings.decodeInvalidNumbers == 0 && isInvalidNumber()) {
                    return error(token, "invalid number");
                }
                return numberToken(token);
            } else if (startsWith("true")) {
                token.type = TokenType.T_BOOLEAN;
                token.value = LuaValue.TRUE;
                position += 4;
                return token;
            } else if (startsWith("false")) {
                token.type = TokenType.T_BOOLEAN;
                token.value = LuaValue.FALSE;
                position += 5;
                return token;
            } else if (startsWith("null")) {
                token.type = TokenType.T_NULL;
                position += 4;
                return token;
            } else if (settings.decodeInvalidNumbers != 0 && isInvalidNumber()) {
                return numberToken(token);
            }
            return error(token, "invalid token");
        }

        private boolean startsWith(String word) {
            for (int index = 0; index < word.length(); index++) {
                if (at(position + index) != word.charAt(index)) {
                    return false;
                }
            }
            return true;
        }

        private boolean startsWithIgnoreCase(int from, String word) {
            for (int index = 0; index < word.length(); index++) {
                if ((at(from + index) | 0x20) != word.charAt(index)) {
                    return false;
                }
            }
            return true;
        }

        /** json_is_invalid_number: a leading '+', hexadecimal, a leading zero, inf or nan. */
        private boolean isInvalidNumber() {
            int p = position;
            if (at(p) == '+') {
                return true;
            }
            if (at(p) == '-') {
                p++;
            }
            if (at(p) == '0') {
                int next = at(p + 1);
                return (next | 0x20) == 'x' || (next >= '0' && next <= '9');
            } else if (at(p) <= '9') {
                return false;
            }
            return startsWithIgnoreCase(p, "inf") || startsWithIgnoreCase(p, "nan");
        }

        private Token numberToken(Token token) {
            token.type = TokenType.T_NUMBER;
            CStrtod.Parsed number = CStrtod.parse(text, position);
            if (number == null) {
                return error(token, "invalid number");
            }
            token.value = LuaValue.valueOf(number.value());
            position = number.end();
            return token;
        }

        private Token stringToken(Token token) {
            position++;
            ByteArrayOutputStream decoded = new ByteArrayOutputStream();
            int c;
            while ((c = at(position)) != '"') {
                if (c == 0) {
                    return error(token, "unexpected end of string");
                }
                if (c == '\\') {
                    int escape = at(position + 1);
                    if (escape == 'u') {
                        if (!unicodeEscape(decoded)) {
                            return error(token, "invalid unicode escape code");
                        }
                        continue;
                    }
                    c = switch (escape) {
                        case '"', '\\', '/' -> escape;
                        case 'b' -> '\b';
                        case 't' -> '\t';
                        case 'n' -> '\n';
                        case 'f' -> '\f';
                        case 'r' -> '\r';
                        default -> -1;
                    };
                    if (c < 0) {
                        return error(token, "invalid escape code");
                    }
                    position++;
                }
                decoded.write(c);
                position++;
            }
            position++;
            token.type = TokenType.T_STRING;
            token.value = LuaString.valueOf(decoded.toByteArray());
            return token;
        }

        private int hex4(int from) {
            int value = 0;
            for (int index = 0; index < 4; index++) {
                int c = at(from + index);
                int digit;
                if (c >= '0' && c <= '9') {
                    digit = c - '0';
                } else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f') {
                    digit = 10 + (c | 0x20) - 'a';
                } else {
                    return -1;
                }
                value = (value << 4) | digit;
            }
            return value;
        }

        /** A \\uXXXX escape, or a surrogate pair of two, appended as UTF-8. */
        private boolean unicodeEscape(ByteArrayOutputStream decoded) {
            int codepoint = hex4(position + 2);
            int length = 6;
            if (codepoint < 0) {
                return false;
            }
            if ((codepoint & 0xF800) == 0xD800) {
                if ((codepoint & 0x400) != 0) {
                    return false;
                }
                if (at(position + 6) != '\\' || at(position + 7) != 'u') {
                    return false;
                }
                int low = hex4(position + 8);
                if (low < 0 || (low & 0xFC00) != 0xDC00) {
                    return false;
                }
                codepoint = (((codepoint & 0x3FF) << 10) | (low & 0x3FF)) + 0x10000;
                length = 12;
            }
            if (codepoint <= 0x7F) {
                decoded.write(codepoint);
            } else if (codepoint <= 0x7FF) {
                decoded.write((codepoint >> 6) | 0xC0);
                decoded.write((codepoint & 0x3F) | 0x80);
            } else if (codepoint <= 0xFFFF) {
                decoded.write((codepoint >> 12) | 0xE0);
                decoded.write(((codepoint >> 6) & 0x3F) | 0x80);
                decoded.write((codepoint & 0x3F) | 0x80);
            } else {
                decoded.write((codepoint >> 18) | 0xF0);
                decoded.write(((codepoint >> 12) & 0x3F) | 0x80);
                decoded.write(((codepoint >> 6) & 0x3F) | 0x80);
                decoded.write((codepoint & 0x3F) | 0x80);
            }
            position += length;
            return true;
        }

        /**
         * json_decode_descend: beside decode_max_depth, the C parser stops where its Lua stack
         * would, holding the argument, each open table and an open object's key, and needing
         * two more slots to open an array, three an object.
         */
        private void descend(int needed) {
            depth++;
            if (depth > settings.decodeMaxDepth || slots + needed > LUA_STACK_SLOTS) {
                throw new LuaError("Found too many nested data structures (" + depth + ") at character " + position);
            }
            slots++;
        }

        private void ascend() {
            depth--;
            slots--;
        }

        /** Reads an object's key and colon, leaving the token that starts its value. */
        private Token key(OpenContainer object, Token token) {
            if (token.type != TokenType.T_STRING) {
                throw parseError("object key string", token);
            }
            object.key = token.value;
            slots++;
            token = nextToken();
            if (token.type != TokenType.T_COLON) {
                throw parseError("colon", token);
            }
            return nextToken();
        }

        /** The value starting at the token; nested containers held in a list, not on the Java stack. */
        LuaValue value(Token token) {
            ArrayDeque<OpenContainer> open = new ArrayDeque<>();
            while (true) {
                LuaValue value;
                switch (token.type) {
                    case T_STRING, T_NUMBER, T_BOOLEAN -> value = token.value;
                    case T_NULL -> value = NULL;
                    case T_OBJ_BEGIN -> {
                        descend(3);
                        OpenContainer object = new OpenContainer(true);
                        token = nextToken();
                        if (token.type == TokenType.T_OBJ_END) {
                            ascend();
                            value = object.table;
                        } else {
                            token = key(object, token);
                            open.push(object);
                            continue;
                        }
                    }
                    case T_ARR_BEGIN -> {
                        descend(2);
                        OpenContainer array = new OpenContainer(false);
                        token = nextToken();
                        if (token.type == TokenType.T_ARR_END) {
                            ascend();
                            value = array.table;
                        } else {
                            open.push(array);
                            continue;
                        }
                    }
                    default -> throw parseError("value", token);
                }
                while (true) {
                    OpenContainer top = open.peek();
                    if (top == null) {
                        return value;
                    }
                    token = nextToken();
                    if (top.object) {
                        top.table.rawset(top.key, value);
                        slots--;
                        if (token.type == TokenType.T_OBJ_END) {
                            open.pop();
                            ascend();
                            value = top.table;
                            continue;
                        }
                        if (token.type != TokenType.T_COMMA) {
                            throw parseError("comma or object end", token);
                        }
                        token = key(top, nextToken());
                    } else {
                        top.table.rawset(top.nextIndex++, value);
                        if (token.type == TokenType.T_ARR_END) {
                            open.pop();
                            ascend();
                            value = top.table;
                            continue;
                        }
                        if (token.type != TokenType.T_COMMA) {
                            throw parseError("comma or array end", token);
                        }
                        token = nextToken();
                    }
                    break;
                }
            }
        }
    }

    /** An array or object being decoded: an array's next index, an object's key awaiting its value. */
    private static final class OpenContainer {
        final LuaTable table = new LuaTable();
        final boolean object;
        int nextIndex = 1;
        LuaValue key;

        OpenContainer(boolean object) {
            this.object = object;
        }
    }
}
