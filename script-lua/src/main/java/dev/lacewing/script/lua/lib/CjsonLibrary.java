package dev.lacewing.script.lua.lib;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
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
 * number or string keys; nesting deeper than encode_max_depth (1000) is an error.
 *
 * <p>Decoding follows the C parser byte for byte, a NUL ending the text as it does there: numbers
 * as C's strtod reads them (hexadecimal, inf and nan included unless decode_invalid_numbers is
 * off), \\u escapes and surrogate pairs to UTF-8, null as {@link #NULL}, nesting deeper than
 * decode_max_depth (1000) an error, and the C parser's error messages with 1-based positions.
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
        appendValue(json, args.arg1(), settings, 0);
        return LuaString.valueOf(json.toByteArray());
    }

    private static LuaError encodeError(LuaValue value, String reason) {
        return new LuaError("Cannot serialise " + value.typename() + ": " + reason);
    }

    private static void appendValue(ByteArrayOutputStream json, LuaValue value, Settings settings, int depth) {
        switch (value.type()) {
            case LuaValue.TSTRING -> appendString(json, value.strvalue());
            case LuaValue.TNUMBER -> appendNumber(json, value, settings);
            case LuaValue.TBOOLEAN -> appendAscii(json, value.toboolean() ? "true" : "false");
            case LuaValue.TTABLE -> {
                int nested = depth + 1;
                if (nested > settings.encodeMaxDepth) {
                    throw new LuaError("Cannot serialise, excessive nesting (" + nested + ")");
                }
                LuaTable table = (LuaTable) value;
                int length = arrayLength(table, settings);
                if (length > 0) {
                    appendArray(json, table, length, settings, nested);
                } else {
                    appendObject(json, table, settings, nested);
                }
            }
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

    private static void appendArray(ByteArrayOutputStream json, LuaTable table, int length, Settings settings,
            int depth) {
        json.write('[');
        for (int index = 1; index <= length; index++) {
            if (index > 1) {
                json.write(',');
            }
            appendValue(json, table.rawget(index), settings, depth);
        }
        json.write(']');
    }

    private static void appendObject(ByteArrayOutputStream json, LuaTable table, Settings settings, int depth) {
        json.write('{');
        boolean comma = false;
        for (Varargs entry = table.next(LuaValue.NIL); !entry.arg1().isnil(); entry = table.next(entry.arg1())) {
            if (comma) {
                json.write(',');
            }
            comma = true;
            LuaValue key = entry.arg1();
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
            appendValue(json, entry.arg(2), settings, depth);
        }
        json.write('}');
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

        private void descend() {
            depth++;
            if (depth > settings.decodeMaxDepth) {
                throw new LuaError("Found too many nested data structures (" + depth + ") at character " + position);
            }
        }

        LuaValue value(Token token) {
            switch (token.type) {
                case T_STRING:
                case T_NUMBER:
                case T_BOOLEAN:
                    return token.value;
                case T_NULL:
                    return NULL;
                case T_OBJ_BEGIN:
                    return object();
                case T_ARR_BEGIN:
                    return array();
                default:
                    throw parseError("value", token);
            }
        }

        private LuaValue object() {
            descend();
            LuaTable object = new LuaTable();
            Token token = nextToken();
            if (token.type == TokenType.T_OBJ_END) {
                depth--;
                return object;
            }
            while (true) {
                if (token.type != TokenType.T_STRING) {
                    throw parseError("object key string", token);
                }
                LuaValue key = token.value;
                token = nextToken();
                if (token.type != TokenType.T_COLON) {
                    throw parseError("colon", token);
                }
                object.rawset(key, value(nextToken()));
                token = nextToken();
                if (token.type == TokenType.T_OBJ_END) {
                    depth--;
                    return object;
                }
                if (token.type != TokenType.T_COMMA) {
                    throw parseError("comma or object end", token);
                }
                token = nextToken();
            }
        }

        private LuaValue array() {
            descend();
            LuaTable array = new LuaTable();
            Token token = nextToken();
            if (token.type == TokenType.T_ARR_END) {
                depth--;
                return array;
            }
            for (int index = 1; ; index++) {
                array.rawset(index, value(token));
                token = nextToken();
                if (token.type == TokenType.T_ARR_END) {
                    depth--;
                    return array;
                }
                if (token.type != TokenType.T_COMMA) {
                    throw parseError("comma or array end", token);
                }
                token = nextToken();
            }
        }
    }
}
