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
    public static final String DECREMENT_OVERFLOW = "ERR decrement would overflow";
    public static final String OFFSET_OUT_OF_RANGE = "ERR offset is out of range";
    public static final String INVALID_CURSOR = "ERR invalid cursor";
    public static final String SAME_OBJECT = "ERR source and destination objects are the same";
    public static final String EXPIRE_NX_CONFLICT = "ERR NX and XX, GT or LT options at the same time are not compatible";
    public static final String EXPIRE_GT_LT_CONFLICT = "ERR GT and LT options at the same time are not compatible";
    public static final String INVALID_FIRST_DB_INDEX = "ERR invalid first DB index";
    public static final String INVALID_SECOND_DB_INDEX = "ERR invalid second DB index";
    public static final String UNBLOCKED = "UNBLOCKED client unblocked via CLIENT UNBLOCK";

    private Errors() {
    }

    public static String wrongArity(String command) {
        return "ERR wrong number of arguments for '" + command + "' command";
    }

    public static String invalidExpireTime(String command) {
        return "ERR invalid expire time in '" + command + "' command";
    }

    /** An option the command does not know; CR and LF become spaces as in addReplyErrorFormat. */
    public static String unsupportedOption(String option) {
        return "ERR Unsupported option " + option.replace('\r', ' ').replace('\n', ' ');
    }

    /** getRangeLongFromObjectOrReply's reply for an integer outside {@code [min, max]}. */
    public static String valueOutOfRange(long min, long max) {
        return "ERR value is out of range, value must between " + min + " and " + max;
    }
}
