package dev.lacewing.core.command;

/** Error replies, worded exactly as Redis words them; defined once. */
public final class Errors {

    public static final String SYNTAX = "ERR syntax error";
    public static final String NOT_INTEGER = "ERR value is not an integer or out of range";
    public static final String NOT_FLOAT = "ERR value is not a valid float";
    public static final String WRONG_TYPE = "WRONGTYPE Operation against a key holding the wrong kind of value";
    public static final String NO_SUCH_KEY = "ERR no such key";
    public static final String OVERFLOW = "ERR increment or decrement would overflow";
    public static final String NAN_OR_INFINITY = "ERR increment would produce NaN or Infinity";
    public static final String DB_INDEX_OUT_OF_RANGE = "ERR DB index is out of range";
    public static final String STRING_TOO_LONG = "ERR string exceeds maximum allowed size (proto-max-bulk-len)";
    public static final String NOAUTH = "NOAUTH Authentication required.";
    public static final String WRONGPASS = "WRONGPASS invalid username-password pair or user is disabled.";

    private Errors() {
    }

    public static String wrongArity(String command) {
        return "ERR wrong number of arguments for '" + command + "' command";
    }

    public static String invalidExpireTime(String command) {
        return "ERR invalid expire time in '" + command + "' command";
    }
}
