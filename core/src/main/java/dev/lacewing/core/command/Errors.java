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

    public static final String NOT_FLOAT_RANGE = "ERR min or max is not a float";
    public static final String NOT_LEX_RANGE = "ERR min or max not valid string range item";
    public static final String SCORE_NAN = "ERR resulting score is not a number (NaN)";
    public static final String WEIGHT_NOT_FLOAT = "ERR weight value is not a float";
    public static final String ZADD_INCR_PAIRS = "ERR INCR option supports a single increment-element pair";
    public static final String ZADD_NX_XX = "ERR XX and NX options at the same time are not compatible";
    public static final String ZADD_GT_LT_NX = "ERR GT, LT, and/or NX options at the same time are not compatible";
    public static final String LIMIT_NEEDS_BYSCORE_OR_BYLEX =
        "ERR syntax error, LIMIT is only supported in combination with either BYSCORE or BYLEX";
    public static final String WITHSCORES_WITH_BYLEX = "ERR syntax error, WITHSCORES not supported in combination with BYLEX";
    public static final String NOT_POSITIVE = "ERR value is out of range, must be positive";
    public static final String OUT_OF_RANGE = "ERR value is out of range";
    public static final String NUMKEYS_NOT_POSITIVE = "ERR numkeys should be greater than 0";
    public static final String COUNT_NOT_POSITIVE = "ERR count should be greater than 0";
    public static final String LIMIT_NEGATIVE = "ERR LIMIT can't be negative";

    private Errors() {
    }

    public static String wrongArity(String command) {
        return "ERR wrong number of arguments for '" + command + "' command";
    }

    public static String invalidExpireTime(String command) {
        return "ERR invalid expire time in '" + command + "' command";
    }

    /** zunionInterDiffGenericCommand's reply for a numkeys below 1. */
    public static String atLeastOneInputKey(String command) {
        return "ERR at least 1 input key is needed for '" + command + "' command";
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
